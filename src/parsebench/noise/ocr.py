"""OCR noise, real: a sentence rendered as an image (Pillow, a font with its script),
degraded by seeded operations (resolution, blur, speckle, threshold, skew), read back
by Tesseract in the corpus's language (tesserocr), and aligned to the gold words by
characters, so that the gold tree goes to the words OCR returned.

Van Strien et al. (2020) measured parsing against OCR quality on real scans; this
makes such text from any treebank, with the character and word error rates of each
sentence. Written here because no library renders, degrades and reads text back
with the alignment kept; each step is a library's (Pillow, numpy, Tesseract,
rapidfuzz's edit operations).
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from parsebench.common.errors import InputError
from parsebench.formats.conllu import NO_HEAD, Sentence
from parsebench.noise.source import words_only

TESSERACT = {"en": "eng", "de": "deu", "fr": "fra", "fi": "fin", "fa": "fas", "id": "ind",
             "ga": "gle", "ko": "kor", "ru": "rus", "tr": "tur", "sv": "swe", "ja": "jpn",
             "zh": "chi_sim"}
"""Each language's Tesseract model (Debian's ``tesseract-ocr-XXX`` holds it)."""
UNSPACED = frozenset({"ja", "zh"})
"""Languages written without spaces: their lines wrap between characters, and OCR's
words are the gold words' spans of what it read."""
FONTS = {"cjk": ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", "fonts-wqy-microhei"),
         "other": ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "fonts-dejavu-core")}
"""The font of each script (DejaVu Sans has Latin, Cyrillic, Greek and Arabic)."""
TESSDATA = ("/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata")


@dataclass(frozen=True)
class Degradation:
    """What is done to a sentence's image: drawn at SIZE px, scaled by SCALE (its
    resolution), blurred by BLUR px, SPECKLE of its pixels flipped, cut at THRESHOLD
    (0-255; None: grey kept) and turned by up to SKEW degrees either way."""

    size: int = 28
    scale: float = 1.0
    blur: float = 0.0
    speckle: float = 0.0
    threshold: int | None = None
    skew: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"size": self.size, "scale": self.scale, "blur": self.blur,
                "speckle": self.speckle, "threshold": self.threshold, "skew": self.skew}


QUALITY = {"clean": Degradation(),
           "good": Degradation(scale=0.5, blur=0.5, speckle=0.002, skew=0.3),
           "fair": Degradation(scale=0.5, blur=0.5, speckle=0.01, skew=0.3),
           "poor": Degradation(scale=0.45, blur=0.6, speckle=0.02, skew=0.5)}
"""The ``--quality`` presets, from a clean print to a poor scan (their character error
rates on English text: docs/commands.md)."""


def degradation(quality: str | None, settings: str | None) -> Degradation:
    """The preset QUALITY (default fair), with SETTINGS over it (``blur=1,skew=2``)."""
    base = QUALITY.get(quality or "fair")
    if base is None:
        raise InputError(f"--quality {quality!r}: " + ", ".join(QUALITY))
    values = base.to_dict()
    for part in (settings or "").split(","):
        if not part.strip():
            continue
        key, eq, value = part.partition("=")
        key = key.strip()
        try:
            if key not in values or not eq:
                raise ValueError
            got: float | int | None = None if value.strip() == "none" else float(value)
        except ValueError:
            raise InputError(f"--degrade {part.strip()!r}: NAME=VALUE, NAME one of "
                             + ", ".join(values)) from None
        limits = {"size": (8, 200), "scale": (0.05, 4.0), "blur": (0.0, 10.0),
                  "speckle": (0.0, 0.5), "threshold": (0, 255), "skew": (0.0, 45.0)}
        low, high = limits[key]
        if (got is None and key != "threshold") or (got is not None and (
                not math.isfinite(got) or not low <= got <= high)):
            raise InputError(f"--degrade {key}={value.strip()}: from {low} to {high}")
        values[key] = None if got is None else int(got) if key in ("size", "threshold") \
            else got
    return Degradation(**values)


