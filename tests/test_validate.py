"""``validate``: parsebench's own checks, every finding with its line and kind, the
exit status (0 valid, 1 invalid, 2 usage), and udtools' udvalidate (GPL, a program)
for the higher levels, its findings in the same form saying where they came from."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import udeval_ref
from conftest import shared_path
from udeval_ref import udvalidate

import parsebench as pb
from parsebench.validation import check_file, run_udvalidate

FIX = Path(__file__).resolve().parent / "fixtures" / "udeval"
BROKEN = """# text = a b c
1\ta\ta\tX\t_\t_\t2\tdep\t2:dep\t_
3\tb\tb\tX\t_\t_\t7\tdep\t2:dep|x\t_
2\tc\tc\tX\t_\t_\t2\tdep\t_\t_
# a comment inside
1-9\tab\t_\t_\t_\t_\t_\t_\t_\t_
4.1\tz\tz\tX\t_\t_\t1\tdep\t1:dep\t_
1\tonly\tfour\tcolumns

1\tx\tx\tX\t_\t_\t2\tdep\t_\t_
2\ty\ty\tX\t_\t_\t1\tdep\t_\t_
"""


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *args],
                          capture_output=True, text=True, check=False)


def test_every_finding_with_its_line(tmp_path: Path) -> None:
    f = tmp_path / "broken.conllu"
    f.write_text(BROKEN, encoding="utf-8")
    r = pb.validate(f)
    assert not r.valid
    got = [(x.line, x.kind, x.severity) for x in r.findings]
    assert got == [
        (3, "ids", "error"),            # 3 where 2 is expected
        (3, "heads", "error"),          # HEAD 7 of 3 words (no tree checks then)
        (3, "invalid-deps", "error"),   # "x" is not HEAD:LABEL
        (4, "ids", "error"),            # then 2 where 4 is
        (4, "heads", "error"),          # its own head
        (5, "format", "error"),         # a comment inside a sentence
        (6, "multiword", "error"),      # 1-9: the next word is 3
        (7, "empty-node", "error"),     # 4.1 after word 2
        (7, "empty-node", "error"),     # with a HEAD and a DEPREL
        (8, "format", "error"),         # four columns
        (10, "roots", "error"),         # no root
        (10, "cycles", "error"),        # 1 -> 2 -> 1
        (11, "missing-empty-line", "error"),  # no blank line at the end (udvalidate's id)
    ]
    assert all(x.source == "parsebench" for x in r.findings)
    assert r.to_dict()["counts"]["ids (parsebench)"] == 2
    assert r.to_dict()["severity"] == {"error": 13, "warning": 0}


def test_exit_status_and_json(tmp_path: Path) -> None:
    good = cli("validate", str(FIX / "empty-node-no-head.conllu"))
    assert good.returncode == 0 and "valid: 1 file(s), 0 error(s)" in good.stdout
    f = tmp_path / "broken.conllu"
    f.write_text(BROKEN, encoding="utf-8")
    bad = cli("validate", str(f), str(FIX / "two-roots-system.conllu"), "--json")
    assert bad.returncode == 1
    data = json.loads(bad.stdout)
    assert data["valid"] is False and len(data["files"]) == 2
    assert {"file": str(FIX / "two-roots-system.conllu"), "line": 1, "kind": "roots",
            "message": "several roots in the basic tree (HEAD 0): 1 '...', 2 'Nope'",
            "severity": "warning", "source": "parsebench"} in data["findings"]
    assert cli("validate", str(tmp_path / "none.conllu")).returncode == 2
    usage = cli("validate", str(f), "--level", "7")
    assert usage.returncode == 2 and "--level 7: expected 1 to 5" in usage.stderr


def test_udvalidate_at_level_2(monkeypatch: pytest.MonkeyPatch) -> None:
    prog = Path(udeval_ref.udeval()).with_name("udvalidate")
    if not prog.exists():
        pytest.skip(f"no udvalidate beside {prog.parent}")
    monkeypatch.setenv("PARSEBENCH_UDVALIDATE", str(prog))
    r = pb.validate([FIX / "double-blank-line.conllu", FIX / "two-roots-system.conllu"],
                    level=2, lang="en")
    found = {(Path(x.file).name, x.line, x.kind, x.source) for x in r.findings}
    assert ("double-blank-line.conllu", 3, "blank-line", "parsebench") in found
    assert ("double-blank-line.conllu", 3, "format/empty-sentence", "udvalidate L1") in found
    assert ("two-roots-system.conllu", 1, "syntax/multiple-roots", "udvalidate L2") in found
    assert not r.valid and r.to_dict()["udvalidate"] == str(prog)


def test_without_udvalidate_level_2_says_so(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("PARSEBENCH_UDVALIDATE", raising=False)
    f = tmp_path / "good.conllu"
    f.write_text(good(), encoding="utf-8")
    r = pb.validate(f, level=3)
    assert r.valid and r.to_dict()["udvalidate"] is None
    assert any("udvalidate is not installed" in w for w in r.warnings)
    assert os.environ["PATH"] == str(tmp_path)


def test_nul_bytes_and_what_is_no_file(tmp_path: Path) -> None:
    """A NUL byte is an error in any column (it was only seen in ID); a directory and a
    device are named for what they are, not "no such file" (issue 48, item 13)."""
    f = tmp_path / "nul.conllu"
    f.write_text("# sent_id = 1\n# text = a\n1\ta\ta\tA\0UX\t_\t_\t0\troot\t_\t_\n\n",
                 encoding="utf-8")
    r = pb.validate(f)
    assert not r.valid and [(x.line, x.kind) for x in r.findings] == [(3, "nul-byte")]
    for where, said in ((tmp_path, "is a directory, expected a CoNLL-U file"),
                        (Path("/dev/null"), "is not a regular file (a device or a pipe?)")):
        got = cli("validate", str(where))
        assert got.returncode == 2
        assert got.stderr.startswith(f"parsebench: {where}: {said}") and \
            got.stderr.count("\n") == 1, got.stderr


def udv_ids(path: Path, level: int) -> list[tuple[int, str]]:
    """udvalidate's (line, test id) findings in PATH, or [] where it is not installed
    (the tests then check parsebench's alone)."""
    prog = udvalidate(required=False)
    if prog is None:
        return []
    return sorted((x.line or 0, x.kind.partition("/")[2])
                  for x in run_udvalidate(prog, str(path), level, "ud"))


def native(path: Path, level: int) -> list[tuple[int, str]]:
    return sorted((x.line or 0, x.kind) for x in check_file(path, level))


GOOD = ("# sent_id = s{n}\n# text = a b\n1\ta\ta\tNOUN\t_\t_\t0\troot\t0:root\t_\n"
        "2\tb\tb\tNOUN\t_\t{feats}\t1\tnmod\t{deps}\t{misc}\n\n")


def good(n: int = 1, feats: str = "_", deps: str = "1:nmod", misc: str = "_") -> str:
    return GOOD.format(n=n, feats=feats, deps=deps, misc=misc)


LEVEL1 = [  # (text, the finding's line, udvalidate's test id)
    (good().replace("\n2\t", "\n02\t"), 4, "invalid-word-id"),
    (good()[:-1], 4, "missing-empty-line"),
    (good().replace("a b\n1\ta\ta", "a b\n1\ta\u0301\ta"), 3, "unicode-normalization"),
    (good().replace("a b\n1\ta\ta", "a b\n1\ta\t a"), 3, "leading-whitespace"),
    (good().replace("a b\n1\ta\ta", "a b\n1\ta\ta "), 3, "trailing-whitespace"),
    (good().replace("\tNOUN\t_\t_\t0", "\tNO UN\t_\t_\t0"), 3, "invalid-whitespace"),
]
LEVEL2 = [
    (good().replace("# text = a b\n1\t", "# text = ab\n1-2\tab\tab\t_\t_\t_\t_\t_\t_\t_\n1\t"),
     3, "mwt-nonempty-field"),
    (good(feats="Number=Sing|Case=Nom"), 4, "unsorted-features"),
    (good(feats="Case=Nom|Case=Acc"), 4, "repeated-feature"),
    (good(feats="case=Nom"), 4, "invalid-feature"),
    (good(feats="Case=Nom,Acc"), 4, "unsorted-feature-values"),
    (good().replace("\tNOUN\t_\t_\t0", "\tnoun\t_\t_\t0"), 3, "unknown-upos"),
    (good().replace("\tnmod\t", "\tNMOD\t"), 4, "invalid-deprel"),
    (good(deps="1:nmod|0:root"), 4, "unsorted-deps"),
    (good(deps="1:nmod|1:nmod"), 4, "repeated-deps"),
    (good(deps="1:nmod|2:dep"), 4, "deps-self-loop"),
    (good().replace("# sent_id = s1\n", ""), 2, "missing-sent-id"),
    (good().replace("# text", "# sent_id = t\n# text"), 4, "multiple-sent-id"),
    (good() + good(), 8, "non-unique-sent-id"),
    (good(misc="SpaceAfter=Yes"), 4, "spaceafter-value"),
]


@pytest.mark.parametrize(("text", "line", "testid"), LEVEL1 + LEVEL2)
def test_udvalidate_ids_natively(tmp_path: Path, text: str, line: int, testid: str) -> None:
    """Each language-independent check that parsebench missed, on a small damaged file,
    with udvalidate's test id at its line and level; udvalidate, where installed, finds
    the same (issue 49, item 1)."""
    f = tmp_path / "damaged.conllu"
    f.write_text(text, encoding="utf-8")
    level = 1 if (text, line, testid) in LEVEL1 else 2
    got = native(f, level)
    assert (line, testid) in got, got
    if level == 2:  # not at level 1
        assert (line, testid) not in native(f, 1)
    ref = udv_ids(f, level)
    if udvalidate(required=False):
        assert (line, testid) in ref, ref


def head_sentences(src: Path, dst: Path, n: int = 300) -> None:
    """The first N sentences of SRC (comments, lines and their blank line) into DST."""
    out: list[str] = []
    for line in src.read_text(encoding="utf-8").splitlines(keepends=True):
        out.append(line)
        if not line.strip() and sum(1 for x in out if not x.strip()) >= n:
            break
    dst.write_text("".join(out), encoding="utf-8")


def test_treebanks_get_udvalidates_findings(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """No false error, no missed one: on the first 300 sentences of every treebank in
    ../shared/data, `validate --level 2 --json` without udvalidate gives, test id by
    test id, as many findings as udvalidate at level 2 (issue 49, item 2)."""
    data = shared_path("data")
    prog = udvalidate()
    files = sorted(p for p in data.glob("*/*.conllu"))
    firsts = {p.parent.name: p for p in reversed(files)}  # each treebank's first file
    assert len(firsts) >= 10, sorted(firsts)
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))  # no udvalidate: native only
    monkeypatch.delenv("PARSEBENCH_UDVALIDATE", raising=False)
    for name, src in sorted(firsts.items()):
        f = tmp_path / f"{name}.conllu"
        head_sentences(src, f)
        got = cli("validate", "--level", "2", "--json", str(f))
        data_ = json.loads(got.stdout)
        assert data_["udvalidate"] is None
        native = Counter(x["kind"] for x in data_["findings"])
        assert prog is not None
        ref = Counter(x.kind.partition("/")[2] for x in run_udvalidate(prog, str(f), 2, "ud"))
        assert native == ref, name


def test_a_check_made_natively_is_reported_once_beside_udvalidate(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    program = udvalidate()
    assert program is not None
    monkeypatch.setenv("PARSEBENCH_UDVALIDATE", program)
    f = tmp_path / "no-id.conllu"
    f.write_text("1\ta\ta\tNOUN\t_\t_\t0\troot\t_\t_\n\n")
    found = pb.validate(f, level=2).to_dict()["findings"]
    ids = [(x["line"], x["kind"].split("/", 1)[-1]) for x in found]
    assert ("missing-sent-id" in {k for _, k in ids}) and len(ids) == len(set(ids))
