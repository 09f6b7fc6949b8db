"""The kind ``ocr``: each sentence drawn, degraded and read back by Tesseract
(:mod:`.ocr`), or a learnt channel drawn at a character error rate
(:mod:`.ocr_channel`), written with the gold tree carried to the words OCR returned,
their alignment to the gold words (OUT.align) and each sentence's error rates. A run
draws from the channel at its rates (reading every version with Tesseract would take
a scan of the corpus a level and replicate)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
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
from parsebench.noise.ocr_channel import DEFAULTS, Channel, error_rate
from parsebench.noise.source import CorpusLike, Source, words_only, write_sentence
from parsebench.noise.speech import Speaker
from parsebench.noise.transcript import is_punct

OPTIONS = {"cer": "a character error rate, drawn from a learnt channel (instead of "
                  "reading images)",
           "channel": "the learnt OCR channel file (noise-profile learn --ocr; default: "
                      "the one shipped for the language)",
           "quality": "a preset: " + ", ".join(QUALITY) + " (default: fair)",
           "degrade": "settings over the preset, e.g. blur=1,skew=2 (size, scale, blur, "
                      "speckle, threshold, skew)",
           "font": "the font file to draw with (default: one with the language's script)"}
UNREADABLE = "∅"
"""The one word of a sentence OCR could not read at all (its comment says so)."""


@dataclass(frozen=True)
class OcrSettings:
    """A run's OCR noise: its levels' rates are character error rates, drawn from the
    CHANNEL file (None: the one shipped for the language)."""

    channel: Path | None = None


class Ocr:
    """OCR noise: the text drawn, degraded and read back by Tesseract (the noise
    command), or a learnt channel drawn at a character error rate (also in a run)."""

    name, title, moves_words = "ocr", "OCR errors", True
    options = OPTIONS

    def settings(self, at: Callable[[str], Key], shared: Shared) -> OcrSettings:
        if shared.natural:
            raise at("kind").fail("kind = \"ocr\" is made from the clean text, without "
                                  "natural typos")
        if any(lv.rate is None for lv in shared.levels):
            raise at("kind").fail("kind = \"ocr\": the levels are rates = [...], character "
                                  "error rates; not per_sentence")
        for key in ("quality", "degrade", "font", "cer"):
            if at(key).get(object) is not None:
                raise at(key).fail(f"{key}: for the noise command; a run's OCR noise is "
                                   "drawn from a channel at its rates")
        got = at("channel").paths(False, many=False)
        channel = got[0] if got else None
        Channel.load(channel, shared.lang)  # refused here, not in the run
        return OcrSettings(channel)

    def describe(self, settings: OcrSettings) -> str:
        return ("OCR errors drawn from the channel " + (settings.channel.name if
                settings.channel else "parsebench ships") + " at character error rates")

    def record(self, settings: OcrSettings) -> dict[str, Any]:
        return {"channel": None if settings.channel is None else str(settings.channel)}

    def restore(self, config: Mapping[str, Any]) -> OcrSettings:
        c = config.get("channel")
        return OcrSettings(Path(c) if isinstance(c, str) else None)

    def rows(self, settings: OcrSettings, changes: Mapping[str, Sequence[Sequence[Any]]]
             ) -> list[list[str]]:
        """How many sentences OCR's errors changed at each level (over its replicates)."""
        return [[f"sentences changed at {level}", f"{len(made):,}"]
                for level, made in changes.items() if made]

    def key(self, exp: RunSettings, kb: Keyboard) -> str:
        import hashlib

        own: OcrSettings = exp.noise
        path = own.channel or DEFAULTS / f"{exp.lang}.json"
        return signature(kind="ocr", channel=path.name,
                         channel_sha=hashlib.sha256(path.read_bytes()).hexdigest()[:16],
                         lang=exp.lang)

    def planner(self, exp: RunSettings, corpus: RunCorpus, kb: Keyboard) -> Plan:
        own: OcrSettings = exp.noise
        channel = Channel.load(own.channel, exp.lang)
        texts = [drawn_text(s, exp.lang in UNSPACED) for s in corpus.sentences]
        unspaced = exp.lang in UNSPACED

        def one(level: Level, seed: int) -> tuple[list[list[Any]], dict[str, Any]]:
            read = channel.corrupt(texts, level.rate or 0.0, seed)
            changes: list[list[Any]] = []
            for si, (s, text, got) in enumerate(zip(corpus.sentences, texts, read,
                                                    strict=True)):
                if got != text:
                    words, pairs = aligned_words(s.forms, got, unspaced)
                    changes.append([si, got, words, [list(p) for p in pairs]])
            return changes, {"characters": sum(map(len, texts)),
                             "cer": error_rate(texts, read), "sentences": len(changes)}
        return one

    def rebuild(self, sentences: Sequence[Sentence], level: Level, seed: int,
                changes: Sequence[Sequence[Any]]) -> Rebuilt:
        """The sentences OCR's words make (those of a sentence read as nothing: the one
        word ∅), with their alignment to the clean words."""
        from parsebench.metrics.core.word_alignment import Alignment

        by = {}
        for si, _, words, pairs in changes:
            if si >= len(sentences) or any(not (0 <= i < max(1, len(words)) and
                                                0 <= j < len(sentences[si].forms))
                                           for i, j in pairs):
                raise InputError(f"a stored noisy version ({level.label}, seed {seed}) does "
                                 "not fit the corpus: the store is damaged")
            by[si] = (list(words), [(int(i), int(j)) for i, j in pairs])
        out, aligns = [], []
        for si, s in enumerate(sentences):
            if si not in by:
                out.append(s)
                aligns.append(Alignment([(k, k) for k in range(len(s.forms))], 0))
                continue
            words, pairs = by[si]
            out.append(words_only(words or [UNREADABLE], s.line))
            aligns.append(Alignment(pairs, misread(s.forms, words, pairs)))
        return Rebuilt(out, aligns)

    def valid_change(self, c: Any) -> bool:
        """[sentence, text read, [words], [[word, clean word], ...]]."""
        return isinstance(c, list) and len(c) == 4 and type(c[0]) is int and c[0] >= 0 \
            and isinstance(c[1], str) and isinstance(c[2], list) \
            and all(isinstance(w, str) and w for w in c[2]) and isinstance(c[3], list) \
            and all(isinstance(p, list) and len(p) == 2 and all(type(x) is int for x in p)
                    for p in c[3])

    def make(self, corpus: CorpusLike, options: Options, progress: Progress) -> Scanned:
        return Scanned(corpus, options, progress)


