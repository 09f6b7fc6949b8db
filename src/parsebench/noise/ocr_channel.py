"""OCR noise at a rate: a character channel learnt from real OCR pairs (the text drawn,
what Tesseract read: :mod:`.ocr` makes them, or a user's aligned pairs), drawn at an
exact character error rate, fast enough for a grid of levels.

The channel counts, for each character of the clean text, how often OCR kept it and
what it wrote instead (another character, two, none: a space read as none joins two
words, a letter read with a space after it splits one). Noise at rate R chooses
``round(R x characters)`` edits over the whole corpus: positions drawn without
replacement, each as likely as its character was misread in the pairs, each
replaced by one of the outputs OCR gave that character, until the edits add up
(never two next to each other, so that they cannot cancel, and none that would
leave a space doubled or at an end, which splitting the text into words would
undo); the Levenshtein distance of the result is counted again, so the rate
reported is the one made.
Written here because no library learns and draws an OCR character channel.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from parsebench.common.errors import InputError, atomic_output

FORMAT = "parsebench-ocr-channel"
VERSION = 1
DEFAULTS = Path(__file__).resolve().parent.parent / "data" / "ocr-channels"
"""The channels parsebench ships: ``LANG.json``, learnt from Tesseract on a treebank."""


def outputs(clean: str, read: str) -> Iterable[tuple[str, str]]:
    """Each clean character and what OCR wrote for it (itself when kept; characters it
    inserted go with the character before them; a deletion is "")."""
    from rapidfuzz.distance import Levenshtein

    out = [[c] for c in clean]
    lead = ""
    for op in Levenshtein.opcodes(clean, read):
        src, dst = clean[op.src_start:op.src_end], read[op.dest_start:op.dest_end]
        if op.tag == "equal":
            continue
        if op.tag == "insert":
            if op.src_start == 0:
                lead += dst
            else:
                out[op.src_start - 1].append(dst)
            continue
        for k in range(len(src)):  # replace or delete: char by char, the rest to the last
            got = dst[k] if k < len(dst) else ""
            if k == len(src) - 1 and len(dst) > len(src):
                got += dst[len(src):]
            out[op.src_start + k][0] = got
    if lead and out:
        out[0][0] = lead + out[0][0]
    for c, parts in zip(clean, out, strict=True):
        yield c, "".join(parts)


def learn(pairs: Iterable[tuple[str, str]], lang: str) -> dict[str, Any]:
    """The channel of PAIRS (clean text, OCR's text) in LANG."""
    seen: Counter[str] = Counter()
    wrote: dict[str, Counter[str]] = {}
    n = chars = 0
    for clean, read in pairs:
        n += 1
        for c, got in outputs(clean, read):
            seen[c] += 1
            chars += 1
            if got != c:
                wrote.setdefault(c, Counter())[got] += 1
    return {"format": FORMAT, "version": VERSION, "lang": lang, "pairs": n,
            "characters": chars, "seen": dict(sorted(seen.items())),
            "wrote": {c: dict(sorted(w.items())) for c, w in sorted(wrote.items())}}


def pairs_of(path: Path) -> Iterable[tuple[str, str]]:
    """The (clean, read) pairs of an OCR noise file (its ``# clean_text`` and ``# text``
    comments, as ``noise --kind ocr`` writes them); a sentence OCR could not read at all
    is no character's confusion and is left out."""
    from parsebench.formats.conllu import iter_conllu

    found = False
    for s in iter_conllu(path):
        clean = next((c[15:] for c in s.comments if c.startswith("# clean_text = ")), None)
        read = next((c[9:] for c in s.comments if c.startswith("# text = ")), None)
        if clean is None or read is None:
            continue
        found = True
        if "# ocr = unreadable" not in s.comments:
            yield clean, read
    if not found:
        raise InputError("no # clean_text and # text pair: give the output of noise "
                         "--kind ocr", path)


def save(channel: dict[str, Any], path: str | os.PathLike[str]) -> None:
    with atomic_output(Path(path)) as fh:
        fh.write(json.dumps(channel, ensure_ascii=False, indent=1) + "\n")


class Channel:
    """A learnt channel, drawn from: each character's chance of being misread and what
    it is read as."""

    def __init__(self, data: dict[str, Any], where: Path | None = None) -> None:
        try:
            if data.get("format") != FORMAT or data.get("version") != VERSION:
                raise ValueError("not a channel")
            seen = {str(c): int(v) for c, v in data["seen"].items()}
            wrote = {str(c): {str(o): int(k) for o, k in w.items()}
                     for c, w in data["wrote"].items()}
            if any(v < 0 for v in seen.values()) or any(
                    k < 0 or c not in seen or o == c
                    for c, w in wrote.items() for o, k in w.items()):
                raise ValueError("bad counts")
        except (AttributeError, KeyError, TypeError, ValueError) as e:
            raise InputError(f"not an OCR channel of this parsebench ({e})", where) from None
        self.lang = str(data.get("lang", ""))
        errors = sum(sum(w.values()) for w in wrote.values())
        if not errors:
            raise InputError("an OCR channel without a single misread character", where)
        total = sum(seen.values()) or 1
        self.floor = errors / total / 10  # a character never seen is rarely misread
        self.rate = {c: sum(wrote.get(c, {}).values()) / v for c, v in seen.items() if v}
        self.wrote = wrote
        flat: Counter[str] = Counter()  # what any letter was read as: for unseen ones
        for w in wrote.values():
            for o, k in w.items():
                if len(o) == 1 and o.strip():
                    flat[o] += k
        self.fallback = flat or Counter({"": 1})

    @staticmethod
    def load(path: str | os.PathLike[str] | None, lang: str) -> Channel:
        """The channel at PATH, else the one parsebench ships for LANG."""
        p = Path(path) if path is not None else DEFAULTS / f"{lang}.json"
        if not p.is_file():
            raise InputError(
                f"no OCR channel for {lang!r}: learn one from real OCR pairs (noise "
                "--kind ocr --quality fair, then noise-profile learn --ocr), and give it "
                "as channel" if path is None else "no such file", None if path is None else p)
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise InputError(f"not an OCR channel ({type(e).__name__})", p) from None
        if not isinstance(data, dict):
            raise InputError("not an OCR channel", p)
        return Channel(data, p)

    def _weight(self, c: str) -> float:
        return self.rate.get(c, self.floor)

    def _read_as(self, c: str, rng: random.Random) -> str:
        w = self.wrote.get(c) or self.fallback
        options = [o for o in w if o != c]
        if not options:
            return ""
        return rng.choices(options, weights=[w[o] for o in options])[0]

    def corrupt(self, texts: Sequence[str], rate: float, seed: int) -> list[str]:
        """TEXTS with ``round(RATE x characters)`` edits, seeded by SEED."""
        from rapidfuzz.distance import Levenshtein

        rng = random.Random(f"ocr-channel-{seed}")
        where = [(t, k) for t, text in enumerate(texts) for k in range(len(text))]
        target = round(rate * len(where))
        # a weighted order of every position (Efraimidis & Spirakis' keys)
        keys = [(rng.random() ** (1.0 / w) if (w := self._weight(texts[t][k])) > 0 else 0.0,
                 t, k) for t, k in where]
        keys.sort(reverse=True)
        chosen: dict[int, dict[int, str]] = {}
        made = 0
        for _, t, k in keys:
            if made >= target:
                break
            mine = chosen.setdefault(t, {})
            if k in mine or k - 1 in mine or k + 1 in mine:
                continue
            text = texts[t]
            c = text[k]
            got = self._read_as(c, rng)
            cost = Levenshtein.distance(c, got)
            if not cost or made + cost > target or not _spaced(text, k, got):
                continue
            mine[k] = got
            made += cost
        out = []
        for t, text in enumerate(texts):
            edits = chosen.get(t)
            out.append(text if not edits else
                       "".join(edits.get(k, c) for k, c in enumerate(text)))
        return out


def _spaced(text: str, k: int, got: str) -> bool:
    """Whether TEXT with its K-th character read as GOT keeps its spaces single and
    inside (text split at spaces would otherwise lose an edit, or count one more)."""
    w = text[max(0, k - 1):k] + got + text[k + 1:k + 2]
    return "  " not in w and not (k == 0 and w[:1].isspace()) \
        and not (k == len(text) - 1 and w[-1:].isspace()) and bool(w.strip() or not w)


def error_rate(texts: Sequence[str], read: Sequence[str]) -> float | None:
    """Character edits over characters, summed over the sentences."""
    from rapidfuzz.distance import Levenshtein

    chars = sum(map(len, texts))
    if not chars:
        return None
    return sum(Levenshtein.distance(a, b) for a, b in zip(texts, read, strict=True)) / chars
