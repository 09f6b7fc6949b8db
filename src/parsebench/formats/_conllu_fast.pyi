from collections.abc import Callable, Iterable, Iterator
from typing import Any

def read_sentences(lines: Iterable[str], path: str, sentence: type[Any],
                   reference: Callable[..., Iterator[Any]],
                   category_of: Callable[[str | None], str | None]) -> Iterator[Any]: ...
def sound_sentences(sentences: list[Any], sentence: type[Any]) -> bool: ...
