from collections import Counter
from collections.abc import Callable

from parsebench.formats.conllu import Sentence
from parsebench.metrics.dependency.stretch import SentenceCounts

class RowCounter:
    pairs: Counter[tuple[str, str]] | None
    def __init__(self, punct: bool = True, labels: Callable[[str], str] | None = None,
                 confusion: str | None = None,
                 pairs: Counter[tuple[str, str]] | None = None) -> None: ...
    def count(self, gold: Sentence, system: Sentence,
              out: SentenceCounts | None = None) -> bool: ...
    def flush(self, total: SentenceCounts) -> None: ...

def tree_faults(heads: list[int]) -> int: ...
def head_summary(heads: list[int]) -> tuple[int, int, bool, bool] | None: ...
def deps_rows(gold: list[str], system: list[str], gold_words: int, system_words: int,
              edges: dict[str, int], skipped: dict[str, int], top: dict[str, int]
              ) -> tuple[int, int, int, int, int, int, list[int]] | bool | None: ...
