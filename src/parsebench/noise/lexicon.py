"""Lexicons: the words a misspelling must not be, and wordfreq's list read once for both
that and Zipf frequencies."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet
from functools import cache
from pathlib import Path

from parsebench.common.errors import InputError, read_lines
from parsebench.noise.languages import CORPUS_WORDS, folding, lexicon_for


def wordfreq_list(lang: str) -> str:
    """Which of wordfreq's lists LANG has (``large``, else ``small``), or an InputError
    naming the languages it has: cheap, so an experiment is checked before any work."""
    import wordfreq

    kind = "large" if lang in wordfreq.available_languages("large") else "small"
    if lang not in wordfreq.available_languages(kind):
        known = ", ".join(sorted(wordfreq.available_languages("small")))
        raise InputError(f"wordfreq has no word list for language {lang!r}; it has: {known}")
    return kind


class Lexicon:
    """Words of the language, folded (lower-cased, or as wordfreq folds them: see
    :func:`parsebench.noise.languages.folding`): misspellings must not be one of them."""

    def __init__(self, words: Iterable[str], name: str,
                 fold: Callable[[str], str] = str.lower) -> None:
        self.words: AbstractSet[str] = {fold(w) for w in words}
        self.name = name
        self.fold = fold

    @classmethod
    def of(cls, freqs: Frequencies) -> Lexicon:
        """The default lexicon (``wordfreq:LANG``) as the keys of FREQS's table: the same
        words, held once for both uses."""
        lex = cls((), freqs.name)
        lex.words = freqs.bands.keys() if freqs.lowercase else \
            {w.lower() for w in freqs.bands}
        return lex

    def __contains__(self, word: str) -> bool:
        return self.fold(word) in self.words

    @property
    def corpus_only(self) -> bool:
        """Whether it is the default of a language wordfreq lacks: no words of its own."""
        return self.name.startswith(CORPUS_WORDS + ":")

    @classmethod
    def load(cls, spec: str | None, lang: str) -> Lexicon:
        """SPEC: None (LANG's default: wordfreq's list, or none for a language wordfreq
        lacks), ``wordfreq:LANG``, a word list, a hunspell .dic, or a CoNLL-U file (its
        words: a treebank's train split). Words are compared folded as LANG's are."""
        fold = folding(lang)
        if spec is None and lexicon_for(lang) == CORPUS_WORDS:
            return cls((), f"{CORPUS_WORDS}:{lang}", fold)
        if spec is None or spec.startswith("wordfreq"):
            lang = spec.split(":", 1)[1] if spec and ":" in spec else lang
            try:
                import wordfreq
            except ImportError:  # pragma: no cover - wordfreq is a core dependency
                raise InputError("the default lexicon needs the wordfreq package") from None
            from parsebench.common.installed import version

            kind = wordfreq_list(lang)
            # the list changes between releases: the version is part of the setting
            name = f"wordfreq-{version('wordfreq')}-{kind}:{lang}"
            if fold is str.lower:
                return cls(wordfreq.iter_wordlist(lang, kind), name)
            lex = cls((), name, fold)  # wordfreq's words are folded as fold folds
            lex.words = set(wordfreq.iter_wordlist(lang, kind))
            return lex
        lines = read_lines(spec)
        if spec.endswith(".conllu"):
            # FORM of every word and multiword token; comments and blank lines skipped
            words = (cols[1] for ln in lines if ln[:1].isdigit()
                     for cols in [ln.split("\t")] if len(cols) > 1)
        elif spec.endswith(".dic"):
            # hunspell: first line is the entry count, then word[/FLAGS]
            body = lines[1:] if lines and lines[0].strip().isdigit() else lines
            words = (ln.split("/", 1)[0].strip() for ln in body)
        else:
            words = (ln.strip() for ln in lines)
        return cls((w for w in words if w and not w.startswith("#")), Path(spec).name, fold)


class Frequencies:
    """wordfreq's word list of LANG read once into one table, word -> band (its index in
    the list: how many centibels its frequency is below 1, as wordfreq stores it).

    It serves both the lexicon of non-words (its keys) and Zipf lookups (:meth:`zipf`,
    wordfreq's ``zipf_frequency`` computed the same way on the same list). Through
    wordfreq's own functions the two took the decoded list (kept in a cache, 40 MB for
    English), a frequency dict beside it and a set of its words again (33 MB), and a
    cache of 100,000 lookups; this table is about 28 MB. The list is decoded a band at
    a time, so it is never held whole either.
    """

    def __init__(self, lang: str) -> None:
        import gzip

        try:
            import msgpack
            import wordfreq
        except ImportError:  # pragma: no cover - wordfreq is a core dependency
            raise InputError("the default lexicon needs the wordfreq package") from None
        from parsebench.common.installed import version

        kind = "large" if lang in wordfreq.available_languages("large") else "small"
        paths = wordfreq.available_languages(kind)
        if lang not in paths:
            raise InputError(f"wordfreq has no word list for language {lang!r}")
        self.lang, self.path = lang, paths[lang]
        self.name = f"wordfreq-{version('wordfreq')}-{kind}:{lang}"
        bands: dict[str, int] = {}
        with gzip.open(self.path, "rb") as fh:
            unpacker = msgpack.Unpacker(fh, raw=False)
            n = unpacker.read_array_header()
            header = unpacker.unpack() if n else None
            if not isinstance(header, dict) or header.get("format") != "cB" or \
                    header.get("version") != 1:
                raise ValueError(f"Unexpected header: {header!r}")
            for band in range(n - 1):
                for word in unpacker.unpack():
                    bands[word] = band  # a word in two bands: the last, as wordfreq
        self.bands = bands
        self.lowercase = all(w.lower() == w for w in bands)
        self._by_band: dict[int | None, float] = {}
        # zipf() answers as wordfreq's zipf_frequency(word, lang) only if that reads this
        # list ("best" is the large list where there is one)
        self.exact = wordfreq.available_languages("best").get(lang) == self.path
        self.untokenized = False
        """Whether wordfreq's tokenizer for the language could not be imported (MeCab)."""

    def zipf(self, word: str) -> float:
        """WORD's frequency on the Zipf scale, 0 for unknown words: wordfreq's
        ``zipf_frequency(word, lang)``, the same number, from this table. A word of
        lower-case ASCII letters is its own single token, so its value is its band's
        (worked out once a band); other words are tokenized as wordfreq does."""
        if not self.exact and not self.untokenized:
            from wordfreq import zipf_frequency

            try:
                return float(zipf_frequency(word, self.lang))
            except ImportError:  # MeCab: see below
                self.untokenized = True
        if word.isascii() and word.isalpha() and word.islower():
            band = self.bands.get(word)
            got = self._by_band.get(band)
            if got is None:
                got = self._by_band[band] = self._zipf([word])
            return got
        from wordfreq.tokens import lossy_tokenize

        if not self.untokenized:
            try:
                return self._zipf(lossy_tokenize(word, self.lang))
            except ImportError:
                # wordfreq splits Japanese and Korean with MeCab, an optional package
                # (and its dictionary) that a plain install lacks: the word is then
                # looked up whole, as one token, which its list holds for most words
                self.untokenized = True
        return self._zipf([word.casefold()])

    def _zipf(self, tokens: list[str]) -> float:
        """wordfreq 3's ``_word_frequency`` and ``zipf_frequency`` (minimum 0), step by step."""
        import wordfreq
        from wordfreq.language_info import get_language_info
        from wordfreq.numbers import digit_freq, smash_numbers

        minimum = wordfreq.zipf_to_freq(0.0)
        freq = minimum
        if tokens:
            one_over_result = 0.0
            for token in tokens:
                smashed = smash_numbers(token)
                band = self.bands.get(smashed)
                if band is None:
                    break
                f = wordfreq.cB_to_freq(-band)
                if smashed != token:
                    f *= digit_freq(token)
                one_over_result += 1.0 / f
            else:
                freq = 1.0 / one_over_result
                if get_language_info(self.lang)["tokenizer"] == "jieba":
                    freq *= wordfreq.INFERRED_SPACE_FACTOR ** -(len(tokens) - 1)
                unrounded = max(freq, minimum)
                if unrounded == 0.0:
                    freq = 0.0
                else:
                    leading_zeroes = math.floor(-math.log(unrounded, 10))
                    freq = round(unrounded, leading_zeroes + 3)
        return float(round(wordfreq.freq_to_zipf(freq), 2))


@cache
def frequencies(lang: str) -> Frequencies:
    """One :class:`Frequencies` a language for the whole process."""
    return Frequencies(lang)
