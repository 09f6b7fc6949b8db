"""parsebench: how accurate parsers are, and how well they hold up on noisy input.

The public API, every command's work as one call::

    import parsebench as pb

    r = pb.evaluate_deps("gold.conllu", "system.conllu")
    r.las.f1, r.las.ci, r.signature, r.to_dict()

Names are imported when first used, so ``import parsebench`` stays light. Several
functions share their name with the package that implements them (``noise``,
``compare``, ``run``, ``report``...): the name at this level is always the function
(see :class:`_Package`); code inside parsebench imports names from the submodules.
"""

from __future__ import annotations

import sys
import types
from importlib import import_module
from typing import TYPE_CHECKING, Any

from parsebench.version import __version__ as __version__

_WHERE = {
    "Treebank": "parsebench.model.treebank",
    "Result": "parsebench.model.results",
    "Figure": "parsebench.model.results",
    "Scored": "parsebench.model.scored",
    "InputError": "parsebench.common.errors",
    "evaluate_deps": "parsebench.api.evaluation",
    "evaluate_brackets": "parsebench.api.evaluation",
    "evaluate_flat": "parsebench.api.evaluation",
    "convert": "parsebench.api.evaluation",
    "flatten": "parsebench.api.evaluation",
    "compare": "parsebench.api.comparison",
    "noise": "parsebench.noise.make",
    "learn_profile": "parsebench.noise.make",
    "parse": "parsebench.api.parsing",
    "attack": "parsebench.api.parsing",
    "invariance": "parsebench.api.parsing",
    "robustness_rows": "parsebench.api.robustness",
    "robustness_sentences": "parsebench.api.robustness",
    "robustness_f1": "parsebench.api.robustness",
    "run": "parsebench.api.experiments",
    "run_all": "parsebench.api.experiments",
    "report": "parsebench.api.experiments",
    "export": "parsebench.api.experiments",
    "leaderboard": "parsebench.api.experiments",
    "validate": "parsebench.api.validation",
    "train": "parsebench.api.training",
    "ablation": "parsebench.api.ablation",
}
"""Each public name and the module that defines it."""

__all__ = [
    "Figure", "InputError", "Result", "Scored", "Treebank", "ablation", "attack", "compare",
    "convert",
    "evaluate_brackets", "evaluate_deps", "evaluate_flat", "export", "flatten",
    "invariance", "leaderboard", "learn_profile", "noise", "parse", "report", "robustness_f1",
    "robustness_rows", "robustness_sentences", "run", "run_all", "train", "validate",
]

if TYPE_CHECKING:  # what type checkers and editors see; nothing is imported at run time
    from parsebench.api.ablation import ablation
    from parsebench.api.comparison import compare
    from parsebench.api.evaluation import (
        convert,
        evaluate_brackets,
        evaluate_deps,
        evaluate_flat,
        flatten,
    )
    from parsebench.api.experiments import export, leaderboard, report, run, run_all
    from parsebench.api.parsing import attack, invariance, parse
    from parsebench.api.robustness import (
        robustness_f1,
        robustness_rows,
        robustness_sentences,
    )
    from parsebench.api.training import train
    from parsebench.api.validation import validate
    from parsebench.common.errors import InputError
    from parsebench.model.results import Figure, Result
    from parsebench.model.scored import Scored
    from parsebench.model.treebank import Treebank
    from parsebench.noise.make import learn_profile, noise


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'parsebench' has no attribute {name!r}")
    value = getattr(import_module(where), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


class _Package(types.ModuleType):
    """parsebench's own module type: when a submodule named like a public function is
    imported (``parsebench.noise``, ``parsebench.report``...), the import system binds
    it on the package; here it is left unbound, so that ``pb.noise`` stays the function.
    The submodule is still imported, and reached by ``from parsebench.noise.x import y``."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _WHERE and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
