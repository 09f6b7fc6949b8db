"""Link Grammar (Debian ``link-grammar``, ``python3-link-grammar``): undirected labeled links.

The first linkage only (Kakkonen). When no full linkage exists the sentence is
parsed again with null links allowed (words left out of the linkage), so a
partial analysis is kept rather than a failure; ``max_parse_time`` bounds the
search and the pool's hard timeout covers the cases where it is not kept.
Link Grammar re-tokenizes (``U.S.`` becomes ``U.S`` + ``.``), so its words are
mapped back to the input words by their character offsets; links inside one
input word are dropped, links to the left wall are kept as links to word 0,
links to the right wall are dropped.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from parsebench.common.errors import InputError
from parsebench.parsers.base import Adapter, Analysis, Failure, Item, Outcome


@contextmanager
def _quiet() -> Iterator[None]:
    """Silence the C library's notes (on stdout and stderr) while the dictionary loads."""
    saved = [os.dup(1), os.dup(2)]
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        yield
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (*saved, devnull):
            os.close(fd)


class LinkGrammar(Adapter):
    name = "linkgrammar"
    kind = "links"

    def __init__(self, arg: str | None) -> None:
        super().__init__(arg)
        os.environ.setdefault("LC_ALL", "C.UTF-8")
        try:
            import linkgrammar as lg
        except ImportError:
            raise InputError("linkgrammar: the Python bindings are missing; install Debian's "
                             "python3-link-grammar and link-grammar-dictionaries-en (make "
                             "test does)") from None
        self.lg = lg
        with _quiet():
            self.dictionary = lg.Dictionary(arg or "en")
        self.opts = lg.ParseOptions(verbosity=0, spell_guess=0, linkage_limit=100)

    @classmethod
    def spec_identity(cls, arg: str | None) -> dict[str, str] | None:
        try:
            import linkgrammar as lg
        except ImportError:
            return None
        return {"adapter": cls.name, "version": lg.__version__, "dictionary": arg or "en"}

    def _linkage(self, text: str) -> Any:
        lg = self.lg
        self.opts.max_parse_time = max(1, int(self.timeout * 0.8))
        for nulls in (0, 1):
            self.opts.min_null_count = nulls
            self.opts.max_null_count = 0 if nulls == 0 else 250
            linkages = lg.Sentence(text, self.dictionary, self.opts).parse()
            if len(linkages):
                return next(iter(linkages))
        return None

    def parse(self, batch: Sequence[Item], tokenize: bool = False) -> Iterator[Outcome]:
        clg = self.lg.Clinkgrammar
        for item in batch:
            text = " ".join(item.words)
            starts = []
            pos = 0
            for w in item.words:
                starts.append(pos)
                pos += len(w) + 1
            linkage = self._linkage(text)
            if linkage is None:
                yield Failure("no linkage")
                continue
            n = linkage.num_of_words()
            owner: list[int | None] = []
            for i in range(n):
                word = linkage.word(i)
                if word == "LEFT-WALL":
                    owner.append(0)
                elif word == "RIGHT-WALL":
                    owner.append(None)
                else:
                    c = linkage.word_char_start(i)
                    owner.append(bisect_right(starts, c))
            links = set()
            obj = linkage._obj
            for k in range(linkage.num_of_links()):
                a = owner[clg.linkage_get_link_lword(obj, k)]
                b = owner[clg.linkage_get_link_rword(obj, k)]
                if a is None or b is None or a == b:
                    continue
                links.add((min(a, b), max(a, b), clg.linkage_get_link_label(obj, k)))
            yield Analysis(links=sorted(links))


_TOKEN = re.compile(r"\(|\)|[^\s()]+")
_CLASS_TAGS = {"CAPITALIZED-WORDS": "NNP", "NUMBERS": "CD", "ADJ-WORDS": "JJ",
               "LY-WORDS": "RB", "ING-WORDS": "VBG", "ED-WORDS": "VBN", "S-WORDS": "NNS",
               "PL-CAPITALIZED-WORDS": "NNPS", "FRACTION": "CD", "UNITS": "NN",
               "YEAR-DATE": "CD", "INITIALS": "NNP"}
