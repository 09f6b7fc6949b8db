"""User-facing errors: one line, naming the file and line, exit status 2."""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, TextIO, cast


class InputError(Exception):
    """Bad input from the user: printed as ``FILE:LINE: message`` with exit status 2."""

    def __init__(self, message: str, path: str | os.PathLike[str] | None = None,
                 line: int | None = None) -> None:
        # checked here, not by parsebench.model.arguments, which is built on this class
        for name, v, ok, expected in (
                ("message", message, isinstance(message, str), "a string"),
                ("path", path, path is None or (isinstance(path, str | os.PathLike)
                 and not isinstance(path, bytes)), "a path"),
                ("line", line, line is None or (type(line) is int and line >= 0),
                 "a line number")):
            if not ok:
                shown = f"{v!r} ({type(v).__name__})" if len(repr(v)) <= 40 \
                    else type(v).__name__
                raise TypeError(f"{name}: expected {expected}, not {shown}")
        self.message = message
        self.path = None if path is None or not os.fspath(path) else str(path)  # "": none
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = self.path + (f":{self.line}" if self.line is not None else "") + ": "
        return where + self.message


def open_text(path: str | os.PathLike[str]) -> TextIO:
    """Open a UTF-8 text file, turning the usual failures into an InputError."""
    return cast(TextIO, _open(path, binary=False))


def _open(path: str | os.PathLike[str], binary: bool) -> IO[Any]:
    try:
        if binary:
            return open(path, "rb")
        return open(path, encoding="utf-8", newline="")
    except FileNotFoundError:
        raise InputError("no such file", path) from None
    except IsADirectoryError:
        raise InputError("is a directory, expected a file", path) from None
    except PermissionError:
        raise InputError("permission denied", path) from None


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """A file's bytes, with open_text's errors."""
    with _open(path, binary=True) as fh:
        return cast(bytes, fh.read())


LONE_CR = "a carriage return inside a line (the official UD scorer reads it as a line end)"


def lone_cr(lines: list[str], path: str | os.PathLike[str], first: int = 1) -> None:
    """Raise at the first of LINES (line FIRST onwards) that still holds a carriage
    return once its line end is gone: a CoNLL-U file whose lines would be cut
    otherwise by a reader that takes CR for a line end, as the official scorer does."""
    for k, ln in enumerate(lines):
        if "\r" in ln:
            raise InputError(LONE_CR, path, first + k)


def read_lines(path: str | os.PathLike[str], lone_cr_ok: bool = True) -> list[str]:
    """All lines of a UTF-8 file without their line ends; LONE_CR_OK False: a carriage
    return elsewhere than before a line feed is an error (:func:`lone_cr`)."""
    with open_text(path) as fh:
        try:
            text = fh.read()
        except UnicodeDecodeError as exc:
            line = text_line_of_offset(Path(path).read_bytes(), exc.start)
            raise InputError("not valid UTF-8", path, line) from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if "\r" not in text:  # the common case, spared a pass over every line
        return lines
    lines = [ln[:-1] if ln.endswith("\r") else ln for ln in lines]
    if not lone_cr_ok and text.count("\r") != text.count("\r\n"):
        lone_cr(lines, path)
    return lines


def iter_lines(path: str | os.PathLike[str], lone_cr_ok: bool = True) -> Iterator[str]:
    """The lines of a UTF-8 file one at a time, without their line ends.

    Lines are split on ``\\n`` only and a trailing ``\\r`` is dropped, as
    :func:`read_lines` does, so streaming and whole-file readers see the same lines;
    memory stays flat in the file's size. LONE_CR_OK False: as :func:`read_lines`.
    """
    with _open(path, binary=True) as fh:
        # whole lines a block at a time, decoded and split at once: a line at a time
        # this took a fifth of reading a CoNLL-U file
        n = 0  # lines given so far
        rest = b""
        eof = False
        while not eof:
            block = fh.read(1 << 15)
            if block:
                block = rest + block
                cut = block.rfind(b"\n") + 1
                if not cut:
                    rest = block
                    continue
                block, rest = block[:cut], block[cut:]
            elif rest:  # the last line, without its line end
                block, rest, eof = rest + b"\n", b"", True
            else:
                return
            try:
                text = block.decode("utf-8")
            except UnicodeDecodeError as exc:  # the lines before the bad one, then say so
                good = block.rfind(b"\n", 0, exc.start) + 1
                yield from _block_lines(block[:good].decode("utf-8"))
                raise InputError("not valid UTF-8", path,
                                 n + block.count(b"\n", 0, good) + 1) from None
            lines = _block_lines(text)
            if not lone_cr_ok and "\r" in text and text.count("\r") != text.count("\r\n"):
                try:
                    lone_cr(lines, path, n + 1)
                except InputError as exc:  # the lines before the bad one, then say so
                    assert exc.line is not None
                    yield from lines[:exc.line - n - 1]
                    raise
            n += len(lines)
            yield from lines


