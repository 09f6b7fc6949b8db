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
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

from parsebench.errors import InputError, atomic_output, iter_lines

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
APOSTROPHES = "'\u2019"
RECURRING = 2
"""A (corrected, written) pair seen this often or more is a word confusion noise reuses."""


def length_bucket(word: str) -> str:
    n = len(word)
    return str(n) if n <= 7 else "8-9" if n <= 9 else "10+"


def band(zipf: float) -> str:
    return "<3" if zipf < 3 else "3-4" if zipf < 4 else "4-5" if zipf < 5 else \
        "5-6" if zipf < 6 else "6+"


def osa_ops(written: str, correct: str) -> list[tuple[str, int, str, str]]:
    """The edits turning CORRECT into WRITTEN, fewest first (Damerau-Levenshtein, optimal
    string alignment): (operation, position in CORRECT, letters before, letters after)."""
    a, b = correct, written
    n, m = len(a), len(b)
    d = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        d[i][0] = i
    for j in range(m + 1):
        d[0][j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1,
                          d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    out: list[tuple[str, int, str, str]] = []
    i, j = n, m
    while i > 0 or j > 0:  # a fixed order of preference: the same path on every machine
        if i > 0 and j > 0 and a[i - 1] == b[j - 1] and d[i][j] == d[i - 1][j - 1]:
            i, j = i - 1, j - 1
        elif i > 0 and j > 0 and d[i][j] == d[i - 1][j - 1] + 1:
            out.append(("sub", i - 1, a[i - 1], b[j - 1]))
            i, j = i - 1, j - 1
        elif i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1] \
                and d[i][j] == d[i - 2][j - 2] + 1:
            out.append(("trans", i - 2, a[i - 2:i], b[j - 2:j]))
            i, j = i - 2, j - 2
        elif i > 0 and d[i][j] == d[i - 1][j] + 1:
            out.append(("del", i - 1, a[i - 1], ""))
            i -= 1
        else:
            out.append(("ins", i, "", b[j - 1]))
            j -= 1
    return out[::-1]


def position(op: str, at: int, length: int) -> str:
    """Where in a word of LENGTH an edit at AT falls: its first letter, its last (an
    insertion after it, too), or between."""
    if at == 0:
        return "first"
    last = length if op == "ins" else length - 1 - (op == "trans")
    return "last" if at >= last else "middle"


def no_apostrophes(word: str) -> str:
    return "".join(ch for ch in word if ch not in APOSTROPHES)


@dataclass
class Word:
    """One word of the corrected text: its form, UPOS (``_`` when unknown), and the form
    written in its place when that differs."""

    correct: str
    upos: str = "_"
    written: str | None = None


@dataclass
class Pairs:
    """What a pairs file holds: its sentences of words, and the tokenization changes."""

    sentences: list[list[Word]] = field(default_factory=list)
    split: int = 0
    merged: int = 0
    unpaired: int = 0
    """Words marked as typos with no correction given (CoNLL-U ``Typo=Yes`` alone)."""
    other: int = 0
    """Changes that are not misspellings (texts, M2: other edits; CoNLL-U: an address or
    URL broken into tokens, joined by goeswith), left out."""


def read_conllu_pairs(path: Path) -> Pairs:
    from parsebench.formats.conllu import iter_conllu

    out = Pairs()
    for s in iter_conllu(path):
        words = []
        for i, form in enumerate(s.forms):
            misc = s.misc[i] if i < len(s.misc) else "_"
            fixed = next((x.split("=", 1)[1] for x in misc.split("|")
                          if x.startswith("CorrectForm=")), None)
            upos = s.upos[i] if i < len(s.upos) else "_"
            if s.deprels[i] == "goeswith":
                continue  # a part of a word split in two: counted with its first part
            split = i + 1 < len(s.forms) and s.deprels[i + 1] == "goeswith"
            if split:
                parts = [form, *(s.forms[k] for k in range(i + 1, len(s.forms))
                                 if s.deprels[k] == "goeswith" and s.heads[k] == i + 1)]
                # a typist's split ("with out"); an e-mail address or a URL broken into
                # tokens (half of EWT's goeswith) is no misspelling
                if all(p.isalpha() for p in parts):
                    out.split += 1
                else:
                    out.other += 1
            elif fixed is None and "Typo=Yes" in s.feats[i].split("|"):
                out.unpaired += 1
            if fixed is not None and fixed != "_" and not split:
                words.append(Word(fixed, upos, form if form != fixed else None))
            else:
                words.append(Word(form, upos))
        out.sentences.append(words)
    return out


def _plausible(written: str, correct: str) -> bool:
    """Whether a changed word of aligned texts is a misspelling, not another word: a case
    or apostrophe change, or at most two edits (three for words of 8 letters or more)."""
    if written.lower() == correct.lower() or no_apostrophes(written) == no_apostrophes(correct):
        return True
    return len(osa_ops(written.lower(), correct.lower())) <= (3 if len(correct) >= 8 else 2)