"""Link Grammar's guessed word classes (``word[!<CLASS>]``) as Penn tags."""
_SUBSCRIPT_TAGS = {"n": "NN", "n-u": "NN", "s": "NN", "p": "NNS", "m": "NNP", "f": "NNP",
                   "b": "NNP", "l": "NNP", "g": "NNP", "t": "NNP", "x": "NNP", "y": "NNP",
                   "a": "JJ", "a-c": "JJR", "a-s": "JJS", "e": "RB", "j-n": "CC",
                   "j-v": "CC", "j-a": "CC", "j-c": "CC", "j-m": "CC", "j-r": "CC",
                   "j-q": "CC", "j-s": "CC", "i": "IN", "c": "NN", "#": "NN"}
"""Its dictionary subscripts (``board.n``, ``old.a``): noun, adjective, adverb..."""
def _all(words: str, tag: str) -> dict[str, str]:
    return dict.fromkeys(words.split(), tag)


_CLOSED = {
    **_all("the a an this that these those every some no any each all both either neither "
           "another", "DT"),
    **_all("of in on at by for with from into onto about as than against among between "
           "through during without within under over after before since until upon like via "
           "per off out up down near across behind beyond toward towards despite because if "
           "whether although though while unless", "IN"),
    "to": "TO", "there": "EX", "'s": "POS", "'": "POS", "not": "RB", "n't": "RB",
    **_all("i you he she it we they me him us them myself itself himself herself themselves "
           "ourselves yourself", "PRP"),
    **_all("my your his her its our their", "PRP$"),
    **_all("and or but nor", "CC"),
    **_all("will would can could may might shall should must", "MD"),
    **_all("which whatever", "WDT"),
    **_all("who whom what", "WP"), "whose": "WP$",
    **_all("when where why how", "WRB"),
    ",": ",", ".": ".", "?": ".", "!": ".", ":": ":", ";": ":", "--": ":", "...": ":",
    "``": "``", "''": "''", '"': "''", "`": "``", "(": "-LRB-", ")": "-RRB-",
    "{": "-LRB-", "}": "-RRB-", "$": "$", "#": "#", "%": "NN",
}
"""Words Link Grammar leaves without a subscript: function words and punctuation."""
_VERB_FORMS = {"d": "VBD", "g": "VBG", "p": "VBN", "s": "VBZ", "i": "VB"}
_BY_PHRASE = {"NP": "NN", "VP": "VB", "ADJP": "JJ", "ADVP": "RB", "PP": "IN", "PRT": "RP",
              "QP": "CD", "WHNP": "WP", "SBAR": "IN"}


_PUNCT_TAGS = frozenset({",", ":", "``", "''", ".", "-LRB-", "-RRB-", "#", "$"})


def penn_tag(word: str, phrase: str) -> str:
    """:func:`_penn_tag`, with punctuation tags kept for punctuation: EVALB deletes words
    by their punctuation tag, so a word tagged ``:`` would change a sentence's length."""
    tag = _penn_tag(word, phrase)
    if tag in _PUNCT_TAGS and any(c.isalnum() for c in re.sub(r"\[[^\]]*\]|\.[a-z#][\w#-]*$",
                                                              "", word)):
        return _BY_PHRASE.get(phrase, "NN")
    return tag


def _penn_tag(word: str, phrase: str) -> str:
    """A Penn tag for one of Link Grammar's words (``board.n-u``, ``sat.v-d``,
    ``Vinken[!<CAPITALIZED-WORDS>]``, ``[,]`` for a word left out of the linkage):
    from its guessed class, else its dictionary subscript, else the closed-class
    table, else the phrase it sits in. Function words (``will.v``, ``as.e``) take the
    closed-class table's tag first, and a particle (``PRT``) is RP."""
    if phrase == "PRT":
        return "RP"
    if word.startswith("[") and word.endswith("]") and len(word) > 2:
        word = word[1:-1]
    guessed = re.search(r"\[[!?]<([A-Z-]+)>\]", word)
    if guessed and guessed.group(1) in _CLASS_TAGS:
        return _CLASS_TAGS[guessed.group(1)]
    word = re.sub(r"\[[^\]]*\]", "", word)
    base, dot, sub = word.rpartition(".")
    if dot and base and base.lower() in _CLOSED:
        return _CLOSED[base.lower()]  # a function word: the table knows it better
    if dot and base and re.fullmatch(r"[a-z#][a-z0-9#-]*", sub):
        if sub.startswith("#"):
            return _CLOSED.get(sub[1:].lower(), "NN")
        if sub[0] in "vwq":
            form = sub.partition("-")[2][:1]
            return _VERB_FORMS.get(form, "VB")
        tag = _SUBSCRIPT_TAGS.get(sub) or _SUBSCRIPT_TAGS.get(sub.split("-")[0])
        if tag:
            return tag
        word = base
    if re.fullmatch(r"[\d.,:/-]*\d[\d.,:/-]*", word):
        return "CD"
    return _CLOSED.get(word.lower(), _BY_PHRASE.get(phrase, "NN"))