def _block_lines(text: str) -> list[str]:
    """The lines of TEXT, which ends with a line end, without their line ends."""
    lines = text.split("\n")
    lines.pop()
    if "\r" in text:
        return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]
    return lines


def text_line_of_offset(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


_UMASK = os.umask(0)
os.umask(_UMASK)


_WRITE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS}


def check_output(path: str | os.PathLike[str]) -> tuple[Path, Path]:
    """PATH as an output file and its folder, or an InputError saying why it cannot be
    one; commands call it before long work, so a typo in -o does not cost the work."""
    if not str(path):
        raise InputError("the output file name is empty")
    target = Path(path)
    if target.is_dir():
        raise InputError("is a directory; give a file name for the output", target)
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise InputError("output directory does not exist", directory)
    if not os.access(directory, os.W_OK | os.X_OK):
        raise InputError("cannot write the output here (permission denied)", target)
    if target.exists() and not target.is_file():
        raise InputError("is not a regular file (a device or a pipe?); give a file name for "
                         "the output", target)
    _try_writing(directory, target)
    return target, directory


def _try_writing(directory: Path, target: Path) -> None:
    """Make and remove an empty file in DIRECTORY: the permission bits say yes to root
    everywhere, even in /proc, where only writing tells (a run wrote its report there
    after hours of work, and failed)."""
    try:
        fd, probe = tempfile.mkstemp(prefix=".parsebench-", suffix=".probe", dir=directory)
    except OSError as exc:
        raise InputError(f"cannot write the output here ({exc.strerror or exc})",
                         target) from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)


def check_folder(path: str | os.PathLike[str]) -> Path:
    """PATH as an output folder that exists or can be made (as ``mkdir -p`` would), or an
    InputError naming what stands in the way."""
    folder = Path(path)
    if not str(path):
        raise InputError("the output folder name is empty")
    probe = folder
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir():
        raise InputError("is a file; give a folder for the output", probe)
    if not os.access(probe, os.W_OK | os.X_OK):
        raise InputError("cannot write the output here (permission denied)", probe)
    try:  # as check_output does: only making something there tells
        os.rmdir(tempfile.mkdtemp(prefix=".parsebench-", suffix=".probe", dir=probe))
    except OSError as exc:
        raise InputError(f"cannot make the output folder here ({exc.strerror or exc})",
                         folder) from None
    return folder


@contextmanager
def atomic_output(path: str | os.PathLike[str]) -> Iterator[TextIO]:
    """Write to a temporary file beside PATH and rename it only on success.

    A failed or interrupted run therefore never leaves a half-written output, and a
    path that cannot be written (a directory, a read-only folder, a full disk) is an
    InputError naming it, not a traceback.
    """
    target, directory = check_output(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix="." + target.name + ".", dir=directory)
    except OSError as exc:
        raise InputError(f"cannot write the output here ({exc.strerror})", target) from None
    try:
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
                yield fh
            os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp makes 0600; give what open() would
            os.replace(tmp, target)
        except OSError as exc:
            if exc.errno in _WRITE_ERRORS or exc.filename in (tmp, str(target)):
                raise InputError(f"cannot write the output ({exc.strerror})", target) from None
            raise
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
