"""Honest times: a run says how long it took from its start to its report written, and
where the time went, a stage a line (noise, each parser's parse, scoring and attack,
the report), the lines adding up to the whole."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from conftest import FIXTURES

import parsebench as pb


def test_a_run_times_its_stages_and_they_add_up(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(FIXTURES))  # the parser's workers find the toys
    exp = tmp_path / "exp.toml"
    exp.write_text(f'''name = "times"
[corpus]
path = "{FIXTURES / 'typos.conllu'}"
[noise]
rates = [0.2]
lexicon = "{FIXTURES / 'lexicon.txt'}"
[attack]
budget = [1]
queries = 10
[[parsers]]
name = "weak"
spec = "python:toy_parsers:WeakWord"
[[parsers]]
name = "casey"
spec = "python:toy_parsers:Casey"
''')
    t0 = time.perf_counter()
    r = pb.run(exp, store=tmp_path / "s.sqlite", report=tmp_path / "r")
    outer = time.perf_counter() - t0
    d = r.to_dict()
    stages = [t["stage"] for t in d["times"]]
    # the noise made beside the first parser's clean text (a core is free), or before
    first = ["load weak", "parse weak (clean text)", "noise", "parse weak (noisy text)"] \
        if stages[1] == "load weak" else ["noise", "load weak", "parse weak"]
    assert stages == ["load the corpus", *first, "score weak", "attack weak", "load casey",
                      "parse casey", "score casey", "attack casey", "store the results",
                      "write the report", "other"]
    seconds = [t["seconds"] for t in d["times"]]
    assert all(s >= 0 for s in seconds)
    assert sum(seconds) == pytest.approx(d["wall_seconds"], abs=1e-6)
    # the whole call, the report's writing included: nothing left out but the return
    assert d["wall_seconds"] <= outer and outer - d["wall_seconds"] < 0.5
    parsed = [t["remark"] for t in d["times"] if t["stage"].startswith("parse weak")]
    assert parsed in (["7 sentences"], ["4 sentences", "3 sentences"])
    text = str(r)
    assert re.search(r"^time: .* from the start to the report written$", text, re.M)
    for name in stages:
        assert re.search(rf"^  {re.escape(name)} +[\d.]+ (s|min)", text, re.M), name
