"""Real parses the tests share: UDPipe on EWT (gold words and raw text), and a tree check."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

from conftest import needs, shared_path

from parsebench.formats.conllu import read_conllu, write_conllu


def is_projective(heads: list[int]) -> bool:
    """No two arcs cross, the root's arc from position 0 included."""
    arcs = [(min(h, d), max(h, d)) for d, h in enumerate(heads, 1)]
    return not any(a < c < b < e for (a, b), (c, e) in itertools.permutations(arcs, 2))


def udpipe_raw(model: Path, gold: Path, out: Path) -> None:
    """UDPipe tokenizing, splitting and parsing the raw text itself, as in the shared task.
    Three test files score this same parse of EWT test: the suite's processes make it
    once and share it (a file named by what it is made from, written whole, under a
    lock), not once a test."""
    import fcntl
    import hashlib
    import tempfile
    from importlib.metadata import version

    from ufal.udpipe import Model, Pipeline, ProcessingError  # type: ignore[import-untyped]

    texts = [line[9:].rstrip("\n") for line in gold.open(encoding="utf-8")
             if line.startswith("# text = ")]
    raw = "\n\n".join(" ".join(texts[i:i + 5]) for i in range(0, len(texts), 5))
    key = hashlib.sha256(model.read_bytes() + b"\0" + raw.encode() + b"\0"
                         + version("ufal.udpipe").encode()).hexdigest()[:24]
    shared = Path(tempfile.gettempdir()) / f"parsebench-tests-{os.getuid()}"
    shared.mkdir(exist_ok=True)
    made = shared / f"udpipe-raw-{key}.conllu"
    with (shared / "udpipe-raw.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not made.exists():
            m = Model.load(str(model))
            err = ProcessingError()
            got = Pipeline(m, "tokenize", Pipeline.DEFAULT, Pipeline.DEFAULT,
                           "conllu").process(raw, err)
            assert not err.occurred(), err.message
            part = made.with_suffix(".part")
            part.write_text(got, encoding="utf-8")
            part.replace(made)
    out.write_bytes(made.read_bytes())


def udpipe_on_ewt(tmp: Path, n: int) -> tuple[Path, Path]:
    """The first N sentences of EWT test as a corpus file, and UDPipe's English model."""
    needs("ufal.udpipe")
    corpus = tmp / "corpus.conllu"
    with corpus.open("w", encoding="utf-8") as fh:
        write_conllu(read_conllu(shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu"))[:n],
                     fh)
    return corpus, shared_path("models/en_ewt.udpipe")
