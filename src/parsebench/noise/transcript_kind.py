"""The kind ``transcript``: a corpus written as speech is transcribed (:mod:`.transcript`),
for a run's versions and for the noise command's files, with the gold tree carried
to the new words, the alignment to the clean words and the M2 edits beside it."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parsebench.common.errors import InputError
from parsebench.common.limits import check
from parsebench.common.progress import Progress
from parsebench.common.signature import signature
from parsebench.formats.conllu import Sentence
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
from parsebench.noise.source import CorpusLike, Source

if TYPE_CHECKING:
    from parsebench.noise.ocr_kind import Scanned
from parsebench.noise.transcript import (
    DRAWN,
    PART_OF,
    PARTS,
    TYPES,
    WINDOW,
    Planner,
    TranscriptSettings,
    changes_of,
    parse_parts,
    resegmented,
    segment_lengths,
    settings_for,
    summary,
    transcribed,
)

OPTIONS = {"parts": "the parts made: " + ", ".join(PARTS) + " (default: all but segments)",
           "fillers": "the filler words (default: the language's, e.g. uh, um)",
           "window": f"with segments: words a segment (default: {WINDOW})"}


class Transcript:
    """Speech-transcript conventions: no capitals, no punctuation, numbers spelled out,
    fillers and repeated words, each part switchable."""

    name, title = "transcript", "speech-transcript conventions"
    moves_words = True
    options = OPTIONS

    def moves(self, settings: TranscriptSettings) -> bool:
        """Only lowercasing keeps every word where it was."""
        return any(p != "lower" for p in settings.parts)

    def describe(self, settings: TranscriptSettings) -> str:
        return self.title + ": " + ", ".join(
            f"segments (cut every {settings.window} words)" if p == "segments" else p
            for p in settings.parts)

    def settings(self, at: Callable[[str], Key], shared: Shared) -> TranscriptSettings:
        if shared.natural:
            raise at("kind").fail("kind = \"transcript\" is made from the clean text, "
                                  "without natural typos")
        parts = at("parts").get(list)
        try:
            chosen = parse_parts(parts)
        except InputError:
            raise at("parts").fail("parts: a list of " + ", ".join(PARTS)) from None
        if "speech" in chosen:
            raise at("parts").fail("parts: speech (espeak-ng and PocketSphinx) is made by "
                                   "parsebench noise --kind transcript --parts speech")
        window = at("window").get(int)
        if window is not None and "segments" not in chosen:
            raise at("window").fail("window: goes with parts = [..., \"segments\"]")
        if window is not None and window < 2:
            raise at("window").fail(f"window: 2 words or more, not {window}")
        fillers = at("fillers").get(list)
        try:
            return settings_for(chosen, fillers, shared.lang, window)
        except InputError as e:
            raise at("fillers" if "fillers" in e.message else "parts").fail(
                e.message.removeprefix("--parts ")) from None

    def record(self, settings: TranscriptSettings) -> dict[str, Any]:
        return {"parts": list(settings.parts), "fillers": list(settings.fillers),
                **({"window": settings.window} if settings.window else {})}

    def restore(self, config: Mapping[str, Any]) -> TranscriptSettings:
        window = config.get("window") or 0
        if type(window) is not int or window < 0 or window == 1:
            raise ValueError(f"window {window!r}")  # a damaged record
        return TranscriptSettings(tuple(p for p in PARTS if p in config.get("parts", ())),
                                  tuple(config.get("fillers") or ()), window)

    def units(self, settings: TranscriptSettings, sentences: Sequence[Sentence]
              ) -> list[int] | None:
        """With ``segments``, what the parsers are given of a version: its sentences run
        together and cut every window words (:class:`.transcript.Cuts`), the words of
        each segment; else None (a sentence at a time)."""
        return segment_lengths(sentences, settings.window) if settings.window else None

    def rows(self, settings: TranscriptSettings,
             changes: Mapping[str, Sequence[Sequence[Any]]]) -> list[list[str]]:
        """Each level's changes by part (pooled over its replicates)."""
        rows = []
        for level, made in changes.items():
            got = dict.fromkeys(settings.parts, 0)
            for c in made:
                if isinstance(c, list) and len(c) == 6:
                    part = PART_OF.get(c[4]) if isinstance(c[4], str) else None
                    if part in got:
                        got[part] += 1
            if any(got.values()):
                rows.append([f"changes at {level} (by part)",
                             ", ".join(f"{p} {n:,}" for p, n in got.items())])
        return rows

    def key(self, exp: RunSettings, kb: Keyboard) -> str:
        own: TranscriptSettings = exp.noise
        return signature(kind="transcript", parts=list(own.parts),
                         fillers=list(own.fillers), lang=exp.lang)

    def planner(self, exp: RunSettings, corpus: RunCorpus, kb: Keyboard) -> Plan:
        own: TranscriptSettings = exp.noise
        planner = Planner(lambda: iter(corpus.sentences), own, exp.lang)

        def one(level: Level, seed: int) -> tuple[list[list[Any]], dict[str, Any]]:
            edits, made = planner.plan(level.rate, level.per_sentence, seed)
            return list(changes_of(edits)), summary(planner.words, made)
        return one

    def rebuild(self, sentences: Sequence[Sentence], level: Level, seed: int,
                changes: Sequence[Sequence[Any]]) -> Rebuilt:
        """The transcribed version that stored edits make of SENTENCES; the parsers get
        its words (the carried tree is for the noise command's files)."""
        from parsebench.noise.grammar_output import rebuild_from_edits

        if any(len(c) != 6 or c[4] not in TYPES.values() for c in changes):
            raise InputError(f"a stored noisy version ({level.label}, seed {seed}) does "
                             "not fit the corpus: the store is damaged")
        return rebuild_from_edits(sentences, changes, f"{level.label}, seed {seed}", True,
                                  lambda s, edits: transcribed(s, edits, tree=False))

    def valid_change(self, c: Any) -> bool:
        """[sentence, start, end, noisy words, type, [[noisy, clean], ...]]."""
        return isinstance(c, list) and len(c) == 6 \
            and all(type(x) is int and x >= 0 for x in c[:3]) and c[1] <= c[2] \
            and isinstance(c[3], list) and all(isinstance(w, str) for w in c[3]) \
            and c[4] in TYPES.values() and isinstance(c[5], list) and all(
                isinstance(p, list) and len(p) == 2 and all(type(x) is int for x in p)
                for p in c[5])

    def make(self, corpus: CorpusLike, options: Options, progress: Progress
             ) -> Transcribed | Scanned:
        """The transcripts; with the part ``speech``, the text spoken and recognised (read
        back as OCR's is, :class:`.ocr_kind.Scanned`)."""
        parts = parse_parts(options.own.get("parts"))
        if "speech" not in parts:
            return Transcribed(corpus, options, progress)
        from parsebench.noise.ocr_kind import Scanned
        from parsebench.noise.speech import Speaker

        if parts != ("speech",):
            raise InputError("--parts speech is the whole round trip (what it hears has no "
                             "capitals, punctuation or digits): give it alone")
        if options.lang != "en":
            raise InputError(f"--parts speech hears English only, not --lang {options.lang}")
        if options.rate is not None or options.per_sentence is not None:
            raise InputError("--parts speech takes no --rate or --per-sentence: the "
                             "recogniser's errors are what they are")
        unknown({k: v for k, v in options.own.items() if k != "parts"}, {}, "transcript "
                "--parts speech")
        return Scanned(corpus, options, progress, speaker=Speaker())


