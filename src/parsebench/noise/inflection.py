"""English inflections and lemmas from lemminflect, looked up without loading spaCy or
its whole tables: what the learner-like errors' agreement, tense and number need."""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Callable
from functools import cache
from typing import Any


@cache
def _lemminflect() -> tuple[Any, Any]:
    """lemminflect's inflection and lemma tables (the objects behind its getInflection
    and getLemma). Its package ``__init__`` imports spaCy to register a spaCy extension
    that the noise does not use: 250 MB of memory and seconds of start-up. Unless spaCy
    or lemminflect is loaded already, its modules are loaded under a bare package, so
    that ``__init__`` does not run; the lookups are the same."""
    import importlib
    import importlib.util
    import sys
    import types

    def tables() -> tuple[Any, Any]:
        infl = importlib.import_module("lemminflect.core.Inflections").Inflections()
        lemm = importlib.import_module("lemminflect.core.Lemmatizer").Lemmatizer()
        codecs = "lemminflect.codecs."
        # lemminflect loads each table whole on its first lookup, as dicts of dicts of
        # tuples (10 MB and 30 MB, the lemmas' for the few words EWT has no lemma of);
        # where it has not done so yet, it is given the same tables looked up a word at a
        # time in their text (3 MB for both): the same entries, by its own code.
        if not hasattr(infl, "infl_dict"):
            codec = importlib.import_module(codecs + "InflectionLUCodec").InflectionLUCodec
            infl.infl_dict = _LookupTable(infl.infl_lu_fn, _inflection_entry(codec),
                                          codec.updateForAuxMod({}))
        if not hasattr(lemm, "lemma_dict"):
            codec = importlib.import_module(codecs + "LemmaLUCodec").LemmaLUCodec
            upos = importlib.import_module("lemminflect.core.LexicalUtils").categoryToUPos
            lemm.lemma_dict = _LookupTable(lemm.lemma_lu_fn, _lemma_entry(codec, upos), {})
        return infl, lemm

    if "lemminflect" in sys.modules or "spacy" in sys.modules:
        return tables()
    spec = importlib.util.find_spec("lemminflect")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("lemminflect is not installed")
    bare = types.ModuleType("lemminflect")
    bare.__path__ = list(spec.submodule_search_locations)
    sys.modules["lemminflect"] = bare
    try:
        return tables()
    finally:
        del sys.modules["lemminflect"]  # a later `import lemminflect` runs it whole


class _LookupTable:
    """One of lemminflect's look-up files (lines ``word,category,forms``, sorted by word)
    as the dict its loader makes, word -> entry, for what lemminflect asks of it
    (``get``): the file is held as its text and the start of each line, and a word's
    lines are found by bisection and read by lemminflect's own line parser when asked.
    The file's entries for a word are merged in file order, and FIXED replaces some
    whole, as lemminflect's loader does."""

    def __init__(self, path: str, entry: Callable[[list[str]], dict[str, Any]],
                 fixed: dict[str, dict[str, Any]]) -> None:
        import gzip

        with gzip.open(path, "rb") as fh:
            self.text = fh.read().decode()
        starts = array("i", [0])
        at, find = 0, self.text.find
        while (at := find("\n", at) + 1) > 0:
            starts.append(at)
        if starts[-1] != len(self.text):
            starts.append(len(self.text))
        self.starts, self.entry, self.fixed = starts, entry, fixed

    def _word(self, k: int) -> str:
        at = self.starts[k]
        return self.text[at:self.text.find(",", at)]

    def get(self, word: str, default: Any = None) -> Any:
        if word in self.fixed:
            return self.fixed[word]
        n = len(self.starts) - 1
        k = bisect_left(range(n), word, key=self._word)
        lines = []
        while k < n and self._word(k) == word:
            lines.append(self.text[self.starts[k]:self.starts[k + 1]])
            k += 1
        return self.entry(lines) if lines else default


def _inflection_entry(codec: Any) -> Callable[[list[str]], dict[str, Any]]:
    def entry(lines: list[str]) -> dict[str, Any]:
        forms: dict[str, Any] = {}
        for line in lines:
            forms.update(codec.fromString(line)[2])
        return forms
    return entry


def _lemma_entry(codec: Any, upos: Callable[[str], str]
                 ) -> Callable[[list[str]], dict[str, Any]]:
    def entry(lines: list[str]) -> dict[str, Any]:
        lemmas: dict[str, Any] = {}
        for line in lines:
            _, category, forms = codec.fromString(line)
            lemmas.update({upos(category): forms})
        return lemmas
    return entry


@cache
def inflect(lemma: str, tag: str) -> str | None:
    """LEMMA's form for the Penn TAG (an unknown word by lemminflect's rules), or None."""
    got = _lemminflect()[0].getInflection(lemma, tag, inflect_oov=True)
    return got[0] if got else None


@cache
def lemmatize(form: str, upos: str) -> str | None:
    """FORM's lemma as a UPOS word (an AUX as a verb), or None: for the words a corpus gives
    no lemma."""
    got = _lemminflect()[1].getLemma(form, "VERB" if upos == "AUX" else upos,
                                     lemmatize_oov=True)
    return got[0] if got else None
