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
from conftest import FIXTURES, shared_path
from udeval_ref import udvalidate

import parsebench as pb
from parsebench.validation.validator import check_file, run_udvalidate

FIX = FIXTURES / "udeval"
BROKEN = """# text = a b c
1\ta\ta\tX\t_\t_\t2\tdep\t2:dep\t_
3\tb\tb\tX\t_\t_\t7\tdep\t2:dep|x\t_
2\tc\tc\tX\t_\t_\t2\tdep\t_\t_

1-9\tab\t_\t_\t_\t_\t_\t_\t_\t_
1\tx\tx\tX\t_\t_\t0\troot\t_\t_


1\tonly\tfour\tcolumns
2\tx\tx\tX\t_\t_\t1\tdep\t_\t_

1\tx\tx\tX\t_\t_\t0\troot\t_\t_
# a comment inside
2\tx\tx\tX\t_\t_\t1\tdep\t_\t_

# sent_id = 5
# text = x y
1\tx\tx\tX\t_\t_\t2\tdep\t_\t_
2\ty\ty\tX\t_\t_\t1\tdep\t_\t_

# sent_id = 6
# text = x y
1\tx\tx\tX\t_\t_\t9\tdep\t_\t_
2.1\tz\tz\tX\t_\t_\t1\tdep\t1:dep\t_
2\ty\ty\tX\t_\t_\t1\tdep\t_\t_
"""
BROKEN_1 = [
    (2, "word-id-sequence", "error"),           # 1, 3, 2 (no other check then)
    (6, "word-interval-out", "error"),          # 1-9 of one word
    (9, "empty-sentence", "error"),             # two blank lines in a row
    (10, "number-of-columns", "error"),         # four columns
    (14, "misplaced-comment", "error"),         # a comment inside
    (25, "misplaced-empty-node", "error"),      # 2.1 after word 1 (and HEAD 9 unseen)
    (26, "missing-empty-line", "error"),        # no blank line at the end
]
BROKEN_2 = sorted([*BROKEN_1, (19, "non-tree", "error")])  # 1 -> 2 -> 1, no root


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *args],
                          capture_output=True, text=True, check=False)


def test_every_finding_with_its_line(tmp_path: Path) -> None:
    """Each check at udvalidate's level, with its test id; as udvalidate, a sentence's
    first failing group of checks leaves the later ones unchecked (its ids wrong, its
    heads are not looked at), and udvalidate finds the same, line for line."""
    f = tmp_path / "broken.conllu"
    f.write_text(BROKEN, encoding="utf-8")
    r = pb.validate(f)
    assert not r.valid
    assert [(x.line, x.kind, x.severity) for x in r.findings] == BROKEN_1
    assert all(x.source == "parsebench" for x in r.findings)
    assert r.to_dict()["counts"]["word-id-sequence (parsebench)"] == 1
    assert r.to_dict()["severity"] == {"error": 7, "warning": 0}
    got2 = [(x.line, x.kind, x.severity) for x in check_file(f, 2)]
    assert got2 == BROKEN_2
    if udvalidate(required=False):
        assert udv_ids(f, 1) == native(f, 1) == sorted((n, k) for n, k, _ in BROKEN_1)
        assert udv_ids(f, 2) == native(f, 2) == sorted((n, k) for n, k, _ in BROKEN_2)


def test_exit_status_and_json(tmp_path: Path) -> None:
    good = cli("validate", str(FIX / "empty-node-no-head.conllu"))
    assert good.returncode == 0 and "valid: 1 file(s), 0 error(s)" in good.stdout
    f = tmp_path / "broken.conllu"
    f.write_text(BROKEN, encoding="utf-8")
    bad = cli("validate", str(f), str(FIX / "two-roots-system.conllu"), "--json")
    assert bad.returncode == 1
    data = json.loads(bad.stdout)
    assert data["valid"] is False and len(data["files"]) == 2
    assert data["level"] == 1 and {x["line"] for x in data["findings"]} == {2, 6, 9, 10, 14,
                                                                            25, 26}
    two = cli("validate", str(FIX / "two-roots-system.conllu"), "--level", "2", "--json")
    assert two.returncode == 1
    assert {"file": str(FIX / "two-roots-system.conllu"), "line": 1, "kind": "multiple-roots",
            "message": "several roots in the basic tree (HEAD 0): words 1, 2",
            "severity": "error", "source": "parsebench"} in json.loads(two.stdout)["findings"]
    assert cli("validate", str(tmp_path / "none.conllu")).returncode == 2
    usage = cli("validate", str(f), "--level", "7")
    assert usage.returncode == 2 and "--level 7: expected 1 to 5" in usage.stderr


