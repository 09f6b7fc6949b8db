"""Fill a study page's template: every ``<!-- table: NAME -->`` line and every
``{{NAME}}`` by the figures a study script measured, so that no number of the page is
typed by hand; and the date and machine the figures were measured on."""

from __future__ import annotations

import datetime
import os
import platform
import re
from pathlib import Path

from parsebench.common.errors import atomic_output


def pct(x: float | None, sign: bool = False) -> str:
    """A share as a percentage with two decimals; n/a when it cannot be computed."""
    if x is None or x != x:
        return "n/a"
    return f"{100 * x:+.2f}" if sign else f"{100 * x:.2f}"


def machine() -> str:
    """The processor and how many cores, as the pages state it."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()}"


def today() -> str:
    d = datetime.date.today()
    return f"{d.day} {d:%B %Y}"


def fill(template: str, parts: dict[str, str]) -> str:
    """TEMPLATE with its placeholders replaced; a placeholder without a value is an
    error, never left in the page."""
    def get(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in parts:
            raise SystemExit(f"no value for placeholder {name!r}")
        return parts[name]

    text = re.sub(r"^<!-- table: (\S+) -->$", get, template, flags=re.M)
    return re.sub(r"\{\{(\S+?)\}\}", get, text)


def write(path: Path, text: str) -> None:
    """Write PATH whole or not at all."""
    with atomic_output(path) as fh:
        fh.write(text)
