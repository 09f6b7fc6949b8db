"""Reading the pairs a noise profile is learnt from (:mod:`.profile`): a CoNLL-U file
whose words carry ``CorrectForm=`` in MISC, an M2 file (ERRANT's ``R:SPELL`` and
``R:ORTH`` edits of annotator 0), several of either read as one, or two aligned text
files (a line each, as written and corrected). Apart from the counting, so that each
module holds one idea."""

from __future__ import annotations

from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path

from parsebench.common.errors import InputError, iter_lines

APOSTROPHES = "'\u2019"


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
    impossible: int = 0
    """Pairs no typist makes, left out: an empty correction (``CorrectForm=``), or a
    space or an invisible character (a zero-width space, a control) in either word."""

    def word(self, correct: str, upos: str, written: str | None) -> Word:
        """CORRECT (as WRITTEN where that differs), or the word as written alone when
        the pair is impossible (counted)."""
        if written is None or written == correct:
            return Word(correct, upos)
        if not possible(written) or not possible(correct):
            self.impossible += 1
            return Word(written, upos)
        return Word(correct, upos, written)


def possible(word: str) -> bool:
    """Whether WORD can be one side of a typo: not empty, no space inside, nothing
    invisible (Unicode's separators, controls and format characters: a zero-width
    space is Cf)."""
    import unicodedata

    return bool(word) and not any(unicodedata.category(ch)[0] in "ZC" for ch in word)


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
                words.append(out.word(fixed, upos, form))
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
                    words[j] = out.word(correct[j], "_", w)
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
                words.append(out.word(parts[0], "_", old[0]))
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


