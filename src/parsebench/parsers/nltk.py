"""NLTK's TnT tagger and Earley chart parser (extra ``nltk``).

``nltk-tnt:TRAIN.conllu`` trains TnT on the file's (FORM, UPOS) pairs when the
worker starts, or reads the tagger trained on the same file before
(:mod:`parsebench.parsers.tnt_cache`); unknown words get a suffix tagger's guess (TnT's own idea,
which NLTK leaves to the caller). ``nltk-earley:GRAMMAR.cfg`` parses with a
hand-written grammar (NLTK's CFG notation, words quoted; ``english.cfg`` is
the small example grammar that ships with parsebench); a sentence with a
word the grammar lacks, or without a parse, is a failure: such failures are
the data of a grammar-based parser, not bugs.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from parsebench.common.errors import InputError, read_lines
from parsebench.common.installed import version
from parsebench.formats.conllu import read_conllu
from parsebench.parsers.base import Adapter, Analysis, Failure, Item, Outcome, file_digest


class TnTTagger(Adapter):
    name = "nltk-tnt"
    kind = "tags"

    def __init__(self, arg: str | None) -> None:
        super().__init__(arg)
        if not arg:
            raise InputError("nltk-tnt needs training data: nltk-tnt:TRAIN.conllu")
        from parsebench.parsers import tnt_cache

        try:
            kept = tnt_cache.cache_path(arg, "affix-3-noun-beam100")
        except OSError:
            kept = None  # unreadable: read_conllu below says so
        tagger = None if kept is None else tnt_cache.load(kept)
        if tagger is None:
            tagger = train_tnt(arg)
            if kept is not None:
                tnt_cache.save(tagger, kept)
        self.tagger = tagger

    @classmethod
    def spec_identity(cls, arg: str | None) -> dict[str, str] | None:
        if not arg:
            return None
        return {"adapter": cls.name, "version": version("nltk"), "train": file_digest(arg),
                "beam": "100"}

    def parse(self, batch: Sequence[Item], tokenize: bool = False) -> Iterator[Outcome]:
        for item in batch:
            tags = [t for _, t in self.tagger.tag(item.words)]
            yield Analysis(upos=tags)


def train_tnt(path: str) -> Any:
    """TnT trained on PATH's (FORM, UPOS) pairs, with an affix tagger for unknown words."""
    from nltk.tag import AffixTagger, DefaultTagger, tnt

    train = [list(zip(s.forms, s.upos, strict=True)) for s in read_conllu(path)]
    unk = AffixTagger(train, affix_length=-3, backoff=DefaultTagger("NOUN"))
    tagger = tnt.TnT(unk=unk, Trained=True, N=100)
    tagger.train(train)
    return tagger


class Earley(Adapter):
    name = "nltk-earley"
    kind = "tree"

    def __init__(self, arg: str | None) -> None:
        super().__init__(arg)
        if not arg:
            raise InputError("nltk-earley needs a grammar: nltk-earley:GRAMMAR.cfg")
        from nltk import CFG
        from nltk.parse import EarleyChartParser

        arg = self.arg = _grammar_path(arg)
        try:
            grammar = CFG.fromstring("\n".join(read_lines(arg)))
        except ValueError as exc:
            raise InputError(f"not an NLTK CFG grammar: {exc}", arg) from None
        self.words = {t for p in grammar.productions() for t in p.rhs() if isinstance(t, str)}
        self.parser = EarleyChartParser(grammar)

    @classmethod
    def spec_identity(cls, arg: str | None) -> dict[str, str] | None:
        if not arg:
            return None
        return {"adapter": cls.name, "version": version("nltk"),
                "grammar": file_digest(_grammar_path(arg))}

    def parse(self, batch: Sequence[Item], tokenize: bool = False) -> Iterator[Outcome]:
        for item in batch:
            unknown = [w for w in item.words if w not in self.words]
            if unknown:
                yield Failure("not in the grammar: " + " ".join(unknown[:5]))
                continue
            tree = next(iter(self.parser.parse(item.words)), None)
            if tree is None:
                yield Failure("no parse")
            else:
                yield Analysis(tree=_bracketed(tree))


def _bracketed(tree: Any) -> str:
    """NLTK's tree on one line, its words escaped as the Penn Treebank does (NLTK writes
    ``(X ()``, which no reader can take back)."""
    from parsebench.formats.brackets import escape_word

    tree = tree.copy(deep=True)
    for pos in tree.treepositions("leaves"):
        tree[pos] = escape_word(tree[pos])
    return " ".join(str(tree).split())


def _grammar_path(arg: str) -> str:
    """ARG, or the grammar of that name that ships with parsebench."""
    bundled = Path(__file__).resolve().parent.parent / "data" / "grammars" / arg
    return str(bundled) if not Path(arg).exists() and bundled.exists() else arg