def _align(written: list[str], correct: list[str], out: Pairs) -> list[Word]:
    """CORRECT's words, each with the word written in its place if it was misspelled;
    a word written as two (or two as one) counted as split (merged)."""
    words = [Word(w) for w in correct]
    sm = SequenceMatcher(None, written, correct, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            continue
        if tag == "replace" and i2 - i1 == j2 - j1:
            for w, j in zip(written[i1:i2], range(j1, j2), strict=True):
                if _plausible(w, correct[j]):
                    words[j].written = w
                else:
                    out.other += 1
        elif tag == "replace" and i2 - i1 == 1 and "".join(correct[j1:j2]) == written[i1]:
            out.merged += 1
        elif tag == "replace" and j2 - j1 == 1 and "".join(written[i1:i2]) == correct[j1]:
            out.split += 1
        else:
            out.other += 1
    return words


def read_text_pairs(written: Path, corrected: Path) -> Pairs:
    a = list(iter_lines(written))
    b = list(iter_lines(corrected))
    if len(a) != len(b):
        raise InputError(f"{len(a)} lines, but {corrected} has {len(b)}: aligned texts have "
                         "a sentence a line in both", written)
    out = Pairs()
    for x, y in zip(a, b, strict=True):
        if y.split():
            out.sentences.append(_align(x.split(), y.split(), out))
    return out


M2_SPELLING = ("R:SPELL", "R:ORTH")


def read_m2_pairs(path: Path) -> Pairs:
    """Annotator 0's ``R:SPELL`` and ``R:ORTH`` edits of an M2 file (ERRANT's types)."""
    out = Pairs()
    tokens: list[str] | None = None
    edits: list[tuple[int, int, str, str]] = []

    def finish() -> None:
        if tokens is None:
            return
        written = list(tokens)
        words: list[Word] = []
        at = 0
        for start, end, kind, fix in sorted(edits):
            for w in written[at:start]:
                words.append(Word(w))
            parts = fix.split()
            old = written[start:end]
            if kind not in M2_SPELLING:
                words.extend(Word(w) for w in old)  # the text kept as written
                out.other += 1
            elif len(old) == len(parts) == 1:
                words.append(Word(parts[0], "_", old[0] if old[0] != parts[0] else None))
            elif len(old) == 1 and "".join(parts) == old[0]:
                out.merged += 1
                words.extend(Word(p) for p in parts)
            elif len(parts) == 1 and "".join(old) == parts[0]:
                out.split += 1
                words.append(Word(parts[0]))
            else:
                out.other += 1
                words.extend(Word(w) for w in old)
            at = max(at, end)
        words.extend(Word(w) for w in written[at:])
        out.sentences.append(words)

    for k, line in enumerate(iter_lines(path), 1):
        if line.startswith("S "):
            finish()
            tokens, edits = line[2:].split(), []
        elif line.startswith("A "):
            if tokens is None:
                raise InputError("an A line before any S line", path, k)
            parts = line[2:].split("|||")
            try:
                start, end = (int(x) for x in parts[0].split())
                kind, fix, annotator = parts[1], parts[2], int(parts[-1])
            except (ValueError, IndexError):
                raise InputError("expected 'A START END|||TYPE|||CORRECTION|||...|||"
                                 "ANNOTATOR'", path, k) from None
            if not 0 <= start <= end <= len(tokens) and start != -1:
                raise InputError(f"edit {start} {end} outside the sentence's "
                                 f"{len(tokens)} words", path, k)
            if annotator == 0 and kind not in ("noop", "UNK") and start >= 0:
                edits.append((start, end, kind, fix))
        elif line.strip():
            raise InputError("expected an S or an A line (M2)", path, k)
    finish()
    return out


def read_pairs(paths: list[Path]) -> Pairs:
    """CoNLL-U files with ``CorrectForm=`` or M2 files (one or several, read as one), or
    two aligned texts."""
    if len(paths) > 1 and all(_annotated(p) for p in paths):  # (two CoNLL-U files
        # were read as aligned texts: "41213 lines, but ... has 11548")
        import dataclasses

        parts = [read_pairs([p]) for p in paths]
        counts = {f.name: sum(getattr(part, f.name) for part in parts)
                  for f in dataclasses.fields(Pairs) if f.name != "sentences"}
        return Pairs([s for part in parts for s in part.sentences], **counts)
    if len(paths) == 2:
        return read_text_pairs(paths[0], paths[1])
    if len(paths) != 1:
        raise InputError("give CoNLL-U files with CorrectForm=, M2 files, or two aligned "
                         "text files (as written, corrected)")
    p = paths[0]
    if p.suffix == ".m2":
        return read_m2_pairs(p)
    from itertools import islice

    from parsebench.formats.conllu import looks_like_conllu

    if looks_like_conllu(p, islice(iter_lines(p), 1000)):
        return read_conllu_pairs(p)
    raise InputError("neither CoNLL-U nor M2 (.m2): two aligned texts are given as two "
                     "files", p)


def _annotated(p: Path) -> bool:
    """Whether P is an M2 file or CoNLL-U, not a plain text."""
    from itertools import islice

    from parsebench.formats.conllu import looks_like_conllu

    return p.suffix == ".m2" or looks_like_conllu(p, islice(iter_lines(p), 1000))


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
    from parsebench.errors import read_bytes

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
                 f"misspellings, left out): {p.get('other_changes', 0)}")
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
