"""Build docs/study.md: the write-up (docs/study.in.md) with every
``<!-- study: NAME -->`` line replaced by that experiment's section of the
report that ``parsebench report`` wrote (docs/study/index.md), so that no table
of the write-up is typed by hand.

    python scripts/study_doc.py [REPORT_DIR] [TEMPLATE] [OUTPUT]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path


def sections(report_md: str) -> dict[str, str]:
    """The report's ``## NAME`` sections, their headings demoted by one level."""
    out: dict[str, str] = {}
    for part in re.split(r"^## ", report_md, flags=re.M)[1:]:
        name, _, body = part.partition("\n")
        out[name.strip()] = re.sub(r"^(#{3,}) ", lambda m: m.group(1) + "# ", body,
                                   flags=re.M).strip()
    return out


def build(report_dir: Path, template: Path, output: Path) -> list[str]:
    """Write OUTPUT; return the study names the template asked for but the report lacks."""
    found = sections((report_dir / "index.md").read_text(encoding="utf-8"))
    rel = report_dir.relative_to(output.parent).as_posix()
    missing: list[str] = []

    def fill(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in found:
            missing.append(name)
            return f"*(study {name} has not been run: `make studies`)*"
        return found[name].replace("](plots/", f"]({rel}/plots/")

    text = re.sub(r"^<!-- study: (\S+) -->$", fill, template.read_text(encoding="utf-8"),
                  flags=re.M)
    tmp = output.with_name("." + output.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(output)
    return missing


if __name__ == "__main__":
    args = [Path(a) for a in sys.argv[1:]]
    report_dir, template, output = (args + [Path("docs/study"), Path("docs/study.in.md"),
                                            Path("docs/study.md")][len(args):])[:3]
    gone = build(report_dir, template, output)
    if gone:
        sys.exit(f"study_doc: no results for {', '.join(gone)} in {report_dir}/index.md")
    print(f"wrote {output}")
