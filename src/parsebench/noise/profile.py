"""A noise profile: what people's own misspellings look like, learnt from pairs of (as
written, corrected) words, so that noise can be drawn like them (issue 51).

The keyboard model (:mod:`.spelling`) makes one keyboard slip a word, non-words
only, uniformly over the eligible words. Natural typos differ on every count: many
are real words ("its", "loose"), they fall more on some words than others, and some
words carry several edits. A profile holds those counts, learnt from a CoNLL-U file
whose words carry ``CorrectForm=`` in MISC (English EWT, French and German GSD), two
aligned text files (a line each, as written and corrected), or an M2 file (ERRANT's
``R:SPELL`` and ``R:ORTH`` edits of annotator 0). It is a small JSON file a person can
read; ``noise-profile show`` prints every count in it.

Split and merged words (a change of tokenization) are counted; noise makes them when
asked (``tokenization``: :mod:`.profile_noise`). See docs/noise-profile.md.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parsebench.common.errors import InputError, atomic_output
from parsebench.noise.profile_pairs import APOSTROPHES, no_apostrophes, osa_ops, read_pairs

FORMAT = "parsebench-noise-profile"
VERSION = 1
OPERATIONS = ("sub", "ins", "del", "trans")
KINDS = ("edit", "case", "apostrophe")
"""A word's error is a case change, an apostrophe added, dropped or moved, or else edits
(substitution, insertion, deletion, transposition of adjacent letters)."""
POSITIONS = ("first", "middle", "last")
LENGTHS = ("1", "2", "3", "4", "5", "6", "7", "8-9", "10+")
BANDS = ("<3", "3-4", "4-5", "5-6", "6+")
"""Zipf frequency bands of the corrected word (wordfreq: 6+ is "the", "of"; <3 rare)."""
RECURRING = 2
"""A (corrected, written) pair seen this often or more is a word confusion noise reuses."""


def length_bucket(word: str) -> str:
    n = len(word)
    return str(n) if n <= 7 else "8-9" if n <= 9 else "10+"


def band(zipf: float) -> str:
    return "<3" if zipf < 3 else "3-4" if zipf < 4 else "4-5" if zipf < 5 else \
        "5-6" if zipf < 6 else "6+"


def position(op: str, at: int, length: int) -> str:
    """Where in a word of LENGTH an edit at AT falls: its first letter, its last (an
    insertion after it, too), or between."""
    if at == 0:
        return "first"
    last = length if op == "ins" else length - 1 - (op == "trans")
    return "last" if at >= last else "middle"


def _counts(c: Counter[str], order: Iterable[str] = ()) -> dict[str, int]:
    """C as a dict: the keys of ORDER first (0 where absent), the others by count, then
    name, so that the file is the same on every machine."""
    first = list(order)
    rest = sorted((k for k in c if k not in first), key=lambda k: (-c[k], k))
    return {k: c.get(k, 0) for k in [*first, *rest]}


def learn(paths: list[Path], lang: str = "en", lexicon: str | None = None) -> dict[str, Any]:
    """The profile of PATHS (see the module's docstring), as the file holds it."""
    from parsebench.noise.languages import LANGUAGES, folding
    from parsebench.noise.lexicon import Lexicon

    pairs = read_pairs(paths)
    fold = folding(lang)
    lex = Lexicon.load(lexicon, lang)
    zipf = None
    if lexicon is None and (lang not in LANGUAGES or LANGUAGES[lang].wordfreq):
        from parsebench.noise.grammar import zipf as zipf_of

        zipf = zipf_of(lang)
    kinds: Counter[str] = Counter()
    ops: Counter[str] = Counter()
    per_word: Counter[str] = Counter()
    where: Counter[str] = Counter()
    confusions: Counter[str] = Counter()
    case: Counter[str] = Counter()
    apostrophe: Counter[str] = Counter()
    by: dict[str, tuple[Counter[str], Counter[str]]] = {
        "length": (Counter(), Counter()), "frequency": (Counter(), Counter()),
        "upos": (Counter(), Counter())}
    per_sentence: Counter[str] = Counter()
    pair_counts: Counter[str] = Counter()
    occurrences: Counter[str] = Counter()
    erred: Counter[str] = Counter()
    words = errors = real = 0
    has_upos = False
    for sent in pairs.sentences:
        here = 0
        for w in sent:
            words += 1
            occurrences[w.correct.lower()] += 1
            has_upos = has_upos or w.upos != "_"
            keys = {"length": length_bucket(w.correct), "upos": w.upos}
            if zipf is not None:
                keys["frequency"] = band(zipf(w.correct))
            for name, key in keys.items():
                by[name][1][key] += 1
            if w.written is None:
                continue
            errors += 1
            here += 1
            for name, key in keys.items():
                by[name][0][key] += 1
            x, c = w.written, w.correct
            pair_counts[f"{c.lower()}>{x.lower()}"] += 1
            erred[c.lower()] += 1
            if fold(x) in lex.words:
                real += 1
            if x.lower() == c.lower():
                kinds["case"] += 1
                case["lowered" if x[:1].islower() and c[:1].isupper() else
                     "raised" if x[:1].isupper() and c[:1].islower() else "inside"] += 1
            elif no_apostrophes(x) == no_apostrophes(c):
                kinds["apostrophe"] += 1
                na, nc = sum(ch in APOSTROPHES for ch in x), sum(ch in APOSTROPHES for ch in c)
                apostrophe["dropped" if na < nc else "added" if na > nc else "moved"] += 1
            else:
                kinds["edit"] += 1
                got = osa_ops(x.lower(), c.lower())
                per_word[str(len(got))] += 1
                for op, at, old, new in got:
                    ops[op] += 1
                    where[position(op, at, len(c))] += 1
                    confusions[f"{old}>{new}" if op in ("sub", "trans") else
                               f"+{new}" if op == "ins" else f"-{old}"] += 1
        if here:
            per_sentence[str(here)] += 1
    if not has_upos:
        del by["upos"]
    if zipf is None:
        del by["frequency"]
    orders = {"length": LENGTHS, "frequency": BANDS, "upos": ()}
    return {
        "format": FORMAT, "version": VERSION,
        "source": [Path(p).name for p in paths], "lang": lang, "lexicon": lex.name,
        "words": words, "errors": errors, "sentences": len(pairs.sentences),
        "real_words": real,
        "kinds": _counts(kinds, KINDS),
        "edits_per_word": dict(sorted(_counts(per_word).items(), key=lambda kv: int(kv[0]))),
        "operations": _counts(ops, OPERATIONS),
        "positions": _counts(where, POSITIONS),
        "confusions": _counts(confusions),
        "case": _counts(case, ("lowered", "raised", "inside")),
        "apostrophe": _counts(apostrophe, ("dropped", "added", "moved")),
        "errors_by": {name: {k: [e.get(k, 0), a[k]] for k in _counts(a, orders[name])
                             if a.get(k, 0)}
                      for name, (e, a) in by.items()},
        "errors_per_sentence": dict(sorted(_counts(per_sentence).items(),
                                           key=lambda kv: int(kv[0]))),
        "pairs": {k: v for k, v in _counts(pair_counts).items() if v >= RECURRING},
        "pair_words": {w: [erred[w], occurrences[w]] for w in sorted(
            {k.partition(">")[0] for k, v in pair_counts.items() if v >= RECURRING},
            key=lambda w: (-erred[w], w))},
        "tokenization": {"split": pairs.split, "merged": pairs.merged},
        "unpaired": pairs.unpaired, "other_changes": pairs.other,
        "impossible": pairs.impossible,
    }


def save(profile: Mapping[str, Any], path: str | os.PathLike[str]) -> None:
    import re

    text = json.dumps(profile, ensure_ascii=False, indent=1)
    # a [errors, words] row and the source's names on one line each: readable
    text = re.sub(r"\[\s+([^\[\]{}]*?)\s+\]",
                  lambda m: "[" + re.sub(r",\s+", ", ", m.group(1)) + "]", text)
    with atomic_output(path) as fh:
        fh.write(text + "\n")


def _line_of(text: str, key: str) -> int | None:
    at = text.find(f'"{key}"')
    return text.count("\n", 0, at) + 1 if at >= 0 else None


@dataclass
class Profile:
    """A profile file read and checked: what noise draws from."""

    data: dict[str, Any]
    name: str
    digest: str = ""
    """The file's SHA-256, first 12 digits: a run's or a noise file's record names it."""

    @property
    def rate(self) -> float:
        return int(self.data["errors"]) / int(self.data["words"])

    def check_language(self, lang: str) -> None:
        """Refuse drawing this profile's errors into text of another language than the
        one it was learnt from (English typos are not French ones)."""
        own = self.data.get("lang")
        if isinstance(own, str) and own != lang:
            raise InputError(f"the profile {self.name} was learnt from {own!r} text, the "
                             f"noise is for {lang!r}: learn one from {lang!r} text "
                             f"(noise-profile learn --lang {lang}) or give lang {own!r}")

    def weights(self, key: str) -> dict[str, int]:
        return {k: int(v) for k, v in self.data[key].items()}

    @property
    def real_share(self) -> float:
        """Errors that are real words: 0 keeps Bigert's non-word rule."""
        return int(self.data["real_words"]) / int(self.data["errors"])


MAX_COUNT = 10**15
"""The largest count a profile may hold: more words than any corpus has, and small
enough that shares of it are floats (a count of 10**400 overflowed one)."""


def _is_count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_COUNT


def _check_counts(value: Any, nested: bool = False) -> bool:
    if not isinstance(value, dict):
        return False
    for v in value.values():
        if nested:
            if not (isinstance(v, list) and len(v) == 2 and all(_is_count(x) for x in v)):
                return False
        elif not _is_count(v):
            return False
    return True


COUNT_TABLES = ("kinds", "edits_per_word", "operations", "positions", "confusions", "case",
                "apostrophe", "errors_per_sentence", "pairs", "tokenization")


def load(path: str | os.PathLike[str]) -> Profile:
    """Read and check a profile: a fault is one line, at the file's line where it can be."""
    from parsebench.common.errors import read_bytes

    raw = read_bytes(path)
    try:
        text = raw.decode("utf-8")
        data = json.loads(text)
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text: a noise profile is JSON", path) from None
    except json.JSONDecodeError as e:
        raise InputError(f"not a noise profile: {e.msg} (JSON)", path, e.lineno) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError(f'not a noise profile: "format": "{FORMAT}" is missing', path,
                         _line_of(text, "format"))
    if data.get("version") != VERSION:
        raise InputError(f"profile version {data.get('version')!r}: this parsebench reads "
                         f"version {VERSION}", path, _line_of(text, "version"))
    for key in ("words", "errors", "real_words"):
        if not _is_count(data.get(key)):
            raise InputError(f'"{key}": expected a count (a whole number from 0 to 10^15)',
                             path, _line_of(text, key))
    for key in COUNT_TABLES:
        if not _check_counts(data.get(key)):
            raise InputError(f'"{key}": expected a table of counts (name: whole number '
                             'from 0 to 10^15)', path, _line_of(text, key))
    if "pair_words" in data and not _check_counts(data["pair_words"], True):
        raise InputError('"pair_words": expected a table of [errors, words]', path,
                         _line_of(text, "pair_words"))
    by = data.get("errors_by")
    if not isinstance(by, dict) or not all(_check_counts(v, True) for v in by.values()):
        raise InputError('"errors_by": expected tables of [errors, words]', path,
                         _line_of(text, "errors_by"))
    if not data["errors"] or not data["words"] or data["errors"] > data["words"]:
        raise InputError(f'"errors": {data["errors"]} of {data["words"]} words: a profile '
                         "needs errors, and no more than its words", path,
                         _line_of(text, "errors"))
    if data["real_words"] > data["errors"]:
        raise InputError('"real_words": more than the errors', path,
                         _line_of(text, "real_words"))
    bad = next((k for k in data["operations"] if k not in OPERATIONS), None) or \
        next((k for k in data["kinds"] if k not in KINDS), None) or \
        next((k for k in data["positions"] if k not in POSITIONS), None)
    if bad is not None:
        raise InputError(f'"{bad}": not an operation, kind or position of a profile', path,
                         _line_of(text, bad))
    if not any(data["kinds"].values()):
        raise InputError('"kinds": every count is 0', path, _line_of(text, "kinds"))
    if data["kinds"].get("edit") and not (any(data["operations"].values()) and any(
            data["edits_per_word"].values())):
        raise InputError('"operations": edits counted, but no operation', path,
                         _line_of(text, "operations"))
    bad = next((k for k in data["edits_per_word"] if not k.isdigit() or int(k) < 1), None)
    if bad is not None:
        raise InputError(f'"edits_per_word": {bad!r} is not a number of edits (1 or more)',
                         path, _line_of(text, "edits_per_word"))
    import hashlib

    return Profile(data, Path(path).name, hashlib.sha256(raw).hexdigest()[:12])


def _share(n: int, of: int) -> str:
    return f"{100 * n / of:.1f}%" if of else "n/a"


def show(profile: Mapping[str, Any]) -> str:
    """Every count of PROFILE, with its share, as ``noise-profile show`` prints it."""
    p = profile
    errors, words = int(p["errors"]), int(p["words"])
    lines = [f"noise profile learnt from {', '.join(p.get('source', []))} "
             f"(lang {p.get('lang', '?')}, lexicon {p.get('lexicon', '?')})",
             f"words {words}, sentences {p.get('sentences', 'n/a')}, errors {errors} "
             f"(rate {_share(errors, words)})",
             f"real words (in the lexicon) {p['real_words']} ({_share(p['real_words'], errors)})"
             + ("; none: non-words only (Bigert's rule)" if not p["real_words"] else "")]

    def table(title: str, counts: Mapping[str, int], of: int | None = None) -> None:
        total = sum(counts.values()) if of is None else of
        lines.append(f"{title}:" + ("" if counts else " none"))
        row = [f"{k} {v} ({_share(v, total)})" for k, v in counts.items()]
        for i in range(0, len(row), 6):
            lines.append("  " + ", ".join(row[i:i + 6]))

    table("kinds of error", p["kinds"])
    table("edits a word (edit errors)", p["edits_per_word"])
    table("operations (of all edits)", p["operations"])
    table("where in the word", p["positions"])
    table("letters confused (x>y substituted or swapped, +y inserted, -x deleted)",
          p["confusions"])
    table("case errors", p["case"])
    table("apostrophe errors", p["apostrophe"])
    for name, rows in p["errors_by"].items():
        lines.append(f"errors by {name} of the corrected word (errors / words, rate):")
        row = [f"{k} {e}/{a} ({_share(e, a)})" for k, (e, a) in rows.items()]
        for i in range(0, len(row), 5):
            lines.append("  " + ", ".join(row[i:i + 5]))
    table("sentences by errors in them", p["errors_per_sentence"])
    table(f"word confusions seen {RECURRING} times or more (corrected>written)", p["pairs"],
          errors)
    pw = p.get("pair_words", {})
    lines.append("their words' errors / occurrences (rate):" + ("" if pw else " none"))
    row = [f"{k} {e}/{a} ({_share(e, a)})" for k, (e, a) in pw.items()]
    for i in range(0, len(row), 5):
        lines.append("  " + ", ".join(row[i:i + 5]))
    tok = p["tokenization"]
    lines.append(f"tokenization changes (made by noise --tokenization): split "
                 f"{tok.get('split', 0)}, merged {tok.get('merged', 0)}")
    lines.append(f"typos without a correction: {p.get('unpaired', 0)}; other changes (not "
                 f"misspellings, left out): {p.get('other_changes', 0)}; impossible pairs "
                 f"(an empty correction, a space or an invisible character in a word; "
                 f"left out): {p.get('impossible', 0)}")
    return "\n".join(lines) + "\n"


def iter_table(profile: Mapping[str, Any]) -> Iterator[tuple[str, str, int]]:
    """Every count of PROFILE as (table, name, count): what ``show`` prints, for tests."""
    for key in ("words", "errors", "sentences", "real_words"):
        yield "", key, int(profile[key])
    for key in COUNT_TABLES:
        for k, v in profile[key].items():
            yield key, k, int(v)
    for name, rows in [*profile["errors_by"].items(),
                       ("pair_words", profile.get("pair_words", {}))]:
        for k, (e, a) in rows.items():
            yield name, k, e
            yield name, k, a
