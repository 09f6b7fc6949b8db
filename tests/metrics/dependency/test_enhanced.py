"""ELAS and EULAS in every place a score goes: the per-sentence file, compare, the
command's options and counts table, and the invariants every pair of files keeps."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import FIXTURES
from hypothesis import given, settings
from hypothesis import strategies as st

import parsebench as pb
from parsebench.formats.conllu import Sentence, basic_to_deps, write_conllu
from parsebench.metrics.dependency.conll18 import F1Count
from parsebench.metrics.dependency.enhanced import Enhanced, EnhancedCounter
from parsebench.metrics.dependency.figures import DepsEval, DepsValue

FIX = FIXTURES / "udeval"
GOLD = FIX / "shared-dependents.conllu"
BASIC = FIX / "shared-dependents-basic.conllu"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *args],
                          capture_output=True, text=True, check=False)


def test_per_sentence_columns(tmp_path: Path) -> None:
    tsv = tmp_path / "s.tsv"
    pb.evaluate_deps(GOLD, BASIC, per_sentence=tsv)
    head, row = tsv.read_text(encoding="utf-8").splitlines()
    cells = dict(zip(head.split("\t"), row.split("\t"), strict=True))
    # 4 of the 7 gold edges (conj:and is not the basic conj), 4 of the 5 copied ones
    assert (cells["elas"], cells["elas_correct"], cells["elas_gold"], cells["elas_system"]) \
        == ("66.67", "4", "7", "5")
    assert (cells["eulas"], cells["eulas_correct"]) == ("83.33", "5")


def test_compare_offers_them() -> None:
    r = pb.compare(GOLD, [BASIC, GOLD], metric="eulas", samples=100)
    assert [s["score"] for s in r.to_dict()["systems"]] == [10 / 12, 1.0]


def test_command_options() -> None:
    bad = cli("eval", "deps", str(GOLD), str(BASIC), "--enhancements", "8")
    assert bad.returncode == 2 and "--enhancements '8': expected digits 0-6" in bad.stderr
    got = cli("eval", "deps", str(GOLD), str(BASIC), "--enhancements", "3", "--counts")
    assert got.returncode == 0, got.stderr
    assert "Metric     | Correct   |      Gold | Predicted | Aligned" in got.stdout
    assert "\nELAS       |         4 |         5 |         5 |" + " " * 10 + "\n" in got.stdout
    assert "enhancements:3" in got.stdout


def test_a_gold_without_graphs_leaves_them_out(tmp_path: Path) -> None:
    plain = tmp_path / "plain.conllu"
    plain.write_text("1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n\n", encoding="utf-8")
    r = pb.evaluate_deps(plain, plain)
    assert r.data["elas"]["f1"] is None and not any("enhanced" in w for w in r.warnings)
    assert "ELAS" not in str(r)


words = st.integers(min_value=1, max_value=6)


@st.composite
def graphs(draw: st.DrawFn) -> tuple[Sentence, Sentence]:
    """A gold and a system sentence of N words: random trees, random extra edges."""
    n = draw(words)
    labels = st.sampled_from(["nsubj", "nsubj:xsubj", "obl", "obl:in", "conj:and", "dep"])

    def one() -> Sentence:
        heads = [draw(st.integers(0, n)) for _ in range(n)]
        deps = []
        for _ in range(n):
            edges = draw(st.lists(st.tuples(st.integers(0, n), labels), max_size=3))
            deps.append("|".join(f"{h}:{lab}" for h, lab in edges) or "_")
        return Sentence(forms=[f"w{i}" for i in range(n)], lemmas=["_"] * n, upos=["X"] * n,
                        xpos=["_"] * n, feats=["_"] * n, heads=heads, deprels=["dep"] * n,
                        deps=deps, misc=["_"] * n)

    return one(), one()


@settings(max_examples=300, deadline=None)
@given(graphs(), st.sampled_from(["0", "1", "2", "3", "4", "5", "6", "1236"]))
def test_invariants(pair: tuple[Sentence, Sentence], code: str) -> None:
    """Each edge matches at most once: correct never exceeds either total, EULAS is at
    least ELAS, a graph against itself is all right; the row path and the aligned path
    (count_stretch's) agree."""
    gold, system = pair
    opts = Enhanced.of(code)
    c = EnhancedCounter(opts, "g", "s")
    e, u = F1Count(), F1Count()
    c.rows(gold, system, e, u)
    assert e.correct <= min(e.gold, e.system) and e.correct <= u.correct <= min(u.gold,
                                                                                u.system)
    e2, u2 = F1Count(), F1Count()
    c.stretch([gold], [system], list(range(len(system))), [0] * len(system), [e2], [u2])
    assert (e2.correct, e2.gold, e2.system, u2.correct) == (e.correct, e.gold, e.system,
                                                            u.correct)
    same, same_u = F1Count(), F1Count()
    c.rows(gold, gold, same, same_u)
    if code == "0":  # (leaving enhancements out can make duplicates; never more matches)
        assert same.correct == same.gold == same.system


def test_basic_to_deps() -> None:
    s = Sentence(forms=["a", "b", "c"], lemmas=["_"] * 3, upos=["X"] * 3, xpos=["_"] * 3,
                 feats=["_"] * 3, heads=[2, 0, -1], deprels=["nsubj", "root", "_"],
                 deps=["_"] * 3, misc=["_"] * 3, empty_nodes=[(1, ["1.1", *["_"] * 9])])
    out = basic_to_deps(s)
    assert out.deps == ["2:nsubj", "0:root", "_"] and out.empty_nodes == []
    assert s.deps == ["_"] * 3  # the input is left as it was


def test_a_run_scores_the_copied_basic_tree(tmp_path: Path) -> None:
    """A run's deps method, where the gold has enhanced graphs: each parse's basic tree
    copied into DEPS (parsers give none) scored as eval deps scores it, with intervals."""

    from conftest import FIXTURES, shared_path

    from parsebench.formats.conllu import read_conllu

    sys.path.insert(0, str(FIXTURES))  # python:toy_parsers:... here and in its workers
    gold = read_conllu(shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu"))[:40]
    corpus = tmp_path / "gold.conllu"
    with open(corpus, "w", encoding="utf-8") as fh:
        write_conllu(gold, fh)
    exp = tmp_path / "exp.toml"
    exp.write_text(f'''name = "graphs"
[corpus]
path = "{corpus}"
[noise]
per_sentence = [1]
replicates = 1
seed = 3
[[parsers]]
name = "form-blind"
spec = "python:toy_parsers:FormBlind"
''', encoding="utf-8")
    r = pb.run(exp, store=tmp_path / "s.sqlite", report=tmp_path / "rep")
    clean = pb.parse(corpus, "python:toy_parsers:FormBlind", copy_basic_to_deps=True)
    clean.write(tmp_path / "clean.conllu")
    want = pb.evaluate_deps(corpus, tmp_path / "clean.conllu").record
    assert isinstance(want, DepsEval)
    got = [x.value for x in r.results if x.metric == "deps" and x.level == "clean"]
    # the run's records and the command's are the same records
    assert got and all(isinstance(g, DepsValue) and g.elas == want.elas
                       and g.eulas == want.eulas
                       for g in got), [(x.parser, x.metric, x.level) for x in r.results]
    interval = got[0].interval("elas")
    assert interval is not None and want.elas.f1 is not None and want.las.f1 is not None
    lo, hi = interval
    assert lo <= want.elas.f1 <= hi and 0 < want.elas.f1 < want.las.f1
    # the report's accuracy table shows them, as eval deps gives them
    md = (tmp_path / "rep" / "index.md").read_text(encoding="utf-8")
    head = next(ln for ln in md.splitlines() if ln.startswith("| parser | input | UAS | LAS"))
    assert "| ELAS | EULAS |" in head
    row = next(ln for ln in md.splitlines() if ln.startswith("| form-blind | clean |")
               and "ELAS" not in ln and ln.count("|") == head.count("|"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    at = [c.strip() for c in head.strip("|").split("|")].index("ELAS")
    assert cells[at:at + 2] == [f"{100 * (f.f1 or 0):.2f}" for f in (want.elas, want.eulas)]