class Reader:
    """Tesseract for LANG, loaded once; a line or block of text read from an image."""

    def __init__(self, lang: str, font: str | None = None) -> None:
        code = TESSERACT.get(lang)
        if code is None:
            raise InputError(f"--kind ocr: no Tesseract model known for --lang {lang}; "
                             "one of " + ", ".join(sorted(TESSERACT)))
        os.environ.setdefault("OMP_THREAD_LIMIT", "1")  # the same text every time
        try:
            import PIL  # noqa: F401
            import tesserocr
        except ImportError:
            raise InputError("--kind ocr needs tesserocr and Pillow: pip install "
                             "'parsebench[ocr]' (and apt-get install tesseract-ocr-"
                             f"{code.replace('_', '-')})") from None
        tessdata = os.environ.get("TESSDATA_PREFIX") or next(
            (d for d in TESSDATA if Path(d, f"{code}.traineddata").is_file()), None)
        if tessdata is None or not Path(tessdata, f"{code}.traineddata").is_file():
            raise InputError(f"--kind ocr in {lang} needs Tesseract's {code} model: "
                             f"apt-get install tesseract-ocr-{code.replace('_', '-')}")
        path, package = FONTS["cjk" if lang in ("ja", "zh", "ko") else "other"]
        path = font or path
        try:
            font_of(path, 28)
        except OSError:
            raise InputError(f"--kind ocr: cannot read the font {path}"
                             + ("" if font else f" (apt-get install {package})")) from None
        self.font_path = path
        self.lang, self.code = lang, code
        self.api = tesserocr.PyTessBaseAPI(path=tessdata, lang=code,
                                           psm=tesserocr.PSM.SINGLE_BLOCK)
        self.tesseract = tesserocr.tesseract_version().split()[1]

    def read(self, text: str, how: Degradation, seed: int, index: int) -> str:
        """TEXT drawn, degraded by HOW (seeded by SEED and the sentence's INDEX) and read."""
        self.api.SetImage(render(text, how, self.font_path, self.lang, seed, index))
        return " ".join(self.api.GetUTF8Text().split())


@functools.lru_cache(maxsize=8)
def font_of(path: str, size: int) -> Any:
    """The font file at PATH at SIZE px, read once (every sentence is drawn with it)."""
    from PIL import ImageFont

    return ImageFont.truetype(path, size)


