from array import array
from collections import Counter
from collections.abc import Callable, Sequence

from parsebench.formats.conllu import Sentence
from parsebench.metrics.dependency.lin_scorer import BucketCounts
from parsebench.metrics.dependency.stretch import SentenceCounts

BREAKDOWNS: dict[str, int]
ROW_AT: dict[str, int]

class RowCounter:
    pairs: Counter[tuple[str, str]] | None
    def __init__(self, punct: bool = True, labels: Callable[[str], str] | None = None,
                 confusion: str | None = None,
                 pairs: Counter[tuple[str, str]] | None = None,
                 fields: Sequence[str] = (), root_arcs: Sequence[bool] = (),
                 breakdowns_out: dict[str, dict[str, BucketCounts]] | None = None,
                 bucket: type[BucketCounts] | None = None) -> None: ...
    def count(self, gold: Sentence, system: Sentence, out: SentenceCounts | None = None,
              rows: array[float] | None = None, at: int = 0) -> bool: ...
    def flush(self, total: SentenceCounts) -> None: ...

def tree_faults(heads: list[int]) -> int: ...
def head_summary(heads: list[int]) -> tuple[int, int, bool, bool] | None: ...
def deps_rows(gold: list[str], system: list[str], gold_words: int, system_words: int,
              edges: dict[str, int], skipped: dict[str, int], top: dict[str, int]
              ) -> tuple[int, int, int, int, int, int, list[int]] | bool | None: ...
