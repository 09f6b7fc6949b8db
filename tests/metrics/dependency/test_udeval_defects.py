"""Where parsebench answers otherwise than udtools' ``udeval`` 0.2.9, on purpose: the
reference's known defects (UniversalDependencies/tools #88, #90, #146, #60, PR #104)
and three found in its source, each on a small file (tests/fixtures/udeval), with
parsebench's exact counts and, where udeval is installed, its other answer
(``docs/udeval.md`` says why each differs)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import udeval_ref
from conftest import FIXTURES

import parsebench as pb
from parsebench.common.errors import InputError
from parsebench.formats.conllu import ConlluWarning

FIX = FIXTURES / "udeval"


def counts(gold: str, system: str | None = None, **options: object) -> dict[str, tuple[int, ...]]:
    """(correct, gold, system) of LAS, ELAS and EULAS."""
    r = pb.evaluate_deps(FIX / gold, FIX / (system or gold), counts=True,  # type: ignore[arg-type]
                         **options)
    return {m: (r.data[m]["correct"], r.data[m]["gold"], r.data[m]["system"])
            for m in ("las", "elas", "eulas")}


def reference() -> bool:
    """Whether udeval is here to show its own answer (the fixtures are checked without)."""
    found = os.environ.get("UDEVAL") or (udeval_ref.ROOT / ".venv-ref/bin/udeval").exists() \
        or shutil.which("udeval")
    if not found and os.environ.get("CI") == "true":
        pytest.fail("udeval is installed in CI")
    return bool(found)


def theirs(gold: str, system: str | None = None, *flags: str) -> dict[str, list[str]]:
    return udeval_ref.table(FIX / gold, FIX / (system or gold), "--counts", *flags)


def test_88_empty_nodes_without_head() -> None:
    """Empty nodes (HEAD _) are left out with their 4 edges, as udeval 0.2.9 now does
    (it used to stop), but parsebench says so; --no-empty-nodes names the node."""
    assert counts("empty-node-no-head.conllu")["elas"] == (3, 3, 3)
    r = pb.evaluate_deps(FIX / "empty-node-no-head.conllu", FIX / "empty-node-no-head.conllu")
    assert any("4 enhanced edge(s) to or from empty nodes are not scored" in w
               for w in r.warnings)
    with pytest.raises(InputError, match=r"empty-node-no-head.conllu:7: empty node 5.1 "):
        counts("empty-node-no-head.conllu", no_empty_nodes=True)
    if reference():
        assert theirs("empty-node-no-head.conllu")["ELAS"][:3] == ["3", "3", "3"]


def test_90_two_edges_to_one_head() -> None:
    """nsubj and nsubj:xsubj to one head: EULAS matches each edge once (udeval counts 5
    of 3, 166.67%)."""
    assert counts("two-edges-one-head.conllu") == {
        "las": (2, 2, 2), "elas": (3, 3, 3), "eulas": (3, 3, 3)}
    if reference():
        assert theirs("two-edges-one-head.conllu")["EULAS"][:3] == ["5", "3", "3"]


def test_146_roots_of_the_basic_tree_named() -> None:
    """A parse with two words at HEAD 0 (one labelled root, the enhanced graph with one
    0:root): scored, the warning names both roots and says they are the basic tree's;
    udeval stops with "multiple roots" and names neither."""
    got = counts("two-roots-gold.conllu", "two-roots-system.conllu")
    assert got == {"las": (0, 2, 2), "elas": (2, 2, 2), "eulas": (2, 2, 2)}
    r = pb.evaluate_deps(FIX / "two-roots-gold.conllu", FIX / "two-roots-system.conllu")
    assert f"{FIX / 'two-roots-system.conllu'}:1: the basic tree's roots (HEAD 0) are 1 " \
        "'...' (root), 2 'Nope' (punct) (--multiple-roots-okay if several are meant)" \
        in r.warnings
    quiet = pb.evaluate_deps(FIX / "two-roots-gold.conllu", FIX / "two-roots-system.conllu",
                             multiple_roots_okay=True)
    assert not any("root" in w.replace("two-roots", "") for w in quiet.warnings)
    if reference():
        msg = udeval_ref.error(FIX / "two-roots-gold.conllu", FIX / "two-roots-system.conllu")
        assert msg.endswith("There are multiple roots in the sentence that ends at 3")


def test_60_two_blank_lines() -> None:
    """Two blank lines end one sentence (udeval: "a sentence with 0 tokens"), with a
    warning naming the extra line."""
    with pytest.warns(ConlluWarning, match=r"double-blank-line.conllu:3: 1 blank line"):
        assert counts("double-blank-line.conllu")["las"] == (2, 2, 2)
    v = pb.validate(FIX / "double-blank-line.conllu")
    assert [(f.line, f.kind, f.severity) for f in v.findings] == [
        (3, "empty-sentence", "error")]  # as udvalidate says
    if reference():
        assert "sentence with 0 tokens" in udeval_ref.error(
            FIX / "double-blank-line.conllu", FIX / "double-blank-line.conllu")


def test_pr104_empty_node_in_multiword_token() -> None:
    """An empty node between the words of a multiword token: left out, the token's words
    read; with --no-empty-nodes the error shows the node's line (udeval shows the
    token's line under the node's number)."""
    assert counts("empty-node-in-multiword.conllu") == {
        "las": (3, 3, 3), "elas": (3, 3, 3), "eulas": (3, 3, 3)}
    with pytest.raises(InputError, match=r"multiword.conllu:3: empty node 1.1 "):
        counts("empty-node-in-multiword.conllu", no_empty_nodes=True)
    if reference():
        msg = udeval_ref.error(FIX / "empty-node-in-multiword.conllu",
                               FIX / "empty-node-in-multiword.conllu", "--no-empty-nodes", "1")
        assert msg.endswith("at line 3: 1-2\tdel\t_\t_\t_\t_\t_\t_\t_\t_")


def test_enhancement_3_drops_shared_dependents() -> None:
    """--enhancements 3: "I" and "him" keep only their edge to the basic head (udeval
    compares a word with a string and keeps all 7 edges)."""
    assert counts("shared-dependents.conllu", "shared-dependents-basic.conllu",
                  enhancements=3)["elas"] == (4, 5, 5)  # conj:and against the basic conj
    if reference():
        assert theirs("shared-dependents.conllu", "shared-dependents-basic.conllu",
                      "--enhancements", "3")["ELAS"][:3] == ["4", "7", "5"]


def test_enhancement_5_external_argument() -> None:
    """--enhancements 5: the edge from the relative clause to "man" goes, "who" keeps
    its basic nsubj (udeval's test is one word off: it keeps the first and drops the
    second in the system)."""
    assert counts("relative-clause.conllu", "relative-clause-basic.conllu",
                  enhancements=5)["elas"] == (4, 4, 4)
    if reference():
        assert theirs("relative-clause.conllu", "relative-clause-basic.conllu",
                      "--enhancements", "5")["ELAS"][:3] == ["3", "5", "3"]


def test_enhancement_1_root_path() -> None:
    """--enhancements 1: a root word's path becomes 0:root, which the parse has (udeval
    puts in a head that matches nothing)."""
    assert counts("root-path.conllu", "root-path-basic.conllu",
                  enhancements=1)["elas"] == (2, 2, 2)
    if reference():
        assert theirs("root-path.conllu", "root-path-basic.conllu",
                      "--enhancements", "1")["ELAS"][:3] == ["1", "2", "2"]


@pytest.mark.parametrize("bad", ["7", "1a", "", "-1"])
def test_enhancements_refused(bad: str) -> None:
    with pytest.raises(InputError, match="--enhancements"):
        counts("root-path.conllu", enhancements=bad)


def test_malformed_deps(tmp_path: Path) -> None:
    f = tmp_path / "bad.conllu"
    f.write_text("1\ta\ta\tX\t_\t_\t0\troot\t0:root\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t1dep\t_\n\n",
                 encoding="utf-8")
    # a column that holds something else is read as no edge, warned of with its line:
    # the basic metrics are still given (Tweebank v2 keeps MISC in DEPS)
    r = pb.evaluate_deps(f, f)
    assert r.las.f1 == 1.0 and any(
        w.startswith(f"{f}:2: 1 DEPS value(s) are not HEAD:LABEL") for w in r.warnings)
    f.write_text("1\ta\ta\tX\t_\t_\t0\troot\t0:root\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t3:dep\t_\n\n",
                 encoding="utf-8")
    with pytest.raises(InputError, match=r"bad.conllu:2: DEPS head 3 points outside"):
        pb.evaluate_deps(f, f)