def test_udvalidate_at_level_3(monkeypatch: pytest.MonkeyPatch) -> None:
    prog = Path(udeval_ref.udeval()).with_name("udvalidate")
    if not prog.exists():
        pytest.skip(f"no udvalidate beside {prog.parent}")
    monkeypatch.setenv("PARSEBENCH_UDVALIDATE", str(prog))
    r = pb.validate([FIX / "double-blank-line.conllu", FIX / "two-roots-system.conllu"],
                    level=3, lang="en")
    found = {(Path(x.file).name, x.line, x.kind, x.source) for x in r.findings}
    # udvalidate's own findings of parsebench's checks are listed once, as parsebench's
    assert ("double-blank-line.conllu", 3, "empty-sentence", "parsebench") in found
    assert ("two-roots-system.conllu", 1, "multiple-roots", "parsebench") in found
    assert not any(x[3] != "parsebench" and x[2].endswith(("/empty-sentence",
                                                           "/multiple-roots")) for x in found)
    assert ("double-blank-line.conllu", 4, "enhanced/edeps-identical-to-basic-trees",
            "udvalidate L3") in found  # one of a level parsebench does not check
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
    # issue 59 item 11: at level 2 its own level-2 checks ran: it says so, not "not
    # level 2's"
    two = [w for w in pb.validate(f, level=2).warnings if "udvalidate" in w]
    assert two == ["udvalidate is not installed: parsebench's own checks of levels 1 and 2 "
                   "ran, not the official validator's (pip install udtools, in its own "
                   "virtualenv)"]
    assert "level 3's checks are only the official's" in " ".join(r.warnings)


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


def put(old: str, new: str, text: str | None = None) -> str:
    """TEXT (the good sentence) with OLD, which it holds, made NEW."""
    text = good() if text is None else text
    assert old in text
    return text.replace(old, new, 1)


