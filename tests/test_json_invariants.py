"""Two invariants over the JSON of every scoring command, on random treebanks: every
interval holds its figure, and every share lies in [0, 1]. A figure is the number beside
its interval (``ci95: {name: [lo, hi]}`` beside ``name``; a comparison's ``ci`` beside
its ``score`` or ``delta``), or a figure's F1 / headline measure."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import parsebench as pb
from parsebench.results import HEADLINES

SHARES = ("precision", "recall", "f1", "accuracy", "differs", "unlabeled", "labeled",
          "error_level", "acr_0n", "acr", "acc_lower", "acc_upper", "acc_estimate",
          "degr_lower", "degr_upper", "degr_estimate", "bracketing_recall",
          "bracketing_precision", "bracketing_fmeasure", "complete_match", "no_crossing",
          "two_or_less_crossing", "tagging_accuracy", "conformance")
"""Keys whose numbers are shares, wherever they stand."""


def _figure(v: Any) -> float | None:
    if isinstance(v, int | float) and not isinstance(v, bool):
        return float(v)
    if isinstance(v, dict):
        for k in HEADLINES:
            if isinstance(v.get(k), int | float):
                return float(v[k])
    return None


def intervals(obj: Any) -> Iterator[tuple[str, float, list[float]]]:
    """(name, figure, interval) of every interval in OBJ beside its figure."""
    if isinstance(obj, dict):
        for key in ("ci95",):
            cis = obj.get(key)
            if isinstance(cis, dict):
                for name, iv in cis.items():
                    point = _figure(obj.get(name))
                    if isinstance(iv, list) and len(iv) == 2 and None not in iv \
                            and point is not None:
                        yield name, point, iv
        if isinstance(obj.get("ci"), list) and None not in obj["ci"]:
            for name in ("score", "delta"):
                if isinstance(obj.get(name), int | float):
                    yield name, float(obj[name]), obj["ci"]
        for v in obj.values():
            yield from intervals(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from intervals(v)


def shares(obj: Any, key: str = "") -> Iterator[tuple[str, float]]:
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in ("ci95", "ci", "stats", "signature"):
                continue
            yield from shares(v, k)
    elif isinstance(obj, list):
        for v in obj:
            yield from shares(v, key)
    elif key in SHARES and isinstance(obj, int | float) and not isinstance(obj, bool):
        yield key, float(obj)


def _tree(draw: st.DrawFn, n: int) -> list[tuple[int, str]]:
    root = draw(st.integers(0, n - 1))
    out = []
    for i in range(n):
        head = 0 if i == root else draw(st.sampled_from([j + 1 for j in range(n) if j != i]))
        out.append((head, "root" if head == 0 else draw(st.sampled_from(["nsubj", "obj",
                                                                          "det"]))))
    return out


@st.composite
def banks(draw: st.DrawFn) -> tuple[str, str, str]:
    sizes = draw(st.lists(st.integers(1, 5), min_size=1, max_size=8))
    texts = ["", "", ""]
    for n in sizes:
        words = [f"w{i}" for i in range(n)]
        for k in range(3):
            forms = words if k < 2 else [w + ("x" if draw(st.booleans()) else "")
                                         for w in words]
            texts[k] += "".join(f"{i + 1}\t{f}\t{f}\tX\t_\t_\t{h}\t{r}\t_\t_\n"
                                for i, (f, (h, r)) in enumerate(zip(forms, _tree(draw, n),
                                                                    strict=True))) + "\n"
    return texts[0], texts[1], texts[2]


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(texts=banks())
def test_every_interval_holds_its_figure_and_every_share_is_a_share(
        tmp_path: Path, texts: tuple[str, str, str]) -> None:
    gold, system, noisy = (tmp_path / f"{n}.conllu" for n in ("gold", "system", "noisy"))
    for f, t in zip((gold, system, noisy), texts, strict=True):
        f.write_text(t)
    outs = {
        "eval deps": pb.evaluate_deps(gold, system).to_dict(),
        "compare": pb.compare(gold, [system, noisy], samples=200).to_dict(),
        "robustness rows": pb.robustness_rows(system, [noisy], gold=gold).to_dict(),
        "robustness sentences": pb.robustness_sentences(system, [noisy]).to_dict(),
        "robustness f1": pb.robustness_f1(system, noisy).to_dict(),
    }
    for command, out in outs.items():
        for name, point, (lo, hi) in intervals(out):
            assert lo - 1e-9 <= point <= hi + 1e-9, (command, name, point, lo, hi)
        for name, x in shares(out):
            assert math.isnan(x) or -1e-12 <= x <= 1 + 1e-12, (command, name, x)


def test_the_bracket_commands_give_shares() -> None:
    """EVALB's and the flat key's figures on the bundled trees: every share in [0, 1]."""
    data = Path(pb.__file__).parent / "data"
    gold, test = data / "demo-gold.mrg", data / "demo-test.mrg"
    for command, out in (("eval brackets", pb.evaluate_brackets(gold, test).to_dict()),
                         ("eval flat", pb.evaluate_flat(gold, test).to_dict())):
        got = list(shares(out))
        assert got, command
        for name, x in got:
            assert 0 <= x <= 1, (command, name, x)
