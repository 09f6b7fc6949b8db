"""The report's summary is computed from the results: change one parser's output and the
ranking sentence changes; the tiers follow the Holm-corrected pairwise tests."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from test_experiment import write_exp

from parsebench.report.summary import tiers

WORDS = ["the", "cat", "saw", "a", "small", "dog"]
HEADS = [2, 3, 0, 6, 6, 3]
RELS = ["det", "nsubj", "root", "det", "amod", "obj"]


def _conllu(path: Path, n: int, wrong: int) -> None:
    """N sentences of one shape (each its own words: the cache parses a sentence once);
    the first WRONG of them with two heads wrong."""
    lines = []
    for k in range(n):
        heads = list(HEADS)
        if k < wrong:
            heads[0], heads[4] = 3, 3
        lines.append(f"# sent_id = s{k + 1}")
        lines += [f"{i}\t{w}\t_\tX\t_\t_\t{h}\t{r}\t_\t_"
                  for i, (w, h, r) in enumerate(zip(WORDS, heads, RELS, strict=True), 1)
                  for w in [f"{w}{k}" if i == 2 else w]]
        lines.append("")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _report(tmp: Path, wrong_a: int, wrong_b: int) -> dict:  # type: ignore[type-arg]
    tmp.mkdir()
    gold, a, b = tmp / "gold.conllu", tmp / "a.conllu", tmp / "b.conllu"
    _conllu(gold, 40, 0)
    _conllu(a, 40, wrong_a)
    _conllu(b, 40, wrong_b)
    exp = write_exp(tmp, f'''
[corpus]
path = "{gold}"
[noise]
rates = []
[[parsers]]
name = "alpha"
spec = "precomputed:{a}"
[[parsers]]
name = "beta"
spec = "precomputed:{b}"
[metrics]
deps = true
''')
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "run", str(exp), "--store",
                        str(tmp / "s.sqlite"), "--report", str(tmp / "rep")],
                       capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr
    data = json.loads((tmp / "rep" / "results.json").read_text(encoding="utf-8"))
    md = (tmp / "rep" / "index.md").read_text(encoding="utf-8")
    html = (tmp / "rep" / "index.html").read_text(encoding="utf-8")
    return {"summary": data[0]["summary"], "md": md, "html": html}


def test_the_ranking_sentence_follows_the_parsers_output(tmp_path: Path) -> None:
    # alpha: 4 of 40 sentences with 2 of 6 heads wrong (LAS 1 - 8/240); beta: 30 of 40
    first = _report(tmp_path / "1", 4, 30)
    acc = first["summary"]["accuracy"]
    assert [(e["parser"], round(e["value"], 6)) for e in acc["ranking"]] == \
        [("alpha", round(1 - 8 / 240, 6)), ("beta", round(1 - 60 / 240, 6))]
    assert acc["sentence"].startswith(
        "Accuracy on clean text (LAS against the gold key): alpha has the highest LAS, "
        "alpha 96.7%")
    assert acc["tiers"] == [["alpha"], ["beta"]]  # 26 sentences apart: the test separates
    assert acc["sentence"] in first["md"].replace("&gt;", ">")
    assert "class='summary'" in first["html"] and "#exp--deps-accuracy" in first["html"]
    # beta's output changed: now beta is the better one, and the sentence says so
    second = _report(tmp_path / "2", 4, 0)
    acc = second["summary"]["accuracy"]
    assert [e["parser"] for e in acc["ranking"]] == ["beta", "alpha"]
    assert acc["sentence"].startswith(
        "Accuracy on clean text (LAS against the gold key): beta has the highest LAS, "
        "beta 100.0%")
    # the same output for both: one tier, and no test can separate them
    third = _report(tmp_path / "3", 4, 4)
    acc = third["summary"]["accuracy"]
    assert acc["tiers"] == [["alpha", "beta"]]
    assert "cannot separate the parsers within a tier: {alpha, beta}" in acc["sentence"]
    tests = third["summary"]["tests"]
    assert len(tests) == 1 and tests[0]["difference"] == 0 and not tests[0]["significant"]


def test_tiers_split_where_a_test_separates() -> None:
    t = [{"a": "x", "b": "y", "significant": False}, {"a": "y", "b": "z", "significant": True},
         {"a": "x", "b": "z", "significant": True}]
    assert tiers(["x", "y", "z"], t) == [["x", "y"], ["z"]]
    assert tiers(["x", "z", "y"], t) == [["x"], ["z"], ["y"]]
    assert tiers(["x", "y"], []) == [["x", "y"]]
