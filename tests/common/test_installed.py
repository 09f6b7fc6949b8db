"""What the installed distributions say is read from importlib.metadata once an
installation and kept: a later process does not import importlib.metadata at all (60-80
ms), gives the same answers, and reads the metadata again when the import path changes
or the kept file is damaged."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ASK = """
import json, sys
from parsebench.common.installed import entry_points, version
print(json.dumps({"numpy": version("numpy"),
                  "eps": [[e.name, e.value] for e in entry_points("parsebench.parsers")],
                  "metadata": "importlib.metadata" in sys.modules}))
"""


def _ask(cache: Path, extra: Path | None = None) -> dict[str, object]:
    env = dict(os.environ, PARSEBENCH_CACHE=str(cache))
    if extra is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(extra), env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, "-c", ASK], env=env, capture_output=True,
                         text=True, check=True)
    return dict(json.loads(out.stdout))


def test_kept_answers_are_the_metadata_and_a_changed_path_reads_it_again(
        tmp_path: Path) -> None:
    from importlib.metadata import version

    first = _ask(tmp_path)
    assert first["metadata"] is True and first["numpy"] == version("numpy")
    files = list((tmp_path / "installed").glob("*.json"))
    assert len(files) == 1
    again = _ask(tmp_path)
    assert again == {**first, "metadata": False}
    # a distribution on a new folder of the import path: another key, read again
    site = tmp_path / "site"
    info = site / "extra_parser-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: extra-parser\n"
                                   "Version: 0.1\n")
    (info / "entry_points.txt").write_text("[parsebench.parsers]\nextra = extra:Extra\n")
    added = _ask(tmp_path, site)
    assert added["metadata"] is True and ["extra", "extra:Extra"] in added["eps"]  # type: ignore[operator]
    assert len(list((tmp_path / "installed").glob("*.json"))) == 2


def test_a_damaged_kept_file_is_read_again(tmp_path: Path) -> None:
    first = _ask(tmp_path)
    (kept,) = (tmp_path / "installed").glob("*.json")
    for damage in ("{not json", '{"entry_points": [[1, 2]], "versions": {}}', "[]",
                   '{"entry_points": "x", "versions": {}}'):
        kept.write_text(damage)
        assert _ask(tmp_path) == first