def render(text: str, how: Degradation, font_path: str, lang: str, seed: int,
           index: int) -> Any:
    """TEXT as a greyscale image: lines of at most 1,200 px at HOW.size, then HOW's
    operations, each seeded by SEED and INDEX so that the same seed gives the same image."""
    import numpy as np
    from PIL import Image, ImageDraw, ImageFilter

    font = font_of(font_path, how.size)
    lines = _wrapped(text, font, 1200, lang in UNSPACED)
    height = int(how.size * 1.5)
    width = max(int(font.getlength(line)) for line in lines) + 2 * how.size
    img = Image.new("L", (width, height * len(lines) + how.size), 255)
    draw = ImageDraw.Draw(img)
    for k, line in enumerate(lines):
        draw.text((how.size, how.size // 2 + k * height), line, font=font, fill=0)
    rng = np.random.default_rng([seed, index])
    angle = float(rng.uniform(-how.skew, how.skew)) if how.skew else 0.0
    if angle:
        img = img.rotate(angle, resample=Image.Resampling.BILINEAR, expand=True, fillcolor=255)
    if how.scale != 1.0:
        img = img.resize((max(1, round(img.width * how.scale)),
                          max(1, round(img.height * how.scale))), Image.Resampling.BILINEAR)
    if how.blur:
        img = img.filter(ImageFilter.GaussianBlur(how.blur))
    if how.speckle:
        pixels = np.asarray(img, dtype=np.uint8).copy()
        flip = rng.random(pixels.shape) < how.speckle
        pixels[flip] = 255 - pixels[flip]
        img = Image.fromarray(pixels, "L")
    if how.threshold is not None:
        cut = how.threshold
        img = img.point(lambda v: 255 if v >= cut else 0)
    return img


def _wrapped(text: str, font: Any, width: int, unspaced: bool) -> list[str]:
    """TEXT cut into lines no wider than WIDTH px (between words, or characters)."""
    parts = list(text) if unspaced else text.split()
    glue = "" if unspaced else " "
    lines: list[str] = []
    line = ""
    for p in parts:
        trial = line + glue + p if line else p
        if line and font.getlength(trial) > width:
            lines.append(line)
            line = p
        else:
            line = trial
    return [*lines, line] if line or not lines else lines


def aligned_words(gold: Sequence[str], read: str, unspaced: bool
                  ) -> tuple[list[str], list[tuple[int, int]]]:
    """The words OCR returned (READ split at spaces; for an UNSPACED language, cut where
    its characters' gold words change) and their alignment to the GOLD words (OCR word
    i, gold word j: a character of each aligned by the edit operations that turn the
    gold characters into OCR's)."""
    from rapidfuzz.distance import Levenshtein

    g_chars = "".join(gold)
    g_word = [j for j, w in enumerate(gold) for _ in w]
    o_chars = "".join(read.split())
    to_gold: list[int | None] = [None] * len(o_chars)
    for op in Levenshtein.opcodes(g_chars, o_chars):
        if op.tag in ("equal", "replace"):
            for k in range(min(op.src_end - op.src_start, op.dest_end - op.dest_start)):
                to_gold[op.dest_start + k] = op.src_start + k
    words: list[str] = []
    if unspaced:  # a word ends where the gold word of its characters changes
        spans: list[int | None] = []
        for k, c in enumerate(o_chars):
            g = to_gold[k]
            j = None if g is None else g_word[g]
            if words and (j is None or spans[-1] is None or j == spans[-1]):
                words[-1] += c
                spans[-1] = spans[-1] if spans[-1] is not None else j
            else:
                words.append(c)
                spans.append(j)
    else:
        words = read.split()
    pairs: set[tuple[int, int]] = set()
    k = 0
    for i, w in enumerate(words):
        for _ in w:
            g = to_gold[k]
            if g is not None:
                pairs.add((i, g_word[g]))
            k += 1
    return words, sorted(pairs)


def error_edits(text: str, read: str, gold: Sequence[str] | None = None,
                words: Sequence[str] | None = None) -> tuple[int, int, int, int]:
    """What turns the TEXT drawn into what OCR READ: character edits (spaces counted)
    over the text's characters, and word edits over its words (split at spaces; for a
    language without spaces, the GOLD words against OCR's WORDS cut at theirs)."""
    from rapidfuzz.distance import Levenshtein

    g = list(gold) if gold is not None else text.split()
    w = list(words) if words is not None else read.split()
    return Levenshtein.distance(text, read), len(text), Levenshtein.distance(g, w), len(g)


def carried(s: Sentence, words: list[str], pairs: list[tuple[int, int]]) -> Sentence:
    """The words OCR returned with S's tree carried by the alignment PAIRS (OCR word,
    gold word): an OCR word takes the relation of its gold words' head word and its
    head's OCR word; a gold word read as several is headed by the first, the others
    its ``goeswith`` (UD's relation for a word split wrongly); a word aligned to no
    gold word is a ``dep`` of the root. Without a gold tree, words only. Its comments
    are the caller's to write."""
    n = len(words)
    if not any(h != NO_HEAD for h in s.heads):
        return words_only(words, s.line)
    of_gold: dict[int, list[int]] = {}
    mine: dict[int, list[int]] = {}
    for i, j in pairs:
        of_gold.setdefault(j, []).append(i)
        mine.setdefault(i, []).append(j)

    def top(i: int) -> int:  # of an OCR word's gold words, the one heading the others
        group = mine[i]
        return next((j for j in group if s.heads[j] - 1 not in group), group[0])

    def ocr_of(j: int) -> int | None:  # gold word j's OCR word (the first of several)
        while j >= 0 and j not in of_gold:
            j = s.heads[j] - 1
        return None if j < 0 else min(of_gold[j])

    heads, rels = [NO_HEAD] * n, ["_"] * n
    upos = ["_"] * n
    for i in range(n):
        if i not in mine:
            continue
        j = top(i)
        upos[i] = s.upos[j]
        first = min(of_gold[j])
        if i != first and mine[i] == [j]:
            heads[i], rels[i] = first + 1, "goeswith"
            continue
        h = ocr_of(s.heads[j] - 1) if s.heads[j] > 0 else None
        heads[i], rels[i] = (0, s.deprels[j]) if h is None or h == i else (h + 1, s.deprels[j])
    roots = [i for i in range(n) if heads[i] == 0]
    root = roots[0] if roots else next((i for i in range(n) if i in mine), 0)
    for i in range(n):
        if heads[i] == 0 and i != root:
            heads[i], rels[i] = root + 1, rels[i] if rels[i] != "root" else "dep"
        elif heads[i] == NO_HEAD:
            heads[i], rels[i] = (0, "root") if i == root else (root + 1, "dep")
    if heads[root] != 0:
        heads[root], rels[root] = 0, "root"
    _cut_cycles(heads, root)
    return replace(words_only(words, s.line), heads=heads, deprels=rels, upos=upos)


def _cut_cycles(heads: list[int], root: int) -> None:
    """A word in a cycle (two gold words merged against their arcs) goes to the root."""
    n = len(heads)
    for i in range(n):
        seen, h = {i + 1}, heads[i]
        while h and h not in seen:
            seen.add(h)
            h = heads[h - 1]
        if h:
            heads[i] = root + 1 if i != root else 0
