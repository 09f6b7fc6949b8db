"""What this installation says: the entry points through which other packages add
methods, noise kinds and parsers, the versions of the libraries a parser's identity or
a drawing's digest names, and the folder parsebench keeps its caches in.

Why by hand, not ``importlib.metadata`` on every call: importing it takes 60-80 ms
(it pulls in the email package) and reading the entry points scans every installed
distribution, so a cached re-run, which is under a second, spent a tenth of it here.
What it said is kept in the cache folder, keyed by the interpreter and the
modification time of every folder on the import path but the working one: installing, upgrading or
removing a distribution adds or removes a folder there, which changes the key. A key
not seen yet, or an unreadable file, is read from ``importlib.metadata`` again.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

GROUPS = ("parsebench.methods", "parsebench.noise_kinds", "parsebench.parsers")
"""The entry point groups parsebench reads."""


@dataclass(frozen=True)
class EntryPoint:
    """One entry point: NAME = VALUE (``module:attribute``) in GROUP."""

    name: str
    value: str
    group: str

    def load(self) -> Any:
        module, _, attr = self.value.partition(":")
        obj: Any = import_module(module.strip())
        for part in attr.strip().split(".") if attr.strip() else ():
            obj = getattr(obj, part)
        return obj


class _Known:
    """The cache file of this installation, read on first use and written back when a
    version was looked up that it did not hold."""

    def __init__(self) -> None:
        self.path = _cache_file()
        self.data: dict[str, Any] = {}
        try:
            got = json.loads(self.path.read_text(encoding="utf-8"))
            if isinstance(got, dict) and isinstance(got.get("versions"), dict) and \
                    isinstance(got.get("entry_points"), list) and all(
                        isinstance(e, list) and len(e) == 3 and all(isinstance(x, str)
                                                                    for x in e)
                        for e in got["entry_points"]):
                self.data = got
        except (OSError, ValueError):
            pass
        if not self.data:
            from importlib.metadata import entry_points

            every = entry_points()
            self.data = {"entry_points": [[e.name, e.value, g] for g in GROUPS
                                          for e in every.select(group=g)],
                         "versions": {}}
            self.save()

    def save(self) -> None:
        tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(self.data), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError:  # a read-only home: every process reads the metadata itself
            tmp.unlink(missing_ok=True)


_known: _Known | None = None


def _get() -> _Known:
    global _known
    if _known is None:
        _known = _Known()
    return _known


def cache_folder(name: str) -> Path:
    """parsebench's cache folder NAME: under ``$PARSEBENCH_CACHE``, else
    ``$XDG_CACHE_HOME/parsebench``, else ``~/.cache/parsebench``."""
    own = os.environ.get("PARSEBENCH_CACHE")
    if own:
        return Path(own) / name
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "parsebench" / name


def _cache_file() -> Path:
    h = hashlib.sha256(sys.executable.encode())
    cwd = os.getcwd()
    for p in sys.path:
        if not p or os.path.abspath(p) == cwd:  # python -m's working folder, which a
            continue                           # run writes in: no distribution there
        try:
            h.update(f"\0{p}\0{os.stat(p or '.').st_mtime_ns}".encode())
        except OSError:
            h.update(f"\0{p}\0-".encode())
    return cache_folder("installed") / f"{h.hexdigest()[:24]}.json"


_code: list[str] = []


def code_digest() -> str:
    """A digest of parsebench's own code (every module of the package): what was
    computed by other code is computed again, never reused."""
    if not _code:
        h = hashlib.sha256()
        root = Path(__file__).resolve().parent
        for path in sorted(root.rglob("*.py")):
            h.update(str(path.relative_to(root)).encode())
            h.update(path.read_bytes())
        _code.append(h.hexdigest()[:16])
    return _code[0]


def entry_points(group: str) -> list[EntryPoint]:
    """The entry points of GROUP (one of :data:`GROUPS`)."""
    return [EntryPoint(str(n), str(v), str(g)) for n, v, g in _get().data["entry_points"]
            if g == group]


def version(distribution: str) -> str:
    """The installed version of DISTRIBUTION (``importlib.metadata.PackageNotFoundError``
    when it is not installed)."""
    known = _get()
    got = known.data["versions"].get(distribution)
    if isinstance(got, str):
        return got
    from importlib.metadata import version as read

    got = read(distribution)
    known.data["versions"][distribution] = got
    known.save()
    return got
