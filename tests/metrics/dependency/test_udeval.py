"""ELAS, EULAS and the other thirteen metrics against udtools' ``udeval`` (0.2.9, the
official UD scorer, run as a program: GPL, never imported) on EWT test: the gold's
enhanced graphs perturbed, a parser's basic tree copied into DEPS (with
``--enhancements 6`` and ``12``), several roots with ``--multiple-roots-okay``, and a
system without enhanced graphs. Every count and every printed digit equal."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import udeval_ref
from conftest import needs, shared_path

import parsebench as pb
from parsebench.formats.conllu import NO_HEAD, Sentence, basic_to_deps, read_conllu, write_conllu
from parsebench.metrics.dependency.conll18 import conll18_table, counts_table
from parsebench.metrics.dependency.figures import DepsEval

EWT_TEST = "data/ud-english-ewt/en_ewt-ud-test.conllu"
UDPIPE_EN = "models/en_ewt.udpipe"


def write(sentences: list[Sentence], path: Path) -> Path:
    with open(path, "w", encoding="utf-8") as fh:
        write_conllu(sentences, fh)
    return path


def ours(gold: Path, system: Path, counts: bool, **options: object) -> dict[str, list[str]]:
    """parsebench's table of the same shape as udeval's (``-v`` or ``--counts``)."""
    r = pb.evaluate_deps(gold, system, counts=True, **options)  # type: ignore[arg-type]
    scores = DepsEval.from_dict(r.to_dict())
    lines = counts_table(scores, True) if counts else conll18_table(scores, True)
    out = {}
    for line in lines[2:]:
        name, _, rest = line.partition("|")
        out[name.strip()] = [c.strip() for c in rest.split("|")]
    return out


def same(gold: Path, system: Path, *flags: str, **options: object) -> None:
    """Both tables, parsebench's and udeval's, equal cell for cell: every count, and
    every printed score but those parsebench gives as n/a (a parse without lemmas has no
    Lemmas or BLEX, where udeval compares ``_`` with the gold's lemmas)."""
    theirs = udeval_ref.table(gold, system, "--counts", *flags)
    assert ours(gold, system, True, **options) == theirs, flags
    theirs = udeval_ref.table(gold, system, "-v", *flags)
    mine = ours(gold, system, False, **options)
    assert mine.keys() == theirs.keys()
    for name, cells in mine.items():
        assert "n/a" in cells or cells == theirs[name], (name, flags)
    assert sum("n/a" in cells for cells in mine.values()) <= 2


def perturb(sentences: list[Sentence], rng: random.Random) -> None:
    """Drop, relabel, re-attach and add enhanced edges (never two to one head, where
    udeval counts a match twice; edges of empty nodes kept)."""
    for s in sentences:
        n = len(s)
        for i, d in enumerate(s.deps):
            if d == "_" or "." in d:
                continue
            edges = [e.split(":", 1) for e in d.split("|")]
            x = rng.random()
            if x < 0.05 and len(edges) > 1:
                edges.pop(rng.randrange(len(edges)))
            elif x < 0.10:
                k = rng.randrange(len(edges))
                h, lab = edges[k]  # a subtype changed (EULAS right) or the relation
                edges[k] = [h, lab.split(":")[0] + ":x" if rng.random() < 0.5 else "dep"]
            elif x < 0.15 or x < 0.20:
                free = [str(h) for h in range(n + 1)
                        if str(h) not in {e[0] for e in edges} and h != i + 1]
                if free:
                    h = rng.choice(free)
                    if x < 0.15:  # re-attached
                        edges[rng.randrange(len(edges))][0] = h
                    else:
                        edges.append([h, "obl:on"])
            s.deps[i] = "|".join(f"{h}:{lab}" for h, lab in edges)


def merged(a: Sentence, b: Sentence) -> Sentence:
    """B's words after A's, as one sentence (heads and DEPS renumbered, B's root under
    A's: one root)."""
    n = len(a)

    def moved(d: str) -> str:
        if d == "_":
            return d
        out = []
        for e in d.split("|"):
            h, lab = e.split(":", 1)
            out.append(f"{a.heads.index(0) + 1}:parataxis" if h == "0" else
                       f"{int(h) + n}:{lab}")
        return "|".join(out)

    return Sentence(
        a.forms + b.forms, a.lemmas + b.lemmas, a.upos + b.upos, a.xpos + b.xpos,
        a.feats + b.feats,
        a.heads + [a.heads.index(0) + 1 if h == 0 else h + n for h in b.heads],
        a.deprels + ["parataxis" if d == "root" else d for d in b.deprels],
        a.deps + [moved(d) for d in b.deps], a.misc + b.misc, a.comments,
        a.multiword + [(x + n, y + n, cols) for x, y, cols in b.multiword], [])


@pytest.fixture(scope="module")
def ewt() -> Path:
    return shared_path(EWT_TEST)


@pytest.fixture(scope="module")
def parsed(ewt: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """UDPipe's parse of EWT test (gold words), its basic tree copied into DEPS."""
    needs("ufal.udpipe")
    out = tmp_path_factory.mktemp("udpipe") / "udpipe.conllu"
    r = pb.parse(ewt, f"udpipe:{shared_path(UDPIPE_EN)}", workers=2, copy_basic_to_deps=True)
    r.write(out)
    return out


def test_perturbed_enhanced_graphs(ewt: Path, tmp_path: Path) -> None:
    udeval_ref.udeval()
    system = read_conllu(ewt)
    perturb(system, random.Random(7))
    sys_path = write(system, tmp_path / "perturbed.conllu")
    same(ewt, sys_path)
    r = pb.evaluate_deps(ewt, sys_path)
    assert 0.8 < r.data["elas"]["f1"] < r.data["eulas"]["f1"] < 1.0


def test_other_tokens_and_sentences(ewt: Path, tmp_path: Path) -> None:
    """Words aligned through the text (multiword tokens split, sentences merged): the
    edges' heads are compared through the alignment, as udeval does."""
    udeval_ref.udeval()
    gold = read_conllu(ewt)
    system = read_conllu(ewt)
    perturb(system, random.Random(3))
    out: list[Sentence] = []
    for k, s in enumerate(system):
        s.multiword = []  # "don't" as two tokens
        if k % 7 == 1 and out and not out[-1].empty_nodes and not s.empty_nodes:
            out[-1] = merged(out[-1], s)
        else:
            out.append(s)
    sys_path = write(out, tmp_path / "retokenized.conllu")
    same(ewt, sys_path)
    r = pb.evaluate_deps(ewt, sys_path).data
    assert r["sentences"]["f1"] < 0.95 and r["tokens"]["f1"] < 1.0
    assert len(gold) > len(out)


def test_copied_basic_tree(ewt: Path, parsed: Path) -> None:
    udeval_ref.udeval()
    same(ewt, parsed)
    r = pb.evaluate_deps(ewt, parsed)
    assert r.data["elas"]["f1"] < r.data["las"]["f1"]


@pytest.mark.parametrize("code", ["6", "12"])
def test_enhancements(ewt: Path, parsed: Path, code: str) -> None:
    udeval_ref.udeval()
    same(ewt, parsed, "--enhancements", code, enhancements=code)
    plain = pb.evaluate_deps(ewt, parsed).data
    less = pb.evaluate_deps(ewt, parsed, enhancements=code).data
    assert less["elas"] != plain["elas"]
    assert less["signature"].count(f"enhancements:{code}") == 1


def test_several_roots(ewt: Path, parsed: Path, tmp_path: Path) -> None:
    """Each tenth sentence's first word that hangs from the root made a root too."""
    udeval_ref.udeval()
    system = read_conllu(parsed)
    made = 0
    for s in system[::10]:
        root = s.heads.index(0) + 1 if 0 in s.heads else None
        for i, h in enumerate(s.heads):
            if h == root and h != NO_HEAD:
                s.heads[i] = 0
                made += 1
                break
    system = [basic_to_deps(s) for s in system]
    sys_path = write(system, tmp_path / "roots.conllu")
    same(ewt, sys_path, "--multiple-roots-okay", multiple_roots_okay=True)
    # without the option udeval refuses the file; parsebench scores it and names the roots
    assert "multiple roots" in udeval_ref.error(ewt, sys_path)
    r = pb.evaluate_deps(ewt, sys_path)
    assert any(f"{made} sentence(s) do not have exactly one root" in w for w in r.warnings)
    assert any("the basic tree's roots (HEAD 0) are 1 " in w for w in r.warnings)
    assert not any("one root" in w for w in pb.evaluate_deps(
        ewt, sys_path, multiple_roots_okay=True).warnings)


def test_system_without_enhanced_graphs(ewt: Path, parsed: Path, tmp_path: Path) -> None:
    """udeval gives 0; parsebench n/a with a warning (no graph to score, not a wrong one)."""
    udeval_ref.udeval()
    system = read_conllu(parsed)
    for s in system:
        s.deps = ["_"] * len(s)
    sys_path = write(system, tmp_path / "nodeps.conllu")
    theirs = udeval_ref.table(ewt, sys_path, "-v")
    mine = ours(ewt, sys_path, False)
    for name in udeval_ref.METRICS[:13]:  # UDPipe gives no lemmas: n/a, see same()
        assert mine[name] == theirs[name] or name in ("Lemmas", "BLEX")
    assert theirs["ELAS"][:3] == ["0.00", "0.00", "0.00"]
    assert mine["ELAS"][:3] == mine["EULAS"][:3] == ["n/a", "n/a", "n/a"]
    r = pb.evaluate_deps(ewt, sys_path)
    assert r.data["elas"] == {"precision": None, "recall": None, "f1": None,
                              "aligned_accuracy": None, "correct": None, "gold": None,
                              "system": None, "aligned": None}
    assert any("no enhanced graph (DEPS is _ on every word): ELAS, EULAS n/a" in w
               for w in r.warnings)
