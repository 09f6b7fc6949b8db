from collections.abc import Iterable

class Scorer:
    def __init__(self, delete: Iterable[str], delete_len: Iterable[str],
                 deleted_brackets: Iterable[str], eq_labels: Iterable[tuple[str, str]],
                 eq_words: Iterable[tuple[str, str]], labeled: bool) -> None: ...
    def score(self, gold_text: str, test_text: str) -> tuple[int, ...] | None: ...
