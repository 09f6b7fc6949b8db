"""What a training run made (:class:`Trained`, written beside the model) and the check
every trainer makes of its treebank: apart from :mod:`parsebench.parsers.training`, so
that each parser's trainer (:mod:`parsebench.parsers.udpipe_training`) and the cache in
front of them import it without importing each other."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from parsebench.errors import InputError
from parsebench.formats.conllu import Sentence


@dataclass
class Trained:
    """What a training run made and how: written beside the model as NAME.json."""

    parser: str
    model: str
    train: str
    sentences: int
    settings: dict[str, Any]
    seconds: float
    dev: dict[str, Any] = field(default_factory=dict)
    key: str = ""
    """The cache key (treebank checksums and settings) the model was trained under."""

    def write(self) -> Path:
        out = Path(self.model).with_name(Path(self.model).name + ".json")
        out.write_text(json.dumps(asdict(self), indent=1) + "\n")
        return out


def check_trees(sentences: Sequence[Sentence], path: str | os.PathLike[str]) -> None:
    """Training needs a gold tree: every word with a HEAD and a DEPREL."""
    from parsebench.formats.conllu import NO_HEAD

    for s in sentences:
        for i, (head, rel) in enumerate(zip(s.heads, s.deprels, strict=True)):
            if head == NO_HEAD or rel in ("", "_"):
                raise InputError(f"word {i + 1} of the sentence here has no HEAD or "
                                 "DEPREL: training needs gold trees", path, s.line)