def misread(gold: Sequence[str], words: Sequence[str], pairs: Sequence[tuple[int, int]]
            ) -> int:
    """The gold words OCR did not return as they are (each one read as one word of the
    same form is right): the sentence's errors, as Kakkonen's method counts them."""
    of_gold: dict[int, list[int]] = {}
    of_word: dict[int, list[int]] = {}
    for i, j in pairs:
        of_gold.setdefault(j, []).append(i)
        of_word.setdefault(i, []).append(j)
    return sum(not (len(of_gold.get(j, [])) == 1 and len(of_word[of_gold[j][0]]) == 1
                    and words[of_gold[j][0]] == form) for j, form in enumerate(gold))


def drawn_text(s: Sentence, unspaced: bool) -> str:
    """The text of S that OCR reads: its ``# text``, else its words."""
    text = next((c[9:] for c in s.comments if c.startswith("# text = ")), None)
    return text if text is not None else ("" if unspaced else " ").join(s.forms)


class Scanned:
    """The noise command's OCR of one corpus: every replicate read once (its text is
    kept, a line a sentence), then written a sentence at a time with the carried tree
    and OUT.align."""

    def __init__(self, corpus: CorpusLike, o: Options, progress: Progress,
                 speaker: Speaker | None = None) -> None:
        """With SPEAKER, the text is spoken and recognised instead (the transcript's part
        ``speech``: its options were checked there)."""
        check("replicates", o.replicates)
        check("seed", o.seed)
        self.speaker = speaker
        self.what = "PocketSphinx" if speaker is not None else "OCR"
        self.cer: float | None = None
        self.channel: Channel | None = None
        self.reader: Reader | None = None
        if speaker is not None:
            self._common(corpus, o, progress)
            self.signature = signature(method="noise-transcript", parts="speech",
                                       espeak=speaker.version, lang=o.lang, seed=o.seed,
                                       replicates=o.replicates)
            return
        if o.rate is not None or o.per_sentence is not None:
            raise InputError("--kind ocr takes --quality (and --degrade) or --cer, not --rate "
                             "or --per-sentence: how the image is degraded, or the channel's "
                             "rate, decides the errors")
        own = {k: v for k, v in o.own.items() if k != "keep_mix"}
        unknown(own, OPTIONS, "ocr")
        if o.own.get("keep_mix"):
            raise InputError("--keep-mix goes with --kind spelling")
        if own.get("cer") is not None:
            if any(own.get(k) is not None for k in ("quality", "degrade", "font")):
                raise InputError("--cer draws from a learnt channel; --quality, --degrade "
                                 "and --font read real images: one or the other")
            self.cer = _rate(own["cer"])
            self.channel = Channel.load(own.get("channel"), o.lang)
        else:
            if own.get("channel") is not None:
                raise InputError("--channel goes with --cer")
            self.how = degradation(own.get("quality"), own.get("degrade"))
            self.reader = Reader(o.lang, own.get("font"))
        self._common(corpus, o, progress)
        if self.reader is not None:
            self.signature = signature(
                method="noise-ocr", quality=own.get("quality") or "fair",
                degrade=",".join(f"{k}={v}" for k, v in self.how.to_dict().items()),
                font=Path(self.reader.font_path).name, tesseract=self.reader.tesseract,
                lang=o.lang, seed=o.seed, replicates=o.replicates)
        else:
            self.signature = signature(
                method="noise-ocr", cer=self.cer,
                channel=Path(own.get("channel") or f"{o.lang}.json").name, lang=o.lang,
                seed=o.seed, replicates=o.replicates)

    def _common(self, corpus: CorpusLike, o: Options, progress: Progress) -> None:
        self.unspaced = o.lang in UNSPACED
        self.source = Source(corpus)
        self.conllu = self.source.conllu
        self.progress = progress
        self.replicates = [NoisyCorpus(s) for s in range(o.seed, o.seed + o.replicates)]
        self.read: dict[int, list[tuple[str, int, int, int, int]]] = {}
        """Each replicate's reading of each sentence, with its character edits and
        characters, word edits and words (read once, written from here)."""
        self.timing = ""
        self.warnings: list[str] = []

    def _drawn(self) -> Iterator[tuple[Sentence, str]]:
        """Each sentence and the text drawn of it (its ``# text``, else its words)."""
        for s in self.source.each():
            yield s, drawn_text(s, self.unspaced)

    def settle(self, replicate: NoisyCorpus) -> None:
        """Read every sentence of REPLICATE; its error rates over the corpus."""
        seed = replicate.seed
        if seed in self.read:
            return
        self.progress.stage(f"reading seed {seed}", None)
        t0 = time.perf_counter()
        got: list[tuple[str, int, int, int, int]] = []
        chars = words = char_edits = word_edits = unreadable = 0
        drawn = self.channel.corrupt([t for _, t in self._drawn()], self.cer or 0.0, seed) \
            if self.channel is not None else None
        for k, (s, text) in enumerate(self._drawn()):
            if drawn is not None:
                read = " ".join(drawn[k].split())
            elif self.speaker is not None:
                read = self.speaker.hear(text, seed, k)
            else:
                assert self.reader is not None
                read = self.reader.read(text, self.how, seed, k)
            c, n, w, m = self._edits(s, text, read)
            got.append((read, c, n, w, m))
            chars, words = chars + n, words + m
            char_edits, word_edits = char_edits + c, word_edits + w
            unreadable += not read
            self.progress.advance()
        self.read[seed] = got
        seconds = time.perf_counter() - t0
        replicate.report = {"sentences": len(got), "characters": chars, "words": words,
                            **({"target_cer": self.cer} if self.cer is not None else {}),
                            "cer": char_edits / chars if chars else None,
                            "wer": word_edits / words if words else None,
                            "unreadable": unreadable}
        rates = "n/a" if not chars else \
            f"CER {100 * char_edits / chars:.1f}%, WER {100 * word_edits / words:.1f}%"
        replicate.summary = (f"  {rates} over {len(got):,} sentences"
                             + (f", {unreadable} unreadable" if unreadable else ""))
        speed = len(got) / seconds if seconds else 0.0
        replicate.timing = f"  read in {seconds:.1f} s ({speed:,.{0 if speed >= 10 else 1}f} " \
            "sentences/s)" if seconds else ""
        if unreadable:
            self.warnings.append(
                f"seed {seed}: {unreadable} sentence(s) {self.what} could not read at all, "
                f"each written as the one word {UNREADABLE} with # {self._tag} = unreadable")

    @property
    def _tag(self) -> str:
        """The prefix of the comments this writes (``# ocr_cer``, ``# asr_wer``)."""
        return "asr" if self.speaker is not None else "ocr"

    def _edits(self, s: Sentence, text: str, read: str) -> tuple[int, int, int, int]:
        """Character edits and characters, word edits and words (gold words against
        OCR's, cut at them, in a language without spaces). Speech recognition writes no
        capitals and no punctuation: what it heard is measured against the gold words
        written so."""
        if self.speaker is not None:
            said = [w.lower() for w, u in zip(s.forms, s.upos, strict=True)
                    if not is_punct(w, u)]
            return error_edits(" ".join(said), read, said, read.split())
        if self.unspaced:
            return error_edits(text, read, s.forms, aligned_words(s.forms, read, True)[0])
        return error_edits(text, read)

    def _pass(self, replicate: NoisyCorpus) -> Iterator[tuple[Sentence, list[tuple[int, int]]]]:
        self.settle(replicate)
        for (s, text), (read, c, n, w, m) in zip(self._drawn(), self.read[replicate.seed],
                                                 strict=True):
            tag = self._tag
            rates = [f"# {tag}_cer = {c / max(1, n):.4f}", f"# {tag}_wer = {w / max(1, m):.4f}"]
            if not read:
                noisy = words_only([UNREADABLE], s.line)
                noisy.comments[:] = [*_kept(s), f"# {tag} = unreadable", *rates,
                                     f"# text = {UNREADABLE}"]
                yield noisy, []
                continue
            gold = s.forms if self.speaker is None else [w.lower() for w in s.forms]
            words, pairs = aligned_words(gold, read, self.unspaced)
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


def _rate(value: Any) -> float:
    """--cer's value, a share from 0 to 1."""
    import math

    try:
        got = float(value)
    except (TypeError, ValueError):
        got = math.nan
    if not (0.0 < got <= 1.0):
        raise InputError(f"--cer {value}: a character error rate above 0, at most 1")
    return got


def _kept(s: Sentence) -> list[str]:
    """S's comments but its text (and those this kind writes)."""
    return [c for c in s.comments
            if not c.startswith(("# text = ", "# ocr", "# asr", "# clean_text"))]
