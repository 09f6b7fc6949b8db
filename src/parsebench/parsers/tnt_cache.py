"""A trained TnT tagger kept on disk, keyed by the hash of its training file.

Training TnT on EWT train takes seconds (and took 15 s with older NLTK releases) at
every worker start; a partly cached run would pay it again for a few sentences.
The trained tagger is written as JSON (never a pickle: loading one runs code), its
objects rebuilt from a short list of NLTK classes, so a cache file can only ever
give back a tagger's numbers. The file's name holds the SHA-256 of the training
file, NLTK's version and the options; a file that cannot be read back is ignored
and the tagger trained again.

The folder: ``$PARSEBENCH_CACHE/tnt``, else ``$XDG_CACHE_HOME/parsebench/tnt``,
else ``~/.cache/parsebench/tnt``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from parsebench.common.installed import cache_folder, version

FORMAT = 2


def cache_dir() -> Path:
    return cache_folder("tnt")


def cache_path(train: str, options: str) -> Path:
    h = hashlib.sha256()
    with open(train, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return cache_dir() / f"{h.hexdigest()}-nltk{version('nltk')}-{options}-v{FORMAT}.json"


def _classes() -> dict[str, type]:
    from nltk.probability import ConditionalFreqDist, FreqDist
    from nltk.tag import AffixTagger, DefaultTagger, tnt

    return {c.__name__: c for c in (tnt.TnT, AffixTagger, DefaultTagger, FreqDist,
                                    ConditionalFreqDist)}


def encode(root: Any) -> dict[str, Any]:
    """ROOT (a TnT tagger) as plain JSON data: the objects it holds in a table (the
    unknown-word tagger lists itself among its taggers)."""
    classes = _classes()
    ids: dict[int, int] = {}
    table: list[Any] = []

    def enc(x: Any) -> Any:
        if x is None or isinstance(x, (bool, int, float, str)):
            return x
        if isinstance(x, tuple):
            return {"t": [enc(v) for v in x]}
        if isinstance(x, list):
            return {"l": [enc(v) for v in x]}
        name = type(x).__name__
        if isinstance(x, dict) and type(x) in (dict, classes["FreqDist"],
                                               classes["ConditionalFreqDist"]):
            out: dict[str, Any] = {"d": name if type(x) is not dict else ""}
            if all(type(k) is str for k in x):  # a JSON object: read back fastest
                out["m"] = {k: enc(v) for k, v in x.items()}
            else:
                out["items"] = [[enc(k), enc(v)] for k, v in x.items()]
            if getattr(x, "__dict__", None):
                out["a"] = {k: enc(v) for k, v in vars(x).items()}
            return out
        if classes.get(name) is type(x):
            if id(x) not in ids:
                ids[id(x)] = len(table)
                table.append(None)
                table[ids[id(x)]] = {"class": name,
                                     "state": {k: enc(v) for k, v in vars(x).items()}}
            return {"o": ids[id(x)]}
        raise TypeError(f"cannot keep a {name} in the TnT cache")

    top = enc(root)
    return {"format": FORMAT, "root": top, "objects": table}


def decode(data: dict[str, Any]) -> Any:
    """The tagger ENCODE wrote; ValueError on anything else."""
    classes = _classes()
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError("not a TnT cache file of this format")
    entries = data["objects"]
    objects = []
    for e in entries:
        cls = classes.get(e["class"])
        if cls is None or issubclass(cls, dict):
            raise ValueError(f"unexpected class {e['class']!r}")
        objects.append(cls.__new__(cls))

    def dec(x: Any) -> Any:
        if x is None or isinstance(x, (bool, int, float, str)):
            return x
        if not isinstance(x, dict):
            raise ValueError("unexpected value")
        if "t" in x:
            return tuple(dec(v) for v in x["t"])
        if "l" in x:
            return [dec(v) for v in x["l"]]
        if "o" in x:
            return objects[x["o"]]
        if "d" in x:
            cls = classes[x["d"]] if x["d"] else dict
            if not issubclass(cls, dict):
                raise ValueError(f"unexpected class {x['d']!r}")
            # a FreqDist is filled as it was kept (its constructor would count again)
            out = cls.__new__(cls) if cls is classes["FreqDist"] else cls()
            if "m" in x:
                dict.update(out, {k: dec(v) for k, v in x["m"].items()})
            else:
                dict.update(out, ((dec(k), dec(v)) for k, v in x["items"]))
            if "a" in x:
                out.__dict__.update({k: dec(v) for k, v in x["a"].items()})
            return out
        raise ValueError("unexpected value")

    for obj, e in zip(objects, entries, strict=True):
        obj.__dict__.update({k: dec(v) for k, v in e["state"].items()})
    return dec(data["root"])


def load(path: Path) -> Any:
    """The tagger kept at PATH, or None (no file, or one that does not read back)."""
    try:
        with open(path, encoding="utf-8") as fh:
            return decode(json.load(fh))
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
        return None


def save(tagger: Any, path: Path) -> None:
    """Keep TAGGER at PATH, written whole or not at all; a folder that cannot be
    written only costs the next start its training."""
    with contextlib.suppress(OSError, TypeError):
        data = json.dumps(encode(tagger), ensure_ascii=False, separators=(",", ":"))
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tnt-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(data)
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
