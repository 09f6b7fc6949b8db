"""Noise as a library function: :func:`noise` makes what the ``noise`` command makes,
and the command is only its options, this call and the printing.

The errors are planned once for every replicate (a plan is small: the changes, not
the text); the noisy text is made a sentence at a time from the source, read again,
when it is written or asked for, so memory stays flat in the corpus's size.
"""

from __future__ import annotations

import html
import io
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from parsebench.common.errors import InputError, check_output, iter_lines
from parsebench.common.progress import Progress, Quiet
from parsebench.formats.conllu import Sentence, iter_sentences, write_conllu
from parsebench.model import arguments as A
from parsebench.model.results import Result, dataframe, result
from parsebench.model.treebank import Treebank
from parsebench.noise.kind import Made, NoisyCorpus, Options
from parsebench.noise.kinds import KINDS
from parsebench.noise.source import CorpusLike, words_only


@A.checked(corpus=A.corpus, rate=A.optional(A.number), per_sentence=A.optional(A.limited),
           kind=A.text, seed=A.limited, replicates=A.limited, lang=A.text,
           lexicon=A.optional(A.path), keyboard=A.optional(A.path),
           weights=A.optional(A.WEIGHTS), min_length=A.integer(), drop_short=A.flag,
           types=A.optional(A.strings), tagger=A.optional(A.text), keep_mix=A.flag,
           profile=A.optional(A.path), tokenization=A.flag, parts=A.optional(A.strings),
           fillers=A.optional(A.strings), window=A.optional(A.integer(2)),
           cer=A.optional(A.number),
           channel=A.optional(A.path), quality=A.optional(A.text),
           degrade=A.optional(A.text), font=A.optional(A.path), options=A.optional(A.mapping),
           progress=A.progress)
def noise(corpus: CorpusLike, *, rate: float | None = None, per_sentence: int | None = None,
          kind: str = "spelling", seed: int = 1, replicates: int = 1, lang: str = "en",
          lexicon: str | None = None, keyboard: str | None = None,
          weights: str | Mapping[str, float] | None = None, min_length: int = 2,
          drop_short: bool = False, types: str | Sequence[str] | None = None,
          tagger: str | None = None, keep_mix: bool = False, profile: str | None = None,
          tokenization: bool = False, parts: str | Sequence[str] | None = None,
          fillers: str | Sequence[str] | None = None, window: int | None = None,
          cer: float | None = None,
          channel: str | None = None, quality: str | None = None,
          degrade: str | None = None, font: str | None = None,
          options: Mapping[str, Any] | None = None, progress: Progress | None = None
          ) -> Noised:
    """CORPUS (a CoNLL-U or text file's path, or Sentences) with noise of KIND, planned
    for seeds SEED..SEED+REPLICATES-1, as ``parsebench noise`` makes it: the keywords
    are the command's options, checked as it checks them (an InputError in its words).
    WEIGHTS and TYPES are the options' strings (``sub=2,ins=1``, ``M:DET,R:WO``) or a
    mapping and a sequence. KEEP_MIX (spelling): keep the asked-for operation mix
    (:mod:`parsebench.noise.spelling`). PROFILE (spelling): a learnt noise profile's file
    (:func:`learn_profile`), whose errors are drawn instead of the keyboard model's, at
    RATE or, without it, the profile's own rate; with TOKENIZATION its splits and merges
    too (written with OUT.m2 and OUT.align, as grammar noise). PARTS and FILLERS
    (transcript): the parts made (``lower,punct`` or a list) and the filler words, and
    with ``segments``, the WINDOW of words a segment (:mod:`parsebench.noise.transcript`).
    QUALITY, DEGRADE and FONT (ocr): the preset, settings over it (``blur=1,skew=2``)
    and the font file (:mod:`parsebench.noise.ocr`); CER and CHANNEL (ocr): instead, a
    character error rate drawn from a learnt channel (:mod:`parsebench.noise.ocr_channel`).
    OPTIONS: the own options of a kind from another package, by name (the command's
    ``--option NAME=VALUE``).
    PROGRESS, if given, is told each stage (``stage(name, total)``) and each sentence
    (``advance()``); nothing is printed."""
    got = KINDS.get(kind)
    if got is None:
        raise InputError(f"--kind {kind!r}: " + " or ".join(KINDS))
    # the built-in kinds' options, as given (their defaults are the kinds' own)
    given = {"weights": weights, "types": types, "tagger": tagger,
             "keep_mix": keep_mix or None, "profile": profile,
             "tokenization": tokenization or None, "parts": parts, "fillers": fillers,
             "window": window,
             "cer": cer, "channel": channel, "quality": quality, "degrade": degrade,
             "font": font}
    own = {**{k: v for k, v in given.items() if v is not None}, **(options or {})}
    bars = progress or Quiet()
    return Noised(kind, got.make(corpus, Options(rate, per_sentence, seed, replicates, lang,
                                                 lexicon, keyboard, min_length, drop_short,
                                                 own), bars), bars)


