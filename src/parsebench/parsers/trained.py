"""What a training run made (:class:`Trained`, written beside the model) and the check
every trainer makes of its treebank: apart from :mod:`parsebench.parsers.training`, so
that each parser's trainer (:mod:`parsebench.parsers.udpipe_training`) and the cache in
front of them import it without importing each other."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from parsebench.common.errors import InputError, iter_lines
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
    """Training needs gold trees: at least one sentence, every word with a HEAD and a
    DEPREL (the reader has refused a HEAD outside its sentence), a root, no cycle. A
    trainer given less would learn from nothing (an empty treebank gave a model that
    attaches every word to the root) or fail deep inside with its own message."""
    from parsebench.formats.conllu import NO_HEAD

    if not sentences:
        raise InputError("no sentences to train on (the treebank is empty)", path)
    for s in sentences:
        n = len(s.heads)
        for i, (head, rel) in enumerate(zip(s.heads, s.deprels, strict=True)):
            if head == NO_HEAD or rel in ("", "_"):
                raise InputError(f"word {i + 1} of the sentence here has no HEAD or "
                                 "DEPREL: training needs gold trees", path, s.line)
        if 0 not in s.heads:
            raise InputError("the sentence here has no root (no word with HEAD 0): "
                             "training needs gold trees", path, s.line)
        for i in range(1, n + 1):
            seen, h = set(), i
            while h and h not in seen:
                seen.add(h)
                h = s.heads[h - 1]
            if h:
                raise InputError(f"the heads of the sentence here make a cycle (through "
                                 f"word {h}): training needs gold trees", path, s.line)


SCRATCH = ".training-"
"""The prefix of a training's scratch folder: ``.training-PID-XXXX`` beside the model."""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # (someone else's process: alive)
        return True
    return True


@contextlib.contextmanager
def scratch_folder(parent: Path) -> Iterator[Path]:
    """A scratch folder in PARENT for one training, removed when the training ends, even
    by an exception or Ctrl-C. A process killed outright (SIGKILL) cannot clean up, so the
    folders left in PARENT by processes no longer alive are removed here first."""
    parent.mkdir(parents=True, exist_ok=True)
    for old in parent.glob(SCRATCH + "*"):
        pid = old.name[len(SCRATCH):].partition("-")[0]
        if old.is_dir() and pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(old, ignore_errors=True)
    tmp = Path(tempfile.mkdtemp(prefix=f"{SCRATCH}{os.getpid()}-", dir=parent))
    try:
        yield tmp
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


Row = Callable[[list[str]], str]
"""A CoNLL-U word line's ten columns -> the line a parser's reader takes."""


def write_rows(src: str | os.PathLike[str], dst: str | os.PathLike[str], row: Row,
               limit: int | None = None) -> int:
    """SRC's word lines (first column an integer) through ROW, sentences apart, at most
    LIMIT sentences; the count written."""
    n, in_sentence = 0, False
    with open(dst, "w", encoding="utf-8") as out:
        for line in iter_lines(src):
            if not line.strip():
                if in_sentence:
                    out.write("\n")
                    n += 1
                    in_sentence = False
                    if limit is not None and n >= limit:
                        break
                continue
            cols = line.split("\t")
            if len(cols) == 10 and cols[0].isdigit():
                out.write(row(cols) + "\n")
                in_sentence = True
        if in_sentence:
            out.write("\n")
            n += 1
    return n


def trained_settings(model: str | os.PathLike[str]) -> dict[str, Any]:
    """The settings written beside MODEL by ``train`` (MODEL.json), or none: an adapter
    parses with the settings its model was trained with unless its spec says otherwise."""
    try:
        got = json.loads(Path(f"{model}.json").read_text(encoding="utf-8"))
        settings = got.get("settings") if isinstance(got, dict) else None
    except (OSError, ValueError):
        return {}
    return settings if isinstance(settings, dict) else {}


def run_trainer(argv: list[str], cwd: str | os.PathLike[str], what: str) -> str:
    """A parser's own training (or parsing) command; its output, or an InputError with
    the last line it wrote when it fails."""
    p = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, errors="replace")
    if p.returncode != 0:
        last = (p.stderr.strip().splitlines() or p.stdout.strip().splitlines() or [""])[-1]
        raise InputError(f"{what} failed (exit code {p.returncode}): {last[:300]}")
    return p.stdout + p.stderr