MWT = "\t_" * 8
LEVEL1 = [  # (text, the finding's line, udvalidate's test id)
    (put("\n2\t", "\n02\t"), 4, "invalid-word-id"),
    (good()[:-1], 4, "missing-empty-line"),
    (put("a b\n1\ta\ta", "a b\n1\ta\u0301\ta"), 3, "unicode-normalization"),
    (put("a b\n1\ta\ta", "a b\n1\ta\t a"), 3, "leading-whitespace"),
    (put("a b\n1\ta\ta", "a b\n1\ta\ta "), 3, "trailing-whitespace"),
    (put("a b\n1\ta\ta", "a b\n1\ta\ta  a"), 3, "repeated-whitespace"),
    (put("\tNOUN\t_\t_\t0", "\tNO UN\t_\t_\t0"), 3, "invalid-whitespace"),
    (put("\tNOUN\t_\t_\t0", "\tNOUN\t\t_\t0"), 3, "empty-column"),
    (put("\n2\t", "\n# x\n2\t"), 4, "misplaced-comment"),
    (good()[:-1] + " \n", 5, "pseudo-empty-line"),
    (good() + "\n" + good(2), 6, "empty-sentence"),
    ("# sent_id = x\n\n" + good(), 2, "empty-sentence"),
    (put("\n2\t", "\nx\n2\t"), 4, "invalid-line"),
    # the file ends in a comment: udvalidate reads it as the sentence's 11th line
    (good()[:-1] + "# x\n", 5, "number-of-columns"),
    (put("\t_\n2\t", "\n2\t"), 3, "number-of-columns"),
    (put("\n2\t", "\n3\t"), 3, "word-id-sequence"),
    (put("\n2\t", "\n1-2\tab" + MWT + "\n2\t"), 4, "misplaced-word-interval"),
    (put("\n2\t", "\n1.2\tz\tz\tX\t_\t_\t_\t_\t1:dep\t_\n2\t"), 4,
     "misplaced-empty-node"),
    (put("a b\n1\t", "a b\n2-1\tab" + MWT + "\n1\t"), 3, "reversed-word-interval"),
    (put("a b\n1\t", "a b\n1-3\tab" + MWT + "\n1\t"), 3, "word-interval-out"),
    (put("\n2\t", "\n2-2\tb" + MWT + "\n2\t",
         put("# text = a b\n1\t", "# text = ab\n1-2\tab" + MWT + "\n1\t")), 5,
     "overlapping-word-intervals"),
]
EMPTY_NODE = "1.1\tz\tz\tX\t_\t_\t{head}\t{rel}\t1:dep\t{misc}\n2\t"
LEVEL2 = [
    (put("# text = a b\n1\t", "# text = ab\n1-2\tab\tab" + MWT[2:] + "\n1\t"),
     3, "mwt-nonempty-field"),
    (good(feats="Number=Sing|Case=Nom"), 4, "unsorted-features"),
    (good(feats="Case=Nom|Case=Acc"), 4, "repeated-feature"),
    (good(feats="case=Nom"), 4, "invalid-feature"),
    (good(feats="Case=Nom,Acc"), 4, "unsorted-feature-values"),
    (good(feats="Case=Acc,Acc"), 4, "repeated-feature-value"),
    (put("\tNOUN\t_\t_\t0", "\tnoun\t_\t_\t0"), 3, "unknown-upos"),
    (put("\tnmod\t", "\tNMOD\t"), 4, "invalid-deprel"),
    (put("\tNOUN\t_\t_\t0", "\tNOUN\t\t_\t0"), 3, "empty-string-in-xpos"),
    (put("\t1\tnmod", "\t01\tnmod"), 4, "invalid-head"),
    (put("\t1\tnmod", "\t3\tnmod"), 4, "unknown-head"),
    (put("\t1\tnmod", "\t2\tnmod"), 4, "head-self-loop"),
    (put("\t1\tnmod", "\t0\tnmod"), 3, "multiple-roots"),
    (put("\t0\troot", "\t2\troot"), 3, "non-tree"),
    (good(deps="1nmod"), 4, "invalid-deps"),
    (good(deps="01:nmod"), 4, "invalid-ehead"),
    (good(deps="1.1:nmod"), 4, "unknown-ehead"),
    (good(deps="1:nmod|0:root"), 4, "unsorted-deps"),
    (good(deps="1:nmod|1:acl"), 4, "unsorted-deps-2"),
    (good(deps="1:nmod|1:nmod"), 4, "repeated-deps"),
    (good(deps="1:nmod|2:dep"), 4, "deps-self-loop"),
    (good(deps="1:NMOD"), 4, "invalid-edeprel"),
    (put("\tnmod\t", "\tnmodd\t"), 4, "unknown-udeprel"),
    (good(deps="1:nmodd|1:ref"), 4, "unknown-eudeprel"),
    (put("\n2\t", "\n" + EMPTY_NODE.format(head=1, rel="dep", misc="_")), 4,
     "empty-node-nonempty-field"),
    (good() + good(2).replace("0:root", "_").replace("1:nmod", "_"), 8,
     "edeps-only-sometimes"),
    (put("0:root", "2:dep"), 3, "unconnected-egraph"),
    (good(misc="Gloss=x||Ref=1"), 4, "empty-misc"),
    (good(misc="=x"), 4, "empty-misc-key"),
    (good(misc="Gloss= x"), 4, "misc-extra-space"),
    (good(misc="gloss=x"), 4, "misc-attr-typo"),
    (good(misc="Gloss=x|Gloss=y"), 4, "repeated-misc"),
    (put("# sent_id = s1\n", ""), 2, "missing-sent-id"),
    (put("# sent_id = s1", "# sent_id = "), 3, "invalid-sent-id"),
    (put("# text", "# sent_id = t\n# text"), 4, "multiple-sent-id"),
    (good() + good(), 8, "non-unique-sent-id"),
    (put("= s1", "= a/b/c"), 3, "slash-in-sent-id"),
    (put("# text", "# parallel_id = X\n# text"), 4, "invalid-parallel-id"),
    (put("# text", "# parallel_id = ewt/1\n# parallel_id = ewt/2\n# text"), 5,
     "multiple-parallel-id"),
    (put("# text", "# parallel_id = ewt/1\n# text") +
     put("# text", "# parallel_id = ewt/1\n# text", good(2)), 10, "non-unique-parallel-id"),
    (put("# text", "# parallel_id = ewt/1/alt2\n# text"), 4, "parallel-id-alt"),
    (put("# text", "# parallel_id = ewt/1/part1\n# text") +
     put("# text", "# parallel_id = ewt/1/part3\n# text", good(2)), 10, "parallel-id-part"),
    (put("# text = a b\n", ""), 2, "missing-text"),
    (put("# text = a b", "# text = a b\n# text = a b"), 4, "multiple-text"),
    (put("# text = a b", "# text ="), 3, "empty-text"),
    (put("# text = a b", "# text = a b "), 3, "text-trailing-whitespace"),
    (put("# text = a b", "# text = a c"), 4, "text-form-mismatch"),
    (put("# text = a b", "# text = ab"), 3, "missing-spaceafter"),
    (put("# text = a b", "# text = a b c"), 3, "text-extra-chars"),
    ("# newdoc\n# newdoc\n" + good(), 5, "multiple-newdoc"),
    ("# newpar\n# newpar\n" + good(), 5, "multiple-newpar"),
    (good(misc="SpaceAfter=No") + "# newpar\n" + good(2), 9, "spaceafter-newdocpar"),
    (good(misc="NoSpaceAfter=Yes"), 3, "nospaceafter-yes"),
    (good(misc="SpaceAfter=Yes"), 4, "spaceafter-value"),
    (put("\n2\t", "\n" + EMPTY_NODE.format(head="_", rel="_", misc="SpaceAfter=No")), 4,
     "spaceafter-empty-node"),
    (put("# text = a b\n1\ta\ta\tNOUN\t_\t_\t0\troot\t0:root\t_",
         "# text = ab\n1-2\tab" + MWT + "\n1\ta\ta\tNOUN\t_\t_\t0\troot\t0:root\t"
         "SpaceAfter=No"), 4, "spaceafter-mwt-node"),
]


