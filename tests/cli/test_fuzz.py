"""Every reader and command on malformed input: no traceback, exit 0 or 2 (1 only where
EVALB itself gives up), one line on error, and no output written when it fails.

A seeded generator mutates small valid inputs (byte flips, lines deleted, doubled or
swapped, truncation, tabs, brackets, Unicode digits, NUL, huge numbers, long lines,
bytes that are not UTF-8, empty files, CRLF) and runs each command through the
console script's entry point in this process. PARSEBENCH_FUZZ_N sets the number of
variants (default 600, about 15 s); run it with thousands by hand.
"""

from __future__ import annotations

import os
import random
import traceback
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import DATA, FIXTURES, error_text
from fuzzing import SEEDS, mutate, run

from parsebench.common.errors import InputError
from parsebench.run.experiment import load

N = int(os.environ.get("PARSEBENCH_FUZZ_N", "600"))

def commands(f: dict[str, Path], out: Path) -> list[tuple[str, str, list[str]]]:
    """(which input is fuzzed, name, argv) of every command; inputs by kind."""
    lex = str(FIXTURES / "lexicon.txt")
    return [
        ("conllu", "eval deps", ["eval", "deps", str(f["conllu"]),
                                 str(DATA / "lin-answer.conllu")]),
        ("answer", "eval deps --json", ["eval", "deps", str(DATA / "lin-key.conllu"),
                                        str(f["answer"]), "--json", "--by", "deprel"]),
        ("answer", "eval deps, MaltEval's analysis",
         ["eval", "deps", str(DATA / "lin-key.conllu"), str(f["answer"]), "--by", "depth",
          "--confusion", "deprel", "--no-punct", "--per-sentence", str(out)]),
        ("conllu", "eval deps --by arc-length --json",
         ["eval", "deps", str(f["conllu"]), str(f["conllu"]), "--by", "arc-length", "--json"]),
        ("labels", "eval deps --labels", ["eval", "deps", str(DATA / "lin-key.conllu"),
                                          str(DATA / "lin-answer.conllu"), "--labels",
                                          str(f["labels"])]),
        ("test-trees", "eval brackets", ["eval", "brackets", str(DATA / "demo-gold.mrg"),
                                         str(f["test-trees"])]),
        ("trees", "eval brackets --json", ["eval", "brackets", str(f["trees"]),
                                           str(DATA / "demo-test.mrg"), "--json"]),
        ("test-trees", "eval brackets --align", ["eval", "brackets", str(DATA / "demo-gold.mrg"),
                                                 str(f["test-trees"]), "--align", "--json"]),
        ("trees", "eval brackets --align --legacy",
         ["eval", "brackets", str(f["trees"]), str(DATA / "demo-test.mrg"), "--align",
          "--legacy"]),
        ("prm", "eval brackets --prm", ["eval", "brackets", str(DATA / "demo-gold.mrg"),
                                        str(DATA / "demo-test.mrg"), "--prm", str(f["prm"])]),
        ("conllu", "ablation", ["ablation", str(f["conllu"]), "--parser", "baseline:right",
                                "--parts", "lower,punct,segments", "--window", "5",
                                "--samples", "20", "--json"]),
        ("test-trees", "eval flat", ["eval", "flat", str(DATA / "demo-gold.mrg"),
                                     str(f["test-trees"]), "--json"]),
        ("trees", "flatten", ["flatten", str(f["trees"]), "--rules",
                              str(DATA / "demo-rules.txt"), "-o", str(out)]),
        ("rules", "flatten --rules", ["flatten", str(DATA / "demo-gold.mrg"), "--rules",
                                      str(f["rules"]), "-o", str(out)]),
        ("typos", "noise conllu", ["noise", str(f["typos"]), "-o", str(out), "--rate", "0.3",
                                   "--lexicon", lex, "--json"]),
        ("text", "noise text", ["noise", str(f["text"]), "-o", str(out), "--per-sentence", "1",
                                "--lexicon", lex]),
        ("typos", "noise --kind grammar", ["noise", str(f["typos"]), "-o", str(out), "--kind",
                                           "grammar", "--rate", "0.3", "--lexicon", lex,
                                           "--json"]),
        ("m2", "robustness sentences --alignment",
         ["robustness", "sentences", str(f["m2g"]), str(f["m2u"]), "--alignment",
          str(f["m2"])]),
        ("typos", "robustness rows", ["robustness", "rows", str(FIXTURES / "typos.conllu"),
                                      str(f["typos"]), "--accuracy", "0.9", "--json"]),
        ("typos", "robustness rows --gold", ["robustness", "rows", str(f["typos"]),
                                             str(FIXTURES / "typos.conllu"), "--gold",
                                             str(FIXTURES / "typos.conllu")]),
        ("trees", "robustness rows trees", ["robustness", "rows", str(DATA / "demo-gold.mrg"),
                                            str(f["trees"]), "--accuracy", "0.8"]),
        ("typos", "robustness sentences", ["robustness", "sentences",
                                           str(FIXTURES / "typos.conllu"), str(f["typos"]),
                                           "--json"]),
        ("typos", "robustness f1", ["robustness", "f1", str(FIXTURES / "typos.conllu"),
                                    str(f["typos"]), "--json"]),
        ("pharaoh", "robustness f1 pharaoh", ["robustness", "f1", str(f["lin6"]),
                                              str(f["lin6"]), "--alignment", str(f["pharaoh"])]),
        ("m2", "robustness f1 m2", ["robustness", "f1", str(f["m2g"]), str(f["m2u"]),
                                    "--alignment", str(f["m2"])]),
        ("answer", "compare", ["compare", str(DATA / "lin-key.conllu"), str(f["answer"]),
                               str(DATA / "lin-answer.conllu"), "--samples", "50", "--json"]),
        ("conllu", "compare, the gold fuzzed", ["compare", str(f["conllu"]),
                                                str(DATA / "lin-answer.conllu"), "--metric",
                                                "upos", "--samples", "20", "--all-pairs"]),
        ("test-trees", "compare --metric evalb", ["compare", str(DATA / "demo-gold.mrg"),
                                                  str(DATA / "demo-test.mrg"),
                                                  str(f["test-trees"]), "--metric", "evalb",
                                                  "--samples", "20"]),
        ("test-trees", "compare --metric flat-conformance",
         ["compare", str(DATA / "demo-gold.mrg"), str(f["test-trees"]), "--metric",
          "flat-conformance", "--test", "randomization", "--samples", "20", "--json"]),
        ("answer", "eval deps, every breakdown",
         ["eval", "deps", str(DATA / "lin-key.conllu"), str(f["answer"]), "--by",
          "direction", "--select", "deprel=subj,obj", "--confusion", "upos", "--json"]),
        ("conllu", "eval deps --by sentence-length",
         ["eval", "deps", str(f["conllu"]), str(DATA / "lin-answer.conllu"), "--by",
          "sentence-length", "--per-sentence", str(out)]),
        ("answer", "eval deps --align words", ["eval", "deps", str(DATA / "lin-key.conllu"),
                                               str(f["answer"]), "--align", "words",
                                               "--by", "deprel", "--json"]),
        ("answer", "eval deps --by upos --select upos", ["eval", "deps",
                                                         str(DATA / "lin-key.conllu"),
                                                         str(f["answer"]), "--by", "upos",
                                                         "--select", "upos=NOUN"]),
    ]


