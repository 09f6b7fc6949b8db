"""Real parsers as Python calls: ``parse``, ``attack`` (the worst case) and
``invariance`` (edits that must not matter). Every parser runs in worker processes,
as the commands run it, so a crash or a hang costs one sentence.

A parser is a spec string, as the commands' ``--parser`` takes it (``udpipe:MODEL``,
``spacy:PIPELINE``, ``python:MODULE:CLASS``...).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from parsebench.common.errors import InputError
from parsebench.common.progress import Progress, quiet
from parsebench.common.signature import signature
from parsebench.model import arguments as A
from parsebench.model.results import Result
from parsebench.model.treebank import Treebank, as_treebank

PathLike = str | os.PathLike[str]


def _sentences(corpus: PathLike | Treebank) -> list[Any]:
    from parsebench.model.parses import read_input

    corpus = as_treebank(corpus)
    return list(corpus) if isinstance(corpus, Treebank) else read_input(corpus)


@dataclass(frozen=True)
class ParseResult(Result):
    """``parse``'s result: ``.treebank`` (the parses as CoNLL-U sentences; a
    constituency parser's trees are ``.trees``), ``.write(path)`` writes what the command
    writes (the parses and PATH.speed.json); ``to_dict()`` is then its ``--json``."""

    run: Any = field(default=None, repr=False)

    @property
    def treebank(self) -> Treebank:
        return Treebank(self.run.conllu(), "<parsed>")

    @property
    def trees(self) -> list[str]:
        """One bracketed tree a sentence (a failed parse is the flat PARSE-FAILED tree)."""
        from parsebench.model.parses import to_tree

        return [to_tree(s, t.outcome)
                for s, t in zip(self.run.sentences, self.run.timed, strict=True)]

    def write(self, path: PathLike) -> None:
        from parsebench.common.errors import check_output
        from parsebench.parsers.run import write_run

        check_output(path)
        write_run(self.run, path)
        assert isinstance(self.data, dict)
        self.data.update(output=str(path), speed=f"{path}.speed.json")


def failures(n: int, reasons: dict[str, int]) -> str:
    """``0 failures``, ``1 failure (timeout after 20 s)``, ``3 failures (timeout after
    20 s: 2, crashed: 1)``."""
    word = f"{n} failure{'' if n == 1 else 's'}"
    if not reasons:
        return word
    if len(reasons) == 1:
        why, k = next(iter(reasons.items()))
        return f"{word} ({why}{'' if k == n else f': {k}'})"
    return f"{word} ({', '.join(f'{why}: {k}' for why, k in reasons.items())})"


@A.checked(corpus=A.corpus, parser=A.text, workers=A.limited, timeout=A.limited, raw=A.flag,
           batch_size=A.limited, progress=A.progress, copy_basic_to_deps=A.flag)
def parse(corpus: PathLike | Treebank, parser: str, *, workers: int = 1,
          timeout: float = 60.0, raw: bool = False, batch_size: int = 16,
          progress: Progress | None = None, copy_basic_to_deps: bool = False) -> ParseResult:
    """Parse CORPUS (CoNLL-U, whose words are the pre-tokenized input, or text, one
    sentence a line) with PARSER in WORKERS processes; failures are recorded, never
    fatal. RAW lets the parser tokenize the text itself. COPY_BASIC_TO_DEPS copies each
    parse's basic tree into DEPS (the IWPT baseline: an enhanced graph, hence an ELAS,
    for any dependency parser; the input's empty nodes are dropped)."""
    from parsebench.parsers.pool import check_options
    from parsebench.parsers.run import parse_sentences

    check_options(workers, timeout, batch_size)
    sentences = _sentences(corpus)
    bar = progress or quiet()
    if raw:  # a document's text is one parse
        from parsebench.model.parses import documents

        bar.stage("parsing (a text a document)", len(documents(sentences)))
    else:
        bar.stage("parsing", len(sentences))
    run = parse_sentences(sentences, parser, workers, timeout, raw, batch_size,
                          progress=lambda _t: bar.advance())
    if copy_basic_to_deps:
        if run.kind != "deps":
            raise InputError(f"--copy-basic-to-deps: {parser} gives {run.kind}, not "
                             "dependency trees")
        run.copy_basic = True
    sp = run.speed()
    data: dict[str, Any] = {"output": None, "speed": None,
                            **{k: v for k, v in sp.items() if k != "per_sentence"},
                            "signature": signature(
                                method="parse", parser=parser, raw=raw, timeout=timeout,
                                workers=workers,
                                **({"deps": "basic-copied"} if copy_basic_to_deps else {}))}

    def line() -> str:
        return (f"{data['output']}: {sp['sentences']} sentences, {sp['words']} words, "
                f"{failures(sp['failures'], sp['failure_reasons'])}, "
                f"{sp['words_per_second'] or 0:,.0f} words/s per worker, "
                f"{sp['wall_words_per_second'] or 0:,.0f} words/s in all ({workers} "
                f"worker(s), {sp['wall_seconds']:.1f} s with start-up); speed in "
                f"{data['output']}.speed.json")

    return ParseResult("parse", data, line, (), run)


@dataclass(frozen=True)
class AttackResult(Result):
    """``attack``'s result: ``.treebank`` is the attacked corpus, ``.write(path)``
    writes it as the command does; ``to_dict()`` is then the command's ``--json``."""

    noisy: Any = field(default=None, repr=False)

    @property
    def treebank(self) -> Treebank:
        return Treebank(self.noisy, "<attacked>")

    def write(self, path: PathLike) -> None:
        from parsebench.common.errors import check_output

        check_output(path)
        self.treebank.write(path)
        assert isinstance(self.data, dict)
        self.data["output"] = str(path)