class LinkGrammarTrees(LinkGrammar):
    """``linkgrammar-trees[:LANG]``: Link Grammar's constituent trees (its ``constituents``
    output, from the first linkage) as bracketed trees over the input words, so Parseval
    and head-rule conversion can score them.

    Link Grammar prints no part-of-speech level: each leaf gets a Penn tag from Link
    Grammar's own word classes (:func:`penn_tag`: guessed classes, dictionary subscripts,
    a closed-class table, the phrase as a last resort), never from the gold. Its words
    are mapped back to the input words by character offsets, as for its links; a word it
    split (``U.S.``) is one leaf, and a word it left out is kept where it stands."""

    name = "linkgrammar-trees"
    kind = "tree"

    @classmethod
    def spec_identity(cls, arg: str | None) -> dict[str, str] | None:
        got = super().spec_identity(arg)
        return None if got is None else {**got, "adapter": cls.name, "output": "constituents"}

    def parse(self, batch: Sequence[Item], tokenize: bool = False) -> Iterator[Outcome]:
        for item in batch:
            linkage = self._linkage(" ".join(item.words))
            if linkage is None:
                yield Failure("no linkage")
                continue
            try:
                yield Analysis(tree=self._tree(linkage, item.words))
            except ValueError as exc:
                yield Failure(str(exc))

    @staticmethod
    def _tree(linkage: Any, words: list[str]) -> str:
        from parsebench.formats.brackets import escape_word

        starts, pos = [], 0
        for w in words:
            starts.append(pos)
            pos += len(w) + 1
        lg_words = [linkage.word(i) for i in range(linkage.num_of_words())]
        inner = [i for i, w in enumerate(lg_words) if w not in ("LEFT-WALL", "RIGHT-WALL")]
        owner = [bisect_right(starts, linkage.word_char_start(i)) - 1 for i in inner]
        tokens = _TOKEN.findall(linkage.constituent_tree(3))
        emitted = -1  # the last input word written

        def leaves_up_to(j: int, phrase: str) -> list[str]:
            """The input words after the last one written, up to J, as leaves."""
            nonlocal emitted
            out = []
            for w in range(emitted + 1, j + 1):
                tag = (penn_tag(lg_words[inner[leaf_of[w]]], phrase) if w in leaf_of
                       else _BY_PHRASE.get(phrase, "NN"))
                out.append(f"({tag} {escape_word(words[w])})")
            emitted = max(emitted, j)
            return out

        leaf_of: dict[int, int] = {}
        for n, o in enumerate(owner):
            leaf_of.setdefault(o, n)
        k = 0
        i = 0

        def node() -> str | None:
            nonlocal i, k
            i += 1  # "("
            label = tokens[i]
            i += 1
            parts: list[str] = []
            while tokens[i] != ")":
                if tokens[i] == "(":
                    sub = node()
                    if sub:
                        parts.append(sub)
                    continue
                if k >= len(owner):
                    raise ValueError("Link Grammar's tree has more words than its linkage")
                parts += leaves_up_to(owner[k], label)
                k += 1
                i += 1
            i += 1
            return f"({label} {' '.join(parts)})" if parts else None

        if not tokens or tokens[0] != "(":
            raise ValueError("Link Grammar gave no constituent tree")
        root = node()
        if k != len(owner) or i != len(tokens):
            # the library's constituent printer stops short on some linkages
            raise ValueError("Link Grammar's constituent tree stops before the sentence's "
                             "last word")
        rest = leaves_up_to(len(words) - 1, "S")
        body = root or ""
        if rest:  # words after the tree's last: kept under the top
            body = f"{body} {' '.join(rest)}".strip()
        return f"(TOP {body})"
