"""Two invariants over the JSON of every command, on random treebanks: every interval
holds its figure, and every share lies in [0, 1] with the counts it is made of beside it.
A figure is the number beside its interval (``ci95: {name: [lo, hi]}`` beside ``name``;
``ci95: [lo, hi]`` beside a ``rate``, ``value`` or ``difference``; a comparison's
``ci`` beside its ``score`` or ``delta``), or a figure's F1 / headline measure. A share
is checked against its numerator over its denominator (:func:`ratios`), or named in
:data:`NOT_RATIOS` with why it is none."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from conftest import FIXTURES, ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import parsebench as pb
from parsebench.model.results import HEADLINES

SHARES = ("precision", "recall", "f1", "accuracy", "differs", "unlabeled", "labeled",
          "error_level", "acr_0n", "acr", "acc_lower", "acc_upper", "acc_estimate",
          "degr_lower", "degr_upper", "degr_estimate", "bracketing_recall",
          "bracketing_precision", "bracketing_fmeasure", "complete_match", "no_crossing",
          "two_or_less_crossing", "tagging_accuracy", "conformance", "aligned_accuracy",
          "rate", "failure_rate", "edited_word_changed", "share_of_changes", "changed_rate",
          "changed_clean_accuracy", "acr_m0", "acr_mn", "acc_real", "aaa",
          "aab", "aba", "abb", "abc", "aab_share_of_changes", "changed_rows_clean_accuracy",
          "uas", "las", "p", "p_uncorrected", "score")
"""Keys whose numbers are shares, wherever they stand."""
SIGNED = ("degr_real",)
"""Ratios of counts that are no shares: the real degradation, 1 - acr_mn / acr_m0, is
below 0 where the noisy parse is right more often than the clean one."""

NOT_RATIOS = {
    "degr_lower": "Bigert et al.'s bound, a formula of acr_0n and the clean accuracy (eq. 6)",
    "degr_upper": "Bigert et al.'s bound, a formula of acr_0n and the clean accuracy (eq. 6)",
    "degr_estimate": "the mean of Bigert et al.'s two bounds",
    "acc_lower": "the clean accuracy times one minus a degradation bound",
    "acc_upper": "the clean accuracy times one minus a degradation bound",
    "acc_estimate": "the clean accuracy times one minus the degradation estimate",
    "f1": "the harmonic mean of two ratios: checked against its precision and recall",
    "bracketing_fmeasure": "the harmonic mean of two ratios: checked against them",
    "p": "a p-value, Holm-corrected: a formula of the uncorrected ones",
    "p_uncorrected": "a p-value, (1 + resamples at least as extreme) / (1 + samples): a "
                     "count of the resampling, not of the data",
    "relative_drop": "the relative change between two shares of by_errors (each checked)",
    "acr": "the clean accuracy given (--accuracy, or the run's accuracy); with the gold "
           "it is acr_m0, checked",
    "rate@noise": "noise's asked-for rate (a setting, as in the signature), not a count's",
}
"""Shares that are no ratio of counts in the output, and why (a ``{mean, std, min,
max}`` over replicates is a summary of shares: checked as a summary, its replicates each
as a share)."""

def _figure(v: Any) -> float | None:
    if isinstance(v, int | float) and not isinstance(v, bool):
        return float(v)
    if isinstance(v, dict):
        for k in HEADLINES:
            if isinstance(v.get(k), int | float):
                return float(v[k])
    return None


FIGURES = ("rate", "value", "difference", "failure_rate", "score")
"""The figure beside an interval given as a list (``ci95: [lo, hi]``)."""


def intervals(obj: Any) -> Iterator[tuple[str, float, list[float]]]:
    """(name, figure, interval) of every interval in OBJ beside its figure."""
    if isinstance(obj, dict):
        cis = obj.get("ci95")
        if isinstance(cis, dict):
            for name, iv in cis.items():
                point = _figure(obj.get(name))
                if isinstance(iv, list) and len(iv) == 2 and None not in iv \
                        and point is not None:
                    yield name, point, iv
        elif isinstance(cis, list) and None not in cis:
            name = next((k for k in FIGURES if isinstance(obj.get(k), int | float)), None)
            if name is not None:
                yield name, float(obj[name]), cis
        if isinstance(obj.get("ci"), list) and None not in obj["ci"]:
            for name in ("score", "delta"):
                if isinstance(obj.get(name), int | float):
                    yield name, float(obj[name]), obj["ci"]
        for v in obj.values():
            yield from intervals(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from intervals(v)


def _q(a: Any, b: Any) -> float | None:
    return a / b if isinstance(a, int | float) and isinstance(b, int | float) and b else None


def _f1(p: Any, r: Any) -> float | None:
    return 2 * p * r / (p + r) if isinstance(p, float) and isinstance(r, float) and p + r \
        else None


def ratios(d: dict[str, Any], parent: dict[str, Any], command: str, key: str
           ) -> dict[str, Any]:
    """Each share of D (PARENT's KEY) that is a ratio of counts, as its counts in D or
    PARENT give it: share key -> the ratio (None where the counts give none)."""
    out: dict[str, Any] = {}
    if {"correct", "gold", "system"} <= set(d) and d["correct"] is None:
        # n/a (a file without the column): no count, and every share n/a with it
        assert all(d.get(k) is None for k in ("precision", "recall", "f1", "gold",
                                              "system", "aligned")), d
        out.update(dict.fromkeys(("precision", "recall", "f1", "aligned_accuracy")))
    elif {"correct", "gold", "system"} <= set(d):  # a CoNLL 2018 metric (eval deps)
        c = d["correct"]
        out.update(precision=_q(c, d["system"]), recall=_q(c, d["gold"]),
                   f1=_q(2 * c, d["gold"] + d["system"]),
                   aligned_accuracy=_q(c, d.get("aligned")))
    if {"accuracy", "matched", "sentences"} <= set(d):  # UCM, LCM
        out["accuracy"] = _q(d["matched"], d["sentences"])
    if {"key", "answer", "matched"} <= set(d):  # Lin's
        out.update(recall=_q(d["matched"], d["key"]),
                   precision=_q(d.get("answer_matched", d["matched"]), d["answer"]))
        out["f1"] = _f1(out["precision"], out["recall"])
    if "valid_sentences" in d:  # EVALB's summary
        n = d["valid_sentences"]
        out.update(bracketing_recall=_q(d["matched"], d["gold_brackets"]),
                   bracketing_precision=_q(d["matched"], d["test_brackets"]),
                   complete_match=_q(d["complete_matches"], n),
                   no_crossing=_q(d["no_crossing_sentences"], n),
                   two_or_less_crossing=_q(d["two_or_less_crossing_sentences"], n),
                   tagging_accuracy=_q(d["correct_tags"], d["words"]))
        out["bracketing_fmeasure"] = _f1(out["bracketing_precision"],
                                         out["bracketing_recall"])
    if {"gold_brackets", "test_brackets", "recall"} <= set(d):  # EVALB's sentence row
        out.update(recall=_q(d["matched"], d["gold_brackets"]),
                   precision=_q(d["matched"], d["test_brackets"]))
    if "key_constituents" in d:  # the flat key's
        k = d["key_constituents"]
        out.update(recall=_q(d["matched"], k), precision=_q(d["matched"],
                                                            d["response_constituents"]),
                   conformance=_q(k - d["violated"], k))
    if "error_level" in d and isinstance(d["rows"], int):  # Bigert's rows, one file
        rows, changed = d["rows"], d.get("changed")
        out["error_level"] = _q(d["misspelled"], rows)
        if changed is not None and d["acr_0n"] is not None:
            out.update(acr_0n=_q(rows - changed, rows), differs=_q(changed, rows))
    if "share_of_changes" in d:  # a distance of Bigert's spread
        total = parent["_parent"]["changed"]
        out.update(share_of_changes=_q(d["changed"], total) if total else 0.0,
                   changed_rate=_q(d["changed"], d["rows"]) if d["rows"] else 0.0)
        if "changed_clean_correct" in d:
            out["changed_clean_accuracy"] = _q(d["changed_clean_correct"], d["changed"])
    if "case_rows" in d and isinstance(parent["rows"], int):  # Bigert's, with the gold
        n, rows = d["case_rows"], parent["rows"]
        m0, mn = n["aaa"] + n["aab"], n["aaa"] + n["aba"]
        out.update(acr_m0=_q(m0, rows), acr_mn=_q(mn, rows), acc_real=_q(mn, rows),
                   degr_real=_q(m0 - mn, m0))
    if "changed_rows_clean_correct" in d:  # Appendix A's assumption
        gold, figures = parent, parent.get("_parent", {})
        changed = figures.get("changed")
        out.update(aab_share_of_changes=_q(gold["case_rows"]["aab"], changed),
                   changed_rows_clean_accuracy=_q(d["changed_rows_clean_correct"], changed),
                   acr=gold["acr_m0"])
    if "gold" in d and isinstance(d["gold"], dict) and "acr_m0" in d["gold"] \
            and "case_rows" in d["gold"]:
        out["acr"] = None if d["gold"]["acr_m0"] != d["acr"] else d["gold"]["acr_m0"]
    if "aaa" in d and "case_rows" in parent:  # the case shares
        out.update({k: _q(v, parent["_parent"]["rows"])
                    for k, v in parent["case_rows"].items()})
    if isinstance(d.get("matched"), dict) and "failures" in d:  # Kakkonen's
        n, parsed = d["sentences"], d["sentences"] - d["failures"]
        out.update(unlabeled=_q(d["matched"]["unlabeled"], n),
                   labeled=_q(d["matched"]["labeled"], n))
    if key == "parsed_only":  # Kakkonen's without the failures
        parsed = parent["sentences"] - parent["failures"]
        out.update(unlabeled=_q(parent["matched"]["unlabeled"], parsed),
                   labeled=_q(parent["matched"]["labeled"], parsed))
    if "shared" in d:  # robustness F1
        out.update(precision=_q(d["shared"], d["ungrammatical_deps"]
                                - d["ungrammatical_error_deps"]),
                   recall=_q(d["shared"], d["grammatical_deps"] - d["grammatical_error_deps"]))
        out["f1"] = _f1(out["precision"], out["recall"])
    if "uas_correct" in d:  # robustness F1's attachment against a key
        out.update(uas=_q(d["uas_correct"], d["words"]), las=_q(d["las_correct"], d["words"]))
    if "rate" in d and "attacked" in d:  # attack's success
        out["rate"] = _q(d["sentences"], d["attacked"])
    if "rate" in d and "untouched" in d:  # attack's damage, invariance's changed words
        out["rate"] = _q(d["changed"], d["untouched"])
    if "failure_rate" in d:  # invariance
        out.update(failure_rate=_q(d["failed"], d["tested"]),
                   edited_word_changed=_q(d["edited_changed"], d["tested"]))
    if "score" in d and isinstance(d.get("counts"), dict):  # compare
        c, metric = d["counts"], parent["metric"]
        if metric in ("ucm", "lcm"):
            out["score"] = _q(c["correct"], c["gold"])
        elif "system" in c:  # a CoNLL 2018 F1
            out["score"] = _q(2 * c["correct"], c["gold"] + c["system"])
        elif "key_matched" in c:  # Lin's F1
            out["score"] = _f1(_q(c["answer_matched"], c["answer"]),
                               _q(c["key_matched"], c["key"]))
        elif "test" in c:  # EVALB's F
            out["score"] = _f1(_q(c["matched"], c["test"]), _q(c["matched"], c["gold"]))
        else:
            out["score"] = _q(c["matched"], c["key"]) if metric == "flat-recall" else \
                _q(c["key"] - c["violated"], c["key"])
    return out


COUNTS = ("matched", "case_rows", "counts")
"""Objects of counts whose keys may be share names (Kakkonen's ``matched``)."""
SKIPPED = ("ci95", "ci", "stats", "signature", "config", "settings")
"""Intervals, resampling statistics and settings: no shares."""


SUMMARY = {"mean", "std", "min", "max"}


def check_shares(command: str, obj: Any, parent: dict[str, Any] | None = None,
                 where: str = "", key: str = "") -> int:
    """Every share of OBJ in [0, 1] and equal to its counts' ratio, or named in
    NOT_RATIOS; the number of shares checked against their counts."""
    checked = 0
    if isinstance(obj, list):
        return sum(check_shares(command, v, parent, f"{where}/{k}", key)
                   for k, v in enumerate(obj))
    if not isinstance(obj, dict):
        return 0
    d = dict(obj)
    d["_parent"] = parent or {}
    want = ratios(d, parent or {}, command, key)
    for k, v in obj.items():
        at = f"{command}:{where}/{k}"
        if k in SKIPPED or (k in COUNTS and isinstance(v, dict)):
            continue
        if isinstance(v, dict) and set(v) == SUMMARY and k in SHARES:
            # a summary over replicates: not a ratio; each replicate's share is one
            assert v["min"] - 1e-12 <= v["mean"] <= v["max"] + 1e-12, (at, v)
            continue
        if isinstance(v, dict | list):
            checked += check_shares(command, v, d, f"{where}/{k}", k)
            continue
        if k not in SHARES + SIGNED or not isinstance(v, int | float) \
                or isinstance(v, bool):
            continue
        assert k in SIGNED or math.isnan(v) or -1e-12 <= v <= 1 + 1e-12, (at, v)
        if k in want and want[k] is not None:
            assert math.isclose(v, want[k], rel_tol=1e-9, abs_tol=1e-12), (at, v, want[k])
            checked += 1
        elif k in want and k != "acr":  # counts that give no ratio: the share is n/a
            assert v in (0.0, None), (at, v)  # EVALB's 0.00 of nothing
        else:
            assert k in NOT_RATIOS or f"{k}@{command}" in NOT_RATIOS \
                or key in NOT_RATIOS, f"{at}: a share without its counts"
    return checked


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


def check(command: str, out: Any) -> int:
    """Both invariants over one command's JSON; the shares checked against counts."""
    for name, point, (lo, hi) in intervals(out):
        assert lo - 1e-9 <= point <= hi + 1e-9, (command, name, point, lo, hi)
    return check_shares(command, out)


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
        "robustness rows, replicates": pb.robustness_rows(system, [noisy, system],
                                                          gold=gold).to_dict(),
        "robustness sentences": pb.robustness_sentences(system, [noisy]).to_dict(),
        "robustness f1": pb.robustness_f1(system, noisy, gold=gold).to_dict(),
    }
    for command, out in outs.items():
        assert check(command, out), command


def test_the_bracket_commands_give_shares() -> None:
    """EVALB's and the flat key's figures on the bundled trees: every share in [0, 1],
    each with its counts."""
    data = Path(pb.__file__).parent / "data"
    gold, test = data / "demo-gold.mrg", data / "demo-test.mrg"
    for command, out in (("eval brackets", pb.evaluate_brackets(gold, test).to_dict()),
                         ("eval flat", pb.evaluate_flat(gold, test).to_dict()),
                         ("compare", pb.compare(gold, [test, gold], metric="evalb",
                                                samples=200).to_dict())):
        assert check(command, out) >= 2, command


VOCAB = ("the", "dog", "saw", "cat", "big", "red", "house", "ran", "old", "man")
LEXICON = FIXTURES / "lexicon.txt"


@st.composite
def texts(draw: st.DrawFn) -> list[list[str]]:
    """A few sentences of alphabetic words (the attack misspells them), some with the
    toy parser's weak word."""
    return draw(st.lists(st.lists(st.sampled_from(VOCAB), min_size=2, max_size=6),
                         min_size=1, max_size=5))


@settings(max_examples=10, deadline=None)
@given(sentences=texts(), budget=st.integers(1, 2), parser=st.sampled_from(
    ["weak_word", "casey", "form_blind"]))
def test_attack_and_invariance_give_shares_with_their_counts(
        sentences: list[list[str]], budget: int, parser: str) -> None:
    """attack's and invariance's figures (the search and the checks themselves, with a
    toy parser in this process: the command adds only its settings)."""
    import sys

    sys.path.insert(0, str(FIXTURES))
    import toy_parsers
    from probe_data import LEX, US, counting
    from probe_data import tagged_corpus as tagged

    from parsebench.model.parses import blank
    from parsebench.probes.attack import AttackSettings, attack
    from parsebench.probes.invariance import check as invariance_check
    from parsebench.probes.invariance import make_edits

    fn = getattr(toy_parsers, parser)
    corpus = [blank(words, []) for words in sentences]
    _, got = attack(corpus, counting(fn), AttackSettings(budget=budget, queries=10), US, LEX)
    r = got.to_dict()
    # success and damage, of the attack and of the random baseline: each share that is
    # defined (damage is n/a where the budget left no word untouched) against its counts
    defined = [x["rate"] for part in (r, r.get("random", {})) for x in
               (part.get("success", {}), part.get("damage", {})) if x]
    assert check("attack", r) == sum(v is not None for v in defined)
    s = tagged()
    assert check("invariance", {"parsers": {parser: invariance_check(s, make_edits(s, budget),
                                                                     counting(fn))}}) >= 4


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(FIXTURES)]))
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)