@A.checked(corpus=A.corpus, parser=A.text, budget=A.limited, candidates=A.limited,
           queries=A.limited, seed=A.limited, lang=A.text, lexicon=A.optional(A.path),
           keyboard=A.optional(A.path), min_length=A.integer(), random_baseline=A.flag,
           workers=A.limited, timeout=A.limited, batch_size=A.limited, progress=A.progress)
def attack(corpus: PathLike | Treebank, parser: str, *, budget: int = 1,
           candidates: int = 5, queries: int = 50, seed: int = 1, lang: str = "en",
           lexicon: str | None = None, keyboard: str | None = None, min_length: int = 2,
           random_baseline: bool = True, workers: int = 1, timeout: float = 60.0,
           batch_size: int = 16, progress: Progress | None = None) -> AttackResult:
    """Worst-case misspellings: for each sentence, the BUDGET non-word misspellings (as
    noise makes them) that change PARSER's own parse of the other words most, beside
    a random baseline of the same budget."""
    from parsebench.noise.keyboard import KEYBOARDS, Keyboard
    from parsebench.noise.lexicon import Lexicon
    from parsebench.parsers.cached import CachedParser, pool_parser
    from parsebench.parsers.pool import Pool, check_options
    from parsebench.probes.attack import AttackSettings, summary_table
    from parsebench.probes.attack import attack as search

    opts = AttackSettings(budget, candidates, queries, seed, min_length)
    opts.check()
    check_options(workers, timeout, batch_size)
    sentences = _sentences(corpus)
    kb = Keyboard.load(keyboard or KEYBOARDS.get(lang, "us-qwerty"))
    lex = Lexicon.load(lexicon, lang)
    with Pool(parser, workers, timeout, batch_size) as pool:
        cached = CachedParser(pool_parser(pool, progress), progress)
        noisy, r = search(sentences, cached, opts, kb, lex, baseline=random_baseline)
        identity = pool.identity
    sig = signature(method="attack", parser=parser, budget=budget, candidates=candidates,
                    queries=queries, seed=seed, lexicon=lex.name, keyboard=kb.name,
                    min_length=min_length, projection="head+deprel")
    data = {**r.to_dict(), "output": None, "parser": identity, "signature": sig}
    return AttackResult("attack", data,
                        lambda: summary_table(r, parser) + f"signature: {sig}\n", (), noisy)


@dataclass(frozen=True)
class InvarianceResult(Result):
    """``invariance``'s result; ``.write(folder)`` writes the edited corpora
    (KIND.conllu), invariance.json and failures.txt as the command's ``-o`` does."""

    sentences: Any = field(default=None, repr=False)
    edits: Any = field(default=None, repr=False)

    def write(self, folder: PathLike) -> None:
        import json
        from pathlib import Path

        from parsebench.common.errors import atomic_output, check_folder
        from parsebench.formats.conllu import write_conllu
        from parsebench.probes.invariance import edited, summary_table

        out = Path(check_folder(folder))
        out.mkdir(parents=True, exist_ok=True)
        for kind, got in self.edits.items():
            with atomic_output(out / f"{kind}.conllu") as fh:
                write_conllu(edited(self.sentences, got), fh)
        with atomic_output(out / "invariance.json") as fh:
            fh.write(json.dumps(self.data, indent=1, ensure_ascii=False) + "\n")
        with atomic_output(out / "failures.txt") as fh:
            fh.write(summary_table(dict(self.data), shown=None))


@A.checked(corpus=A.corpus, parsers=A.texts, seed=A.limited, workers=A.limited,
           timeout=A.limited, batch_size=A.limited, progress=A.progress)
def invariance(corpus: PathLike | Treebank, parsers: str | Sequence[str], *, seed: int = 1,
               workers: int = 1, timeout: float = 60.0, batch_size: int = 16,
               progress: Progress | None = None) -> InvarianceResult:
    """Invariance tests on a tagged CoNLL-U: edits whose correct parse is the same tree
    (a proper noun, a number or an adjective swapped for another, the first word's case
    changed); how often each parser's parse of the other words changes, per edit type."""
    from parsebench.formats.conllu import read_conllu
    from parsebench.parsers.cached import CachedParser, pool_parser
    from parsebench.parsers.pool import Pool, check_options
    from parsebench.probes.invariance import EDITS, check, make_edits, summary_table

    specs = [parsers] if isinstance(parsers, str) else list(parsers)
    check_options(workers, timeout, batch_size)
    corpus = as_treebank(corpus)
    sentences = list(corpus) if isinstance(corpus, Treebank) else read_conllu(corpus)
    edits = make_edits(sentences, seed)
    r: dict[str, Any] = {"sentences": len(sentences), "seed": seed,
                         "edits": {k: len(v) for k, v in edits.items()}, "parsers": {},
                         "identity": {}}
    for spec in specs:
        with Pool(spec, workers, timeout, batch_size) as pool:
            r["parsers"][spec] = check(sentences, edits, CachedParser(
                pool_parser(pool, progress), progress), f"invariance: {spec}")
            r["identity"][spec] = pool.identity
    r["signature"] = signature(method="invariance", parsers=specs, seed=seed,
                               edits=",".join(EDITS), projection="head+deprel")
    return InvarianceResult("invariance", r,
                            lambda: summary_table(r) + f"signature: {r['signature']}\n",
                            (), sentences, edits)

