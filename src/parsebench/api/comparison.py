"""``compare`` as a Python call: scores with intervals and paired significance tests."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import replace

from parsebench.common.progress import Progress
from parsebench.common.signature import signature
from parsebench.model import arguments as A
from parsebench.model.results import Result, result
from parsebench.model.treebank import Treebank, as_treebank

PathLike = str | os.PathLike[str]


@A.checked(gold=A.corpus, systems=A.corpora, metric=A.text, test=A.text, samples=A.limited,
           seed=A.limited, alpha=A.number, all_pairs=A.flag,
           progress=A.progress, align=A.optional(A.text), invalid=A.text,
           enhancements=A.optional(A.ENHANCEMENTS), no_empty_nodes=A.flag,
           multiple_roots_okay=A.flag)
def compare(gold: PathLike | Treebank,
            systems: PathLike | Treebank | Sequence[PathLike | Treebank],
            metric: str = "las", test: str = "bootstrap", samples: int = 10_000,
            seed: int = 1, alpha: float = 0.05, all_pairs: bool = False,
            progress: Progress | None = None, *, align: str | None = None,
            invalid: str = "warn", enhancements: str | int | None = None,
            no_empty_nodes: bool = False, multiple_roots_okay: bool = False) -> Result:
    """Each system's score with its bootstrap interval over sentences, and paired tests
    of each system against the first (or of every pair, Holm-corrected), as ``compare``
    gives them; fractions in [0, 1]. SYSTEMS: one path or Treebank, or a list of them.
    ``r.systems``, ``r.pairs``; ``str(r)`` the table.
    ALIGN, INVALID, ENHANCEMENTS, NO_EMPTY_NODES and MULTIPLE_ROOTS_OKAY score a
    dependency metric as :func:`evaluate_deps` does (a system whose words differ from
    the gold's gets aligned scores with ``align="words"``); refused in one line where
    they make no sense for METRIC."""
    from parsebench.metrics.compare import compare as score
    from parsebench.metrics.compare import compare_table
    from parsebench.metrics.dependency.settings import DepsScoring

    scoring = DepsScoring.of(align, invalid, enhancements, no_empty_nodes,
                             multiple_roots_okay)
    systems = A.corpora("systems", systems)  # a list (as checked), for the types
    gold, systems = as_treebank(gold), [as_treebank(x) for x in systems]
    with _files([gold, *systems]) as paths:
        r = score(paths[0], paths[1:], metric, test, samples, seed, alpha, all_pairs,
                  progress, scoring)
    # a Treebank's messages and rows name the Treebank, not its temporary file
    named = {p: x.name for p, x in zip(paths, [gold, *systems], strict=True)
             if isinstance(x, Treebank)}
    warnings = r.warnings
    for tmp, name in named.items():
        warnings = [w.replace(tmp, name) for w in warnings]
    r = replace(r, systems=[replace(s, file=named.get(s.file, s.file)) for s in r.systems],
                warnings=warnings,
                signature=signature(method="compare", metric=metric, test=test,
                                    samples=samples, seed=seed, alpha=alpha,
                                    correction=r.correction, **scoring.signature()))
    return result("compare", r.to_dict(),
                  lambda: compare_table(r) + f"\nsignature: {r.signature}\n", r.warnings)


@contextlib.contextmanager
def _files(corpora: Sequence[PathLike | Treebank]) -> Iterator[list[str]]:
    """Paths for CORPORA: a file as it is, a Treebank written to a temporary file
    (the statistics are read from files a sentence at a time)."""
    with tempfile.TemporaryDirectory(prefix="parsebench-") as tmp:
        out = []
        for k, c in enumerate(corpora):
            if isinstance(c, Treebank):
                path = os.path.join(tmp, f"{k}.conllu")
                c.write(path)
                out.append(path)
            else:
                out.append(str(c))
        yield out
