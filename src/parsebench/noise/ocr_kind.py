"""The kind ``ocr``: each sentence drawn, degraded and read back by Tesseract
(:mod:`.ocr`), written with the gold tree carried to the words OCR returned, their
alignment to the gold words (OUT.align) and each sentence's error rates. The noise
command makes it; a run does not yet (it would read every version again with OCR)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from parsebench.common.errors import InputError, atomic_output
from parsebench.common.limits import check
from parsebench.common.progress import Progress
from parsebench.common.signature import signature
from parsebench.formats.conllu import Sentence
from parsebench.noise.grammar_output import pharaoh
from parsebench.noise.keyboard import Keyboard
from parsebench.noise.kind import (
    Key,
    Level,
    NoisyCorpus,
    Options,
    Plan,
    Rebuilt,
    RunCorpus,
    RunSettings,
    Shared,
    unknown,
)
from parsebench.noise.ocr import (
    QUALITY,
    UNSPACED,
    Reader,
    aligned_words,
    carried,
    degradation,
    error_edits,
)
from parsebench.noise.source import CorpusLike, Source, words_only, write_sentence

OPTIONS = {"quality": "a preset: " + ", ".join(QUALITY) + " (default: fair)",
           "degrade": "settings over the preset, e.g. blur=1,skew=2 (size, scale, blur, "
                      "speckle, threshold, skew)",
           "font": "the font file to draw with (default: one with the language's script)"}
UNREADABLE = "∅"
"""The one word of a sentence OCR could not read at all (its comment says so)."""


class Ocr:
    """OCR noise: the text drawn, degraded and read back by Tesseract."""

    name, title, moves_words = "ocr", "OCR (Tesseract on degraded images)", True
    options = OPTIONS

    def settings(self, at: Callable[[str], Key], shared: Shared) -> Any:
        raise at("kind").fail("kind = \"ocr\" is made by the noise command (parsebench "
                              "noise --kind ocr), not in a run yet")

    def record(self, settings: Any) -> dict[str, Any]:
        return {}

    def restore(self, config: Mapping[str, Any]) -> Any:
        return None

    def rows(self, settings: Any, changes: Mapping[str, Sequence[Sequence[Any]]]
             ) -> list[list[str]]:
        return []

    def key(self, exp: RunSettings, kb: Keyboard) -> str:
        raise InputError("kind = \"ocr\" is not made in a run")

    def planner(self, exp: RunSettings, corpus: RunCorpus, kb: Keyboard) -> Plan:
        raise InputError("kind = \"ocr\" is not made in a run")

    def rebuild(self, sentences: Sequence[Sentence], level: Level, seed: int,
                changes: Sequence[Sequence[Any]]) -> Rebuilt:
        raise InputError("kind = \"ocr\" is not made in a run")

    def valid_change(self, change: Any) -> bool:
        return False

    def make(self, corpus: CorpusLike, options: Options, progress: Progress) -> Scanned:
        return Scanned(corpus, options, progress)


class Scanned:
    """The noise command's OCR of one corpus: every replicate read once (its text is
    kept, a line a sentence), then written a sentence at a time with the carried tree
    and OUT.align."""

    def __init__(self, corpus: CorpusLike, o: Options, progress: Progress) -> None:
        check("replicates", o.replicates)
        check("seed", o.seed)
        if o.rate is not None or o.per_sentence is not None:
            raise InputError("--kind ocr takes --quality (and --degrade), not --rate or "
                             "--per-sentence: how the image is degraded decides the errors")
        own = {k: v for k, v in o.own.items() if k != "keep_mix"}
        unknown(own, OPTIONS, "ocr")
        if o.own.get("keep_mix"):
            raise InputError("--keep-mix goes with --kind spelling")
        self.how = degradation(own.get("quality"), own.get("degrade"))
        self.reader = Reader(o.lang, own.get("font"))
        self.unspaced = o.lang in UNSPACED
        self.source = Source(corpus)
        self.conllu = self.source.conllu
        self.progress = progress
        self.replicates = [NoisyCorpus(s) for s in range(o.seed, o.seed + o.replicates)]
        self.read: dict[int, list[str]] = {}
        self.timing = ""
        self.warnings: list[str] = []
        self.signature = signature(
            method="noise-ocr", quality=own.get("quality") or "fair",
            degrade=",".join(f"{k}={v}" for k, v in self.how.to_dict().items()),
            font=Path(self.reader.font_path).name, tesseract=self.reader.tesseract,
            lang=o.lang, seed=o.seed, replicates=o.replicates)

    def _drawn(self) -> Iterator[tuple[Sentence, str]]:
        """Each sentence and the text drawn of it (its ``# text``, else its words)."""
        if self.conllu:
            for s in self.source.sentences():
                text = next((c[9:] for c in s.comments if c.startswith("# text = ")), None)
                yield s, text if text is not None else ("" if self.unspaced else " ").join(
                    s.forms)
        else:
            for k, words in enumerate(self.source.lines()):
                if words:
                    yield words_only(words, k + 1), " ".join(words)

    def settle(self, replicate: NoisyCorpus) -> None:
        """Read every sentence of REPLICATE; its error rates over the corpus."""
        seed = replicate.seed
        if seed in self.read:
            return
        self.progress.stage(f"reading seed {seed}", None)
        t0 = time.perf_counter()
        got: list[str] = []
        chars = words = char_edits = word_edits = unreadable = 0
        for k, (s, text) in enumerate(self._drawn()):
            read = self.reader.read(text, self.how, seed, k)
            got.append(read)
            c, n, w, m = self._edits(s, text, read)
            chars, words = chars + n, words + m
            char_edits, word_edits = char_edits + c, word_edits + w
            unreadable += not read
            self.progress.advance()
        self.read[seed] = got
        seconds = time.perf_counter() - t0
        replicate.report = {"sentences": len(got), "characters": chars, "words": words,
                            "cer": char_edits / chars if chars else None,
                            "wer": word_edits / words if words else None,
                            "unreadable": unreadable}
        rates = "n/a" if not chars else \
            f"CER {100 * char_edits / chars:.1f}%, WER {100 * word_edits / words:.1f}%"
        replicate.summary = (f"  {rates} over {len(got):,} sentences"
                             + (f", {unreadable} unreadable" if unreadable else ""))
        replicate.timing = f"  read in {seconds:.1f} s ({len(got) / seconds:,.0f} sentences/s)" \
            if seconds else ""
        if unreadable:
            self.warnings.append(
                f"seed {seed}: {unreadable} sentence(s) OCR could not read at all, each "
                f"written as the one word {UNREADABLE} with # ocr = unreadable")

    def _edits(self, s: Sentence, text: str, read: str) -> tuple[int, int, int, int]:
        """Character edits and characters, word edits and words (gold words against
        OCR's, cut at them, in a language without spaces)."""
        if self.unspaced:
            return error_edits(text, read, s.forms, aligned_words(s.forms, read, True)[0])
        return error_edits(text, read)

    def _pass(self, replicate: NoisyCorpus) -> Iterator[tuple[Sentence, list[tuple[int, int]]]]:
        self.settle(replicate)
        for (s, text), read in zip(self._drawn(), self.read[replicate.seed], strict=True):
            c, n, w, m = self._edits(s, text, read)
            rates = [f"# ocr_cer = {c / max(1, n):.4f}", f"# ocr_wer = {w / max(1, m):.4f}"]
            if not read:
                noisy = words_only([UNREADABLE], s.line)
                noisy.comments[:] = [*_kept(s), "# ocr = unreadable", *rates,
                                     f"# text = {UNREADABLE}"]
                yield noisy, []
                continue
            words, pairs = aligned_words(s.forms, read, self.unspaced)
            noisy = carried(s, words, pairs)
            noisy.comments[:] = [*_kept(s), *rates, f"# clean_text = {text}",
                                 f"# text = {read}"]
            yield noisy, pairs

    def sentences(self, replicate: NoisyCorpus) -> Iterator[Sentence]:
        for s, _ in self._pass(replicate):
            yield s

    def write(self, replicate: NoisyCorpus, target: Path) -> list[Path]:
        self.settle(replicate)
        self.progress.stage(f"writing seed {replicate.seed}", len(self.read[replicate.seed]))
        align = target.with_name(target.name + ".align")
        with atomic_output(target) as out, atomic_output(align) as al:
            for s, pairs in self._pass(replicate):
                write_sentence(out, s, self.conllu)
                al.write(pharaoh(pairs) + "\n")
                self.progress.advance()
        replicate.files = {"file": str(target), "align": str(align)}
        return [target, align]


def _kept(s: Sentence) -> list[str]:
    """S's comments but its text (and those this kind writes)."""
    return [c for c in s.comments if not c.startswith(("# text = ", "# ocr", "# clean_text"))]