class Transcribed:
    """The noise command's transcripts of one corpus: the fixed parts listed in one pass,
    every replicate's drawn parts planned from them, each written a sentence at a time
    with its carried tree (CoNLL-U input), OUT.m2 and OUT.align."""

    def __init__(self, corpus: CorpusLike, o: Options, progress: Progress) -> None:
        check("replicates", o.replicates)
        check("seed", o.seed)
        if o.own.get("keep_mix") or "profile" in o.own or "types" in o.own:
            raise InputError("--keep-mix and --profile go with --kind spelling, --types "
                             "with --kind grammar")
        unknown({k: v for k, v in o.own.items() if k != "keep_mix"}, OPTIONS, "transcript")
        parts = parse_parts(o.own.get("parts"))
        fillers = o.own.get("fillers")
        if isinstance(fillers, str):
            fillers = [w for w in fillers.split(",") if w.strip()]
        self.settings = settings_for(parts, fillers, o.lang, o.own.get("window"))
        if any(p in parts for p in DRAWN) and o.rate is None and o.per_sentence is None:
            raise InputError("--parts fillers and repeats are drawn: give --rate or "
                             "--per-sentence")
        self.source = Source(corpus)
        self.conllu = self.source.conllu
        self.progress = progress

        def listed() -> Iterator[Sentence]:
            progress.stage("listing the changes", None)
            for s in self.source.each():
                progress.advance()
                yield s

        self.planner = Planner(listed, self.settings, o.lang)
        self.replicates = [NoisyCorpus(s) for s in range(o.seed, o.seed + o.replicates)]
        self.plans = {r.seed: self.planner.plan(o.rate, o.per_sentence, r.seed)
                      for r in self.replicates}
        for r in self.replicates:
            r.report = summary(self.planner.words, self.plans[r.seed][1])
            r.summary = "  " + ", ".join(f"{p} {n:,}" for p, n in
                                         r.report["by_part"].items()) + \
                f" changes in {self.planner.words:,} words"
        self.timing = ""
        self.warnings: list[str] = []
        self.signature = signature(method="noise-transcript", parts=",".join(parts),
                                   fillers=",".join(self.settings.fillers), rate=o.rate,
                                   per_sentence=o.per_sentence, seed=o.seed,
                                   replicates=o.replicates, lang=o.lang)

    def _pass(self, replicate: NoisyCorpus
              ) -> Iterator[tuple[Sentence, list[tuple[int, int]],
                                  list[tuple[int, int, str, str]]]]:
        edits = self.plans[replicate.seed][0]
        for s, mine in zip(self.source.each(), edits, strict=True):
            self.progress.advance()
            yield transcribed(s, mine)

    def settle(self, replicate: NoisyCorpus) -> None:
        """Its figures are known from the plan."""

    def sentences(self, replicate: NoisyCorpus) -> Iterator[Sentence]:
        """The transcribed sentences, or without sentence boundaries, the segments."""
        got = (s for s, _, _ in self._pass(replicate))
        if "segments" in self.settings.parts:
            yield from resegmented(got, self.settings.window)
        else:
            yield from got

    def write(self, replicate: NoisyCorpus, target: Path) -> list[Path]:
        """TARGET, with OUT.m2 and OUT.align a sentence each; segments cut across the
        sentences, so with them TARGET alone (score it with eval deps --align words)."""
        from parsebench.common.errors import atomic_output
        from parsebench.noise.grammar_output import write_aligned
        from parsebench.noise.source import write_sentence

        self.progress.stage(f"writing seed {replicate.seed}", len(self.planner.gaps))
        if "segments" in self.settings.parts:
            with atomic_output(target) as out:
                for s in self.sentences(replicate):
                    write_sentence(out, s, self.conllu)
            replicate.files = {"file": str(target)}
        else:
            replicate.files = write_aligned(target, self._pass(replicate), self.conllu)
        return [Path(p) for p in replicate.files.values()]