@A.checked(pairs=A.paths, output=A.optional(A.path), lang=A.text,
           lexicon=A.optional(A.path), ocr=A.flag)
def learn_profile(pairs: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
                  output: str | os.PathLike[str] | None = None, *, lang: str = "en",
                  lexicon: str | None = None, ocr: bool = False) -> Result:
    """The noise profile of PAIRS (``parsebench noise-profile learn``): a CoNLL-U file
    with ``CorrectForm=``, an M2 file, or two aligned text files (as written, corrected).
    Written to OUTPUT when given; the result's ``to_dict()`` is the profile, ``str()``
    what ``noise-profile show`` prints. With OCR, an OCR channel instead
    (:mod:`parsebench.noise.ocr_channel`), from the files ``noise --kind ocr`` writes
    (their ``# clean_text`` and ``# text``) or two aligned text files (as read, clean)."""
    from parsebench.noise.profile import learn, save, show

    paths = [Path(pairs)] if isinstance(pairs, (str, os.PathLike)) else \
        [Path(p) for p in pairs]
    if output is not None:
        check_output(output)
    if ocr:
        return _learn_channel(paths, output, lang)
    data = learn(paths, lang, lexicon)
    if not data["errors"]:  # a profile draws from its errors: without one it cannot load
        raise InputError(f"no misspelling to learn from in {data['words']:,} words (no "
                         "CorrectForm= in MISC, no M2 edit, no changed word): a profile "
                         "needs at least one; nothing written", paths[0])
    if output is not None:
        save(data, output)
    return Result("noise-profile learn", data, lambda: show(data))


def _learn_channel(paths: list[Path], output: str | os.PathLike[str] | None, lang: str
                   ) -> Result:
    """``noise-profile learn --ocr``: the OCR channel of PATHS, written to OUTPUT."""
    from itertools import chain

    from parsebench.noise import ocr_channel as oc
    from parsebench.noise.source import Source

    if len(paths) == 2 and not Source(paths[0]).conllu:  # read, clean: a line each
        read, clean = (list(iter_lines(p)) for p in paths)
        if len(read) != len(clean):
            raise InputError(f"{len(read)} lines read against {len(clean)} clean ones: the "
                             "files must be aligned a line each", paths[0])
        pairs: Iterable[tuple[str, str]] = zip(clean, read, strict=True)
    else:
        pairs = chain.from_iterable(oc.pairs_of(p) for p in paths)
    data = oc.learn(pairs, lang)
    if not data["wrote"]:
        raise InputError(f"no misread character in {data['characters']:,}: a channel needs "
                         "one; nothing written", paths[0])
    if output is not None:
        oc.save(data, output)
    errors = sum(sum(w.values()) for w in data["wrote"].values())
    return Result("noise-profile learn", data, lambda: (
        f"OCR channel ({lang}): {data['pairs']:,} sentences, {data['characters']:,} "
        f"characters, {errors:,} misread ({100 * errors / max(1, data['characters']):.1f}%)"
        "\n"))


def replicate_path(out: Path, seed: int, replicates: int) -> Path:
    """Where a replicate is written: OUT itself, or with several, ``.seedS`` before its
    extension."""
    if replicates == 1:
        return out
    return out.with_name(f"{out.stem}.seed{seed}{out.suffix}")