def test_the_commands_json_and_a_runs_results_json(tmp_path: Path) -> None:
    """attack, invariance and noise as the commands print them, and results.json of a
    run (rows, sentences, deps and the attack, two replicates) with the toy parsers."""
    learner = FIXTURES / "learner.conllu"
    outs: dict[str, Any] = {}
    for command, args in (
            ("attack", ("attack", str(learner), "--parser", "python:toy_parsers:WeakWord",
                        "--queries", "10", "--lexicon", str(LEXICON), "-o", "a.conllu")),
            ("invariance", ("invariance", str(learner), "--parser",
                            "python:toy_parsers:Casey")),
            ("noise", ("noise", str(learner), "-o", "n.conllu", "--rate", "0.2",
                       "--replicates", "2", "--lexicon", str(LEXICON))),
            ("noise", ("noise", str(learner), "-o", "g.conllu", "--kind", "grammar",
                       "--per-sentence", "1"))):
        p = _cli(*args, "--json", cwd=tmp_path)
        assert p.returncode == 0, p.stderr
        outs[f"{command} {len(outs)}"] = json.loads(p.stdout)
    for command, out in outs.items():
        assert check(command.split()[0], out) or command.startswith("noise"), command
    for out in (outs["noise 2"], outs["noise 3"]):  # counts only: each within its whole
        for f in out["files"]:
            made = f.get("misspelled", f.get("errors"))
            assert 0 <= made <= f.get("eligible", f["words"]) <= f["words"], f
            assert sum(f.get("by_operation", f.get("by_type", {})).values()) == made, f
    exp = tmp_path / "exp.toml"
    exp.write_text(f'''name = "inv"
[corpus]
path = "{learner}"
[noise]
rates = [0.2]
replicates = 2
lexicon = "{LEXICON}"
[[parsers]]
name = "weak"
spec = "python:toy_parsers:WeakWord"
[[parsers]]
name = "second"
spec = "python:toy_parsers:SecondRoot"
[metrics]
deps = true
rows = ["head", "upos"]
[attack]
budget = [1]
queries = 10
''')
    p = _cli("run", str(exp), "--store", "s.sqlite", "--report", "rep", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    runs = json.loads((tmp_path / "rep" / "results.json").read_text())
    metrics = set()
    for run in runs:
        assert check("run summary", run["summary"]) == 0  # copies of the results' figures
        for r in run["results"]:
            metrics.add(r["metric"])
            # a share in each result but the timings and the drawn sentences
            assert check(f"run {r['metric']}", r["value"]) \
                or r["metric"] in ("speed", "examples"), r
    assert {"rows", "sentences", "deps", "attack"} <= metrics, metrics
