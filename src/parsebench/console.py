"""The ``parsebench`` console script's front door. ``parsebench --help`` is the first
thing a new user types; answering it through the command line imports typer (0.07 s)
and builds all eighteen commands (0.06 s). Its text at the usual width (click wraps
help at 80 columns, narrower only on a narrower terminal) is kept in
:mod:`parsebench._help_text`, which a test holds equal to what the command line
prints; everything else goes to :func:`parsebench.cli.main`."""

from __future__ import annotations

import sys


def main() -> None:
    if sys.argv[1:] == ["--help"]:
        import shutil

        if shutil.get_terminal_size().columns >= 80:  # as click measures the width
            from parsebench._help_text import TEXT

            sys.stdout.write(TEXT)
            sys.stdout.flush()
            return
    from parsebench.cli import main as command_line

    command_line(own_process=True)


def write_help_text() -> None:
    """Write parsebench/_help_text.py from the command line's own ``--help`` (after a
    command's help changes; the test says when)."""
    import contextlib
    import io
    import os
    from pathlib import Path

    from parsebench.cli import main as command_line

    os.environ["COLUMNS"] = "80"
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        command_line(["--help"])
    text = out.getvalue()
    assert '"""' not in text and "\\" not in text
    Path(__file__).with_name("_help_text.py").write_text(
        '"""``parsebench --help`` at 80 columns, written by\n'
        '``parsebench.console.write_help_text()``."""\n\nTEXT = """\\\n' + text + '"""\n',
        encoding="utf-8")


if __name__ == "__main__":
    main()