def _support(tmp: Path) -> dict[str, Path]:
    """Fixed inputs some commands need beside the fuzzed one."""
    from parsebench.formats.conllu import Sentence, write_conllu

    def sent(words: list[str]) -> Sentence:
        n = len(words)
        return Sentence(forms=words, lemmas=["_"] * n, upos=["X"] * n, xpos=["_"] * n,
                        feats=["_"] * n, heads=[0] + [1] * (n - 1), deprels=["dep"] * n,
                        deps=["_"] * n, misc=["_"] * n)

    files = {"lin6": tmp / "six.conllu", "m2g": tmp / "m2g.conllu", "m2u": tmp / "m2u.conllu"}
    with files["lin6"].open("w") as fh:
        write_conllu([sent(["a", "b", "c", "d"]), sent(["a", "b", "c", "d", "e", "f"])], fh)
    with files["m2g"].open("w") as fh:
        write_conllu([sent(["I", "can't", "sleep", "tonite"]),
                      sent(["The", "dog", "sat", "on", "the", "mat"])], fh)
    with files["m2u"].open("w") as fh:
        write_conllu([sent(["I", "cant", "sleep", "tonite"]),
                      sent(["The", "dog", "sat", "on", "the", "mat"])], fh)
    return files


def fuzz(tmp: Path, n: int, seed: int = 1) -> list[str]:
    """Run N variants; the problems found, one line each."""
    rng = random.Random(seed)
    problems: list[str] = []
    fixed = _support(tmp)
    out = tmp / "out" / "o.txt"
    out.parent.mkdir()
    cmds = commands({**fixed, **{k: tmp / f"in-{k}" for k in SEEDS}}, out)
    for k in range(n):
        kind, name, argv = cmds[k % len(cmds)] if k % 8 else ("toml", "experiment load", [])
        data = mutate(SEEDS[kind], rng)
        if rng.random() < 0.2:
            data = mutate(data, rng)
        src = tmp / f"in-{kind}"
        src.write_bytes(data)
        for f in out.parent.iterdir():
            f.unlink()
        if kind == "toml":
            try:
                load(src)
            except InputError as exc:
                if "\n" in str(exc):
                    problems.append(f"{name}: multi-line error {str(exc)!r}")
            except Exception:
                problems.append(f"{name}: {traceback.format_exc().splitlines()[-1]} on "
                                f"{data[:200]!r}")
            continue
        try:
            code, _, err = run(argv)
        except Exception:
            problems.append(f"{name}: {traceback.format_exc().splitlines()[-1]} on "
                            f"{data[:200]!r}")
            continue
        allowed = (0, 1, 2) if name.startswith("eval brackets") else (0, 2)
        if code not in allowed or "Traceback" in err:
            problems.append(f"{name}: exit {code} {err[-300:]!r} on {data[:200]!r}")
        elif code == 2 and (len(err.splitlines()) != 1
                            or not error_text(err).startswith("parsebench: ")):
            problems.append(f"{name}: not one line {err!r} on {data[:200]!r}")
        if code != 0 and list(out.parent.iterdir()):
            problems.append(f"{name}: exit {code} but wrote {list(out.parent.iterdir())}")
    return problems


def test_no_traceback_on_malformed_input(tmp_path: Path) -> None:
    problems = fuzz(tmp_path, N)
    assert not problems, f"{len(problems)} of {N} variants:\n" + "\n".join(problems[:20])


@pytest.mark.parametrize("kind", sorted(SEEDS))
def test_the_unmutated_inputs_are_accepted(tmp_path: Path, kind: str) -> None:
    """The seeds are valid, so that the fuzz test starts from inputs that work."""
    fixed = _support(tmp_path)
    out = tmp_path / "o.txt"
    files = {**fixed, **{k: tmp_path / f"in-{k}" for k in SEEDS}}
    for k, data in SEEDS.items():
        files[k].write_bytes(data)
    if kind == "toml":
        load(files["toml"])
        return
    ran: Callable[[list[str]], tuple[int, str, str]] = run
    for which, name, argv in commands(files, out):
        if which == kind:
            code, _, err = ran(argv)
            assert code == 0, (name, err)
