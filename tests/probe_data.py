"""The small keyboard, lexicon and corpora of the attack and invariance tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from parsebench.formats.conllu import Sentence, parse_conllu
from parsebench.model.parses import blank
from parsebench.noise.keyboard import Keyboard
from parsebench.noise.lexicon import Lexicon
from parsebench.parsers.cached import CachedParse, CachedParser, parsed_of

TEXTS = ["the dog saw a cat", "we saw them yesterday", "she saw the big red house today",
         "yesterday they saw it", "the old man saw the dog"]


US = Keyboard.load("us-qwerty")


LEX = Lexicon(["the", "dog", "saw", "cat", "we", "them", "she", "big", "red", "house",
               "today", "they", "it", "yesterday", "old", "man", "sew", "was", "sat"], "test")


ROWS = [  # form, upos, feats
    [("John", "PROPN", "Number=Sing"), ("saw", "VERB", "_"), ("7", "NUM", "_"),
     ("happy", "ADJ", "Degree=Pos"), ("dogs", "NOUN", "Number=Plur"), (".", "PUNCT", "_")],
    [("Paris", "PROPN", "Number=Sing"), ("has", "VERB", "_"), ("12", "NUM", "_"),
     ("old", "ADJ", "Degree=Pos"), ("houses", "NOUN", "Number=Plur")],
    [("the", "DET", "_"), ("Smiths", "PROPN", "Number=Plur"), ("bought", "VERB", "_"),
     ("1", "NUM", "_"), ("bigger", "ADJ", "Degree=Cmp"), ("car", "NOUN", "Number=Sing")],
    [("42", "NUM", "_"), ("is", "AUX", "_"), ("it", "PRON", "_")],
]

def conllu() -> str:
    out = []
    for k, rows in enumerate(ROWS, 1):
        out += [f"# sent_id = t{k}", "# text = " + " ".join(r[0] for r in rows)]
        out += [f"{i}\t{f}\t_\t{u}\t_\t{x}\t{0 if i == 1 else i - 1}\tdep\t_\t_"
                for i, (f, u, x) in enumerate(rows, 1)]
        out.append("")
    return "\n".join(out) + "\n"


def corpus() -> list[Sentence]:
    return [blank(t.split(), [f"# sent_id = s{k}", f"# text = {t}"])
            for k, t in enumerate(TEXTS, 1)]


def tagged_corpus() -> list[Sentence]:
    return parse_conllu(conllu().splitlines())


def counting(fn: Callable[[Sequence[str]], object]) -> CachedParser:
    def parse(batch: Sequence[tuple[str, ...]]) -> list[CachedParse]:
        return [parsed_of(w, fn(w)) for w in batch]
    return CachedParser(parse)
