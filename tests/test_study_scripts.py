"""The study scripts' own arithmetic on tiny inputs: the template filler, the breakdown of
the gold's enhanced edges (docs/udeval.md) and the section it writes between its markers,
so that a page regenerated from real runs can only differ by the runs' numbers."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from conftest import ROOT


@pytest.fixture()
def scripts(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, ModuleType]]:
    monkeypatch.syspath_prepend(str(ROOT / "scripts"))
    import doc_template
    import udeval_study

    yield {"doc_template": doc_template, "udeval_study": udeval_study}
    for name in ("doc_template", "udeval_study"):
        sys.modules.pop(name, None)


# Words: 1 man (nsubj of 4 "left", basic as is), 2 who (ref of 1, basic nsubj of 3), 3 came
# (acl:relcl of 1; 1 gets nsubj from 3: an external argument), 4 left (root), 5 in (case),
# 6 town (obl of 4 with the case-marked obl:in), 7 and (cc), 8 stayed (conj of 4; shares 1
# as its subject: a propagated edge), 9 to (mark), 10 rest (xcomp of 8; 1 its controlled
# subject nsubj:xsubj), and an empty node 10.1 whose edge ELAS leaves out.
GOLD = """\
# text = tiny
1\tman\t_\tNOUN\t_\t_\t4\tnsubj\t3:nsubj|4:nsubj|8:nsubj|10:nsubj:xsubj\t_
2\twho\t_\tPRON\t_\t_\t3\tnsubj\t1:ref\t_
3\tcame\t_\tVERB\t_\t_\t1\tacl:relcl\t1:acl:relcl\t_
4\tleft\t_\tVERB\t_\t_\t0\troot\t0:root\t_
5\tin\t_\tADP\t_\t_\t6\tcase\t6:case\t_
6\ttown\t_\tNOUN\t_\t_\t4\tobl\t4:obl:in\t_
7\tand\t_\tCCONJ\t_\t_\t8\tcc\t8:cc\t_
8\tstayed\t_\tVERB\t_\t_\t4\tconj\t4:conj:and\t_
9\tto\t_\tPART\t_\t_\t10\tmark\t10:mark\t_
10\trest\t_\tVERB\t_\t_\t8\txcomp\t8:xcomp|10.1:dep\t_
10.1\tyet\t_\tADV\t_\t_\t_\t_\t10:advmod\t_

"""


def test_edge_kinds_sorts_each_enhanced_edge_by_what_it_adds(
        tmp_path: Path, scripts: dict[str, ModuleType]) -> None:
    (tmp_path / "g.conllu").write_text(GOLD, encoding="utf-8")
    kinds = scripts["udeval_study"].edge_kinds(tmp_path / "g.conllu")
    # basic: 1->4 nsubj, 3 acl:relcl, 4 root, 5 case, 7 cc, 9 mark, 10 xcomp;
    # subtypes: obl:in, conj:and; ref: who; relcl: 3:nsubj on man; xsubj: 10 on man;
    # other: 8:nsubj on man (propagated over the conjunction); 10.1's edges left out
    assert dict(kinds) == {"basic": 7, "subtype": 2, "ref": 1, "relcl": 1, "xsubj": 1,
                           "other": 1}


def test_fill_replaces_every_placeholder_or_refuses(scripts: dict[str, ModuleType]) -> None:
    fill = scripts["doc_template"].fill
    assert fill("a {{x}} b\n<!-- table: t -->\nc\n", {"x": "1", "t": "| T |"}) == \
        "a 1 b\n| T |\nc\n"
    with pytest.raises(SystemExit, match="'y'"):
        fill("{{y}}", {})
    assert scripts["doc_template"].pct(None) == "n/a"
    assert scripts["doc_template"].pct(0.12345, sign=True) == "+12.35"


def test_udeval_study_writes_its_section_between_the_markers_only(
        tmp_path: Path, scripts: dict[str, ModuleType]) -> None:
    mod = scripts["udeval_study"]
    (tmp_path / "g.conllu").write_text(GOLD, encoding="utf-8")

    def scores(las: float, elas: float) -> dict[str, object]:
        def prf(x: float) -> dict[str, float]:
            return {"precision": x, "recall": x, "f1": x}
        return {"uas": prf(las + 0.01), "las": prf(las), "elas": prf(elas), "eulas": prf(elas)}

    for i, (name, _) in enumerate(mod.SYSTEMS):
        for e in (0, 6, 126):
            (tmp_path / f"{name}.e{e}.json").write_text(
                json.dumps(scores(0.5 + i / 10, 0.4 + i / 20 + e / 1000)), encoding="utf-8")
    (tmp_path / "t.md").write_text(
        "<!-- table: scores -->\n\n<!-- table: gold-edges -->\n{{gold_edges}} {{basic_share}} "
        "{{gold_elas}} {{gold_elas6}} {{gold_p6}} {{gold_r6}} {{extra_share}} {{gaps}}\n",
        encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(f"before\n{mod.BEGIN}\nSTALE\n{mod.END}\nafter\n", encoding="utf-8")
    mod.build(tmp_path, tmp_path / "g.conllu", tmp_path / "t.md", page)
    text = page.read_text(encoding="utf-8")
    assert text.startswith(f"before\n{mod.BEGIN}\n| system |") and "STALE" not in text
    assert text.endswith(f"{mod.END}\nafter\n")
    assert "| UDPipe 1, basic tree copied | 61.00 | 60.00 | 45.00 | 45.00 | 45.60 | 57.60 |" \
        in text
    # 13 edges between words; 7 basic (53.85%); ref + relcl + xsubj + other = 4 (30.77%);
    # LAS - ELAS(6): 60.00 - 45.60, 70.00 - 50.60, 80.00 - 55.60
    assert "\n13 53.85 40.00 40.60 40.60 40.60 30.77 udpipe 14.40, spacy-ud 19.40, " \
        "biaffine 24.40\n" in text
    page.write_text("no markers\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="markers"):
        mod.build(tmp_path, tmp_path / "g.conllu", tmp_path / "t.md", page)
    assert page.read_text(encoding="utf-8") == "no markers\n"
