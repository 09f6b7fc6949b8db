"""``validate``: parsebench's checks of CoNLL-U files, and udvalidate's where installed."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from parsebench.cli._app import JsonOpt, _show, app


@app.command("validate")
def validate_cmd(
    files: Annotated[list[Path], typer.Argument(help="CoNLL-U files.")],
    level: Annotated[int, typer.Option(
        "--level", help="udvalidate's levels. 1: the format (lines, columns, ids, "
        "multiword tokens, empty nodes; a HEAD the scorer cannot read); 2: also the "
        "heads, tree, tags, features, DEPS, MISC and metadata; each natively with "
        "udvalidate's test ids. 2-5: also udvalidate's own, where it is installed.")] = 1,
    lang: Annotated[str, typer.Option("--lang", help="Language for udvalidate (ISO 639; "
                                      "ud: the universal checks only).")] = "ud",
    as_json: JsonOpt = False,
) -> None:
    """Check CoNLL-U files before scoring: every finding as FILE:LINE, counts by kind.
    Exit 0 when valid, 1 when not, 2 on a usage error."""
    from parsebench.api.validation import validate

    r = validate(files, level=level, lang=lang)
    _show(r, as_json)
    if not r.valid:
        raise typer.Exit(1)
