"""Each language's noise defaults: the keyboard its misspellings are typed on and the
lexicon of Bigert's non-word rule (a misspelling must not be one of its words), as
``noise --lang`` and a run's ``lang`` take them.

The lexicon is wordfreq's word list where wordfreq has the language; it has none for
Irish, whose misspellings are kept off the corpus's own words only (as every
language's are) unless ``--lexicon`` names one: the treebank's train split as a
CoNLL-U file, a word list or a hunspell dictionary. Japanese and Chinese are typed
through an input method (kana or pinyin converted to characters), which a keyboard
slip does not model: their misspellings are refused.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from parsebench.common.errors import InputError


@dataclass(frozen=True)
class Language:
    code: str
    name: str
    keyboard: str | None
    """Its layout; None: typed through an input method (no misspellings)."""
    wordfreq: bool = True
    """Whether wordfreq has its word list (the default lexicon)."""


LANGUAGES: dict[str, Language] = {lang.code: lang for lang in (
    Language("en", "English", "us-qwerty"),
    Language("sv", "Swedish", "sv-qwerty"),
    Language("de", "German", "de-qwertz"),
    Language("fr", "French", "fr-azerty"),
    Language("fi", "Finnish", "fi-qwerty"),
    Language("fa", "Persian", "fa-isiri"),
    Language("id", "Indonesian", "us-qwerty"),
    Language("ga", "Irish", "ga-qwerty", wordfreq=False),
    Language("ko", "Korean", "ko-dubeolsik"),
    Language("ru", "Russian", "ru-jcuken"),
    Language("tr", "Turkish", "tr-q"),
    Language("ja", "Japanese", None),
    Language("zh", "Chinese", None),
)}
"""The languages of the data the project is tested on, with their defaults; another
language gets the US layout and wordfreq's list, if wordfreq has one."""

KEYBOARDS = {code: lang.keyboard for code, lang in LANGUAGES.items() if lang.keyboard}
"""The default layout of a language."""

CORPUS_WORDS = "corpus"
"""The default lexicon of a language wordfreq lacks: none but the corpus's own words."""

FOLDED = frozenset(LANGUAGES) - {"en", "sv"}
"""Languages whose words are compared as wordfreq folds them (case, Unicode form, the
Turkish dotless i, German ß as ss, Arabic-script marks); English and Swedish, the
first two, keep plain lower case, so that their noise stays as it was made."""


def typed_languages() -> list[str]:
    return sorted(c for c, lang in LANGUAGES.items() if lang.keyboard)


def keyboard_for(lang: str) -> str:
    """LANG's default layout; refused in one line for a language typed through an input
    method."""
    got = LANGUAGES.get(lang)
    if got is None:
        return "us-qwerty"
    if got.keyboard is None:
        raise InputError(
            f"--lang {lang}: {got.name} is typed through an input method, which keyboard "
            "misspellings do not model; they are made in " + ", ".join(typed_languages()))
    return got.keyboard


def lexicon_for(lang: str) -> str:
    """LANG's default lexicon: ``wordfreq:LANG``, or :data:`CORPUS_WORDS`."""
    got = LANGUAGES.get(lang)
    return CORPUS_WORDS if got is not None and not got.wordfreq else f"wordfreq:{lang}"


def folding(lang: str) -> Callable[[str], str]:
    """How LANG's words are compared with the lexicon's: wordfreq's own preprocessing for
    the languages of :data:`FOLDED`, lower case for the others."""
    if lang not in FOLDED:
        return str.lower
    from langcodes import Language as Tag
    from wordfreq.preprocess import preprocess_text

    tag = Tag.get(lang)

    def fold(word: str) -> str:
        return str(preprocess_text(word, tag))
    return fold