@pytest.mark.parametrize(("text", "line", "testid"), LEVEL1 + LEVEL2)
def test_udvalidate_ids_natively(tmp_path: Path, text: str, line: int, testid: str) -> None:
    """Each language-independent check, on a small damaged file, with udvalidate's test
    id at its line and level; udvalidate, where installed, finds the same, no more and
    no less (issue 49, item 1)."""
    f = tmp_path / "damaged.conllu"
    f.write_text(text, encoding="utf-8")
    level = 1 if (text, line, testid) in LEVEL1 else 2
    got = native(f, level)
    assert (line, testid) in got, got
    if level == 2:  # not at level 1
        assert (line, testid) not in native(f, 1)
    if udvalidate(required=False):
        assert udv_ids(f, level) == got


def test_a_head_the_scorer_cannot_read_is_an_error_at_level_1(tmp_path: Path) -> None:
    """udvalidate looks at HEAD from level 2; parsebench's reader refuses a HEAD beyond
    the sentence, so level 1 says so in a kind of parsebench's own, which level 2 leaves
    to udvalidate's unknown-head."""
    f = tmp_path / "head.conllu"
    f.write_text(put("\t1\tnmod", "\t3\tnmod"), encoding="utf-8")
    assert native(f, 1) == [(4, "unreadable-head")]
    assert native(f, 2) == [(4, "unknown-head")]


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
    ../shared/data, `validate --json` at levels 1 and 2 without udvalidate gives the
    findings udvalidate gives at that level, test id by test id, line by line, each
    an error or a warning as there (issue 49, item 2)."""
    data = shared_path("data")
    prog = udvalidate()
    files = sorted(p for p in data.glob("*/*.conllu"))
    firsts = {p.parent.name: p for p in reversed(files)}  # each treebank's first file
    assert len(firsts) >= 10, sorted(firsts)
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))  # no udvalidate: native only
    monkeypatch.delenv("PARSEBENCH_UDVALIDATE", raising=False)
    assert prog is not None
    for name, src in sorted(firsts.items()):
        f = tmp_path / f"{name}.conllu"
        head_sentences(src, f)
        for level in (1, 2):
            got = cli("validate", "--level", str(level), "--json", str(f))
            data_ = json.loads(got.stdout)
            assert data_["udvalidate"] is None
            native = Counter((x["line"], x["kind"], x["severity"]) for x in data_["findings"])
            ref = Counter((x.line, x.kind.partition("/")[2], x.severity)
                          for x in run_udvalidate(prog, str(f), level, "ud"))
            assert native == ref, (name, level, sorted((native - ref).items())[:5],
                                   sorted((ref - native).items())[:5])


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


def test_crlf_line_ends_are_a_level_1_finding_once_a_file(tmp_path: Path) -> None:
    """Issue 59 item 19: CR LF line ends passed level 1; udvalidate says "Only the
    unix-style LF line terminator is allowed" (non-unix-newline), once a file."""
    from parsebench.validation.validator import check_file

    good = "# sent_id = 1\n# text = Hi\n1\tHi\thi\tINTJ\t_\t_\t0\troot\t_\t_\n\n"
    (tmp_path / "lf.conllu").write_bytes(good.encode())
    (tmp_path / "crlf.conllu").write_bytes(good.replace("\n", "\r\n").encode())
    assert [f.kind for f in check_file(tmp_path / "lf.conllu")] == []
    got = [(f.kind, f.line) for f in check_file(tmp_path / "crlf.conllu")]
    assert got == [("non-unix-newline", 1)]