class Noised:
    """A noisy corpus, planned for every seed: ``write(path)`` writes the command's files,
    ``treebank`` is the first replicate's noisy sentences, ``to_dict()`` (once written)
    the command's ``--json`` object and ``str()`` its summary on standard error."""

    def __init__(self, kind: str, made: Made, progress: Progress | None = None) -> None:
        self.kind = kind
        self._made, self._progress = made, progress or Quiet()
        self._treebank: Treebank | None = None

    @property
    def replicates(self) -> list[NoisyCorpus]:
        """One a seed, with its report (the command's JSON figures) and summary."""
        for r in self._made.replicates:
            self._made.settle(r)
        return list(self._made.replicates)

    @property
    def signature(self) -> str:
        """What made the noise (method, options, version), as the command's JSON gives it."""
        return self._made.signature

    @property
    def warnings(self) -> tuple[str, ...]:
        """What the command prints as ``warning:`` lines."""
        return tuple(self._made.warnings)

    def write(self, path: str | os.PathLike[str]) -> list[Path]:
        """Write every replicate as the command does (PATH, or PATH with ``.seedS`` before
        the extension for each of several; grammar's PATH.m2 and PATH.align and text's
        PATH.noise.json beside it), each file atomically; return the files written."""
        out = Path(path)
        check_output(out)
        written: list[Path] = []
        n = len(self._made.replicates)
        for r in self._made.replicates:
            written += self._made.write(r, replicate_path(out, r.seed, n))
        return written

    @property
    def treebank(self) -> Treebank:
        """The first replicate's noisy corpus as the file written holds it, made on the
        first access: CoNLL-U read back as :func:`parsebench.formats.conllu.read_conllu`
        reads it; text, its words a sentence (every other column ``_``)."""
        if self._treebank is None:
            self._progress.stage("reading the noisy corpus", None)
            noisy = self._made.sentences(self._made.replicates[0])
            if self._made.conllu:
                self._treebank = Treebank(iter_sentences(_lines(noisy), "<noise>"), "<noise>")
            else:
                self._treebank = Treebank((words_only(list(s.forms), k)
                                           for k, s in enumerate(noisy, 1)), "<noise>")
        return self._treebank

    def to_dict(self) -> dict[str, Any]:
        """The command's ``--json`` object: a file's names are in it once it is written."""
        return {"files": [r.to_dict() for r in self.replicates], "signature": self.signature}

    def to_json(self) -> str:
        """The command's ``--json`` output."""
        return result("noise", self.to_dict()).to_json()

    def text(self, timings: bool = False) -> str:
        """The command's summary, a replicate at a time; with TIMINGS, the lines on how
        long it took where the command prints them."""
        lines = []
        for r in self.replicates:
            where = f"{r.files['file']} (seed {r.seed})" if "file" in r.files \
                else f"seed {r.seed}"
            lines.append(f"{where}: " + r.summary.replace("\n", "\n  "))
            if timings and r.timing:
                lines.append(r.timing)
        if timings and self._made.timing:
            lines.append(self._made.timing)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"<Noised {self.kind}, {len(self._made.replicates)} replicate(s): " \
               f"{self.signature}>"

    def rows(self) -> list[dict[str, Any]]:
        """One row a replicate: its JSON entry, a breakdown's counts as ``by_type/M:DET``."""
        out = []
        for r in self.replicates:
            row: dict[str, Any] = {}
            for k, v in r.to_dict().items():
                if isinstance(v, dict):
                    row.update({f"{k}/{x}": n for x, n in v.items()})
                else:
                    row[k] = v
            out.append(row)
        return out

    def to_pandas(self) -> Any:
        """A DataFrame, one row a replicate (pandas, an optional extra)."""
        return dataframe(self.rows())

    def _repr_html_(self) -> str:
        """A notebook's view: a replicate a row (every string escaped)."""
        rows = self.rows()
        cols = list(dict.fromkeys(k for r in rows for k in r))
        head = "".join(f"<th>{html.escape(c)}</th>" for c in cols)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(str(r.get(c, '')))}</td>"
                                        for c in cols) + "</tr>" for r in rows)
        return (f"<div><b>noise ({html.escape(self.kind)})</b><table><tr>{head}</tr>{body}"
                f"</table><small>{html.escape(self.signature)}</small></div>")


def _lines(sentences: Iterator[Sentence]) -> Iterator[str]:
    """The CoNLL-U lines of SENTENCES, as the file written holds them."""
    for s in sentences:
        buf = io.StringIO()
        write_conllu([s], buf)
        yield from buf.getvalue().split("\n")[:-1]
