"""The ``parsebench`` command: a thin shell over the Python API, a module a family of
commands. Importing them registers their commands, in the order ``--help`` lists them."""

from parsebench.cli import evaluate, validate, noise, parse, train, attack  # noqa: F401, I001
from parsebench.cli import robustness, run, compare  # noqa: F401
from parsebench.cli._app import BY_FIELDS, PROJECTIONS, app, main

__all__ = ["BY_FIELDS", "PROJECTIONS", "app", "main"]
