"""``validate``: the checks parsebench makes of CoNLL-U files before scoring them, with
the official validator's (udtools' ``udvalidate``, run as a program where installed)
at higher levels, as a Python call."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from parsebench.common.signature import signature
from parsebench.model import arguments as A
from parsebench.model.results import Result

PathLike = str | os.PathLike[str]


@dataclass(frozen=True)
class ValidationResult(Result):
    """``validate``'s result: ``.valid``, ``.findings`` (FILE:LINE, kind, message,
    severity and source of each); ``to_dict()`` is the command's ``--json``."""

    validation: Any = field(default=None, repr=False)

    @property
    def valid(self) -> bool:
        return bool(self.validation.valid)

    @property
    def findings(self) -> list[Any]:
        return list(self.validation.findings)


@A.checked(files=A.paths, level=A.integer(), lang=A.text)
def validate(files: PathLike | Iterable[PathLike], *, level: int = 1,
             lang: str = "ud") -> ValidationResult:
    """Check CoNLL-U FILES with udvalidate's language-independent checks up to LEVEL
    (1: the format and ids; 2: also the heads, tree, columns and metadata), natively
    and with its test ids, every finding with its line; from LEVEL 2 up,
    also udtools' ``udvalidate`` at that level for language LANG where it is installed
    (PARSEBENCH_UDVALIDATE or PATH), its findings in the same form,
    each saying where it came from. Valid: no finding of severity error."""
    from parsebench.validation.validator import validate_files

    paths = [files] if isinstance(files, str | os.PathLike) else list(files)
    v = validate_files(paths, level, lang)
    notes = []
    if level >= 2 and v.udvalidate is None:
        # parsebench's own checks cover levels 1 and 2; beyond, only udvalidate's
        beyond = "" if level == 2 else f"; level {level}'s checks are only the official's"
        notes.append("udvalidate is not installed: parsebench's own checks of levels 1 "
                     f"and 2 ran, not the official validator's{beyond} (pip install "
                     "udtools, in its own virtualenv)")
    data: dict[str, Any] = {
        "valid": v.valid, "files": v.files, "level": level, "lang": lang,
        "udvalidate": v.udvalidate,
        "severity": {"error": sum(f.severity == "error" for f in v.findings),
                     "warning": sum(f.severity == "warning" for f in v.findings)},
        "counts": v.counts(), "findings": [f.as_dict() for f in v.findings],
        "signature": signature(method="validate", level=level, lang=lang,
                               udvalidate="yes" if v.udvalidate else "no")}

    def text() -> str:
        lines = [str(f) for f in v.findings]
        lines.append("")
        lines += [f"{n:6d}  {kind}" for kind, n in v.counts().items()]
        errors, warnings = data["severity"]["error"], data["severity"]["warning"]
        lines.append(("valid" if v.valid else "INVALID") + f": {len(v.files)} file(s), "
                     f"{errors} error(s), {warnings} warning(s); checks by parsebench"
                     + (f" and {v.udvalidate} (level {level})" if v.udvalidate else ""))
        return "\n".join(lines) + "\n"

    return ValidationResult("validate", data, text, tuple(notes), v)
