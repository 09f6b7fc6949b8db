from collections import Counter
from collections.abc import Callable, Iterator, Sequence

from parsebench.formats.conllu import Sentence
from parsebench.metrics.dependency.conll18 import F1Count
from parsebench.metrics.dependency.stretch import SentenceCounts

class StretchCounter:
    pairs: Counter[tuple[str, str]] | None
    def __init__(self, punct: bool = True, labels: Callable[[str], str] | None = None,
                 confusion: str | None = None,
                 pairs: Counter[tuple[str, str]] | None = None) -> None: ...
    def count(self, gold: list[Sentence], system: list[Sentence],
              out: list[SentenceCounts] | None = None
              ) -> tuple[list[int], list[int]] | None: ...
    def flush(self, total: SentenceCounts) -> None: ...

def text_length(s: Sentence) -> int: ...
def deps_stretch(gold: list[Sentence], system: list[Sentence], sys2gold: list[int],
                 sentence_of: list[int], elas: list[F1Count], eulas: list[F1Count],
                 parsed: dict[str, tuple[tuple[tuple[int, str], ...], int, int]],
                 split: Callable[[str], tuple[tuple[tuple[int, str], ...], int, int] | None],
                 matched: Callable[[Sequence[tuple[int, str]], Sequence[tuple[int, str]]],
                                   tuple[int, int]]) -> tuple[int, int] | None: ...
def text_chunks(gold: Iterator[Sentence], system: Iterator[Sentence],
                g_next: Sentence | None, s_next: Sentence | None,
                text_length: Callable[[Sentence], int]
                ) -> Iterator[tuple[list[Sentence], list[Sentence], bool | None]]: ...
