"""Lin's dependency-based evaluation and CoNLL 2018 UAS/LAS/CLAS."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import DATA, shared_path
from hypothesis import given, settings
from hypothesis import strategies as st

from parsebench.common.errors import InputError
from parsebench.formats.conllu import Sentence, parse_conllu, read_conllu
from parsebench.metrics.dependency.conll18 import CONLL18, SPAN_METRICS
from parsebench.metrics.dependency.evaluate import DepsOptions, score_deps
from parsebench.metrics.dependency.lin_scorer import LabelMap, Selection


def lin() -> tuple[list[Sentence], list[Sentence]]:
    return read_conllu(DATA / "lin-key.conllu"), read_conllu(DATA / "lin-answer.conllu")


def test_lin_table_18_1_unlabeled_5_of_6_labeled_4_of_6() -> None:
    key, ans = lin()
    r = score_deps(key[:1], ans[:1]).total
    assert (r.unlabeled.key, r.unlabeled.answer, r.unlabeled.key_found) == (6, 6, 5)
    assert r.unlabeled.precision == r.unlabeled.recall == 5 / 6
    assert (r.labeled.key_found, r.labeled.answer_found) == (4, 4)
    assert r.labeled.precision == r.labeled.recall == 4 / 6


@pytest.mark.parametrize(("select", "recall", "precision", "l_recall", "l_precision"), [
    ("deprel=obj1,obj2", 2 / 3, 1.0, 1 / 3, 1 / 2),   # Lin section 4: 66.7/100, 33.3/50
    ("deprel=subj", 1.0, 1 / 2, 1.0, 1 / 2),          # subjects: recall 100, precision 50
])
def test_lin_selective_evaluation(select: str, recall: float, precision: float,
                                  l_recall: float, l_precision: float) -> None:
    key, ans = lin()
    r = score_deps(key[:1], ans[:1], DepsOptions(select=[Selection.parse(select)])).total
    assert r.unlabeled.recall == recall
    assert r.unlabeled.precision == precision
    assert r.labeled.recall == l_recall
    assert r.labeled.precision == l_precision


def test_lin_table_18_5_25_percent() -> None:
    key, ans = lin()
    r = score_deps(key[1:], ans[1:])
    assert r.total.unlabeled.precision == r.total.unlabeled.recall == 0.25
    assert any("cycle" in w for w in r.warnings)  # scored although it is not a tree


def conll(rows: list[tuple[str, str, str]], mwt: dict[int, tuple[int, str]] | None = None) -> str:
    """rows: (form, head, deprel); mwt: word index -> (last word index, token form)."""
    lines = []
    for i, (form, head, rel) in enumerate(rows, 1):
        if mwt and i in mwt:
            last, tok = mwt[i]
            lines.append(f"{i}-{last}\t{tok}\t_\t_\t_\t_\t_\t_\t_\t_")
        lines.append(f"{i}\t{form}\t_\tX\t_\t_\t{head}\t{rel}\t_\t_")
    return "\n".join(lines) + "\n\n"


def test_fragments_make_precision_and_recall_differ() -> None:
    gold = parse_conllu(conll([("a", "2", "nsubj"), ("b", "0", "root"), ("c", "2", "obj")])
                        .splitlines())
    frag = parse_conllu(conll([("a", "2", "nsubj"), ("b", "0", "root"), ("c", "_", "_")])
                        .splitlines())
    r = score_deps(gold, frag)
    assert (r.total.unlabeled.key, r.total.unlabeled.answer) == (2, 1)
    assert r.total.unlabeled.precision == 1.0
    assert r.total.unlabeled.recall == 0.5
    assert r.total.uas.correct == 2  # a and b; c has no head
    assert any("without a head" in w for w in r.warnings)


def test_different_tokenization_is_aligned_on_characters() -> None:
    # gold: "don't go" as a multiword token do+n't; system splits "don" "'t"
    gold = parse_conllu(conll([("do", "3", "aux"), ("n't", "3", "advmod"), ("go", "0", "root")],
                              {1: (2, "don't")}).splitlines())
    system = parse_conllu(conll([("don", "3", "aux"), ("'t", "3", "advmod"),
                                 ("go", "0", "root")]).splitlines())
    r = score_deps(gold, system).total
    # Inside the multiword span the words align by LCS of forms: none of do/n't
    # equals don/'t, so only "go" aligns (and its root attachment is right).
    assert (r.uas.correct, r.uas.gold, r.uas.system) == (1, 3, 3)
    assert r.unlabeled.key == 2 and r.unlabeled.key_found == 0


def test_text_mismatch_is_a_clear_error() -> None:
    gold = parse_conllu(conll([("ab", "0", "root")]).splitlines(), "g.conllu")
    system = parse_conllu(conll([("a", "0", "root"), ("c", "1", "dep")]).splitlines(),
                          "s.conllu")
    with pytest.raises(InputError, match=r"s\.conllu:1: the text differs"):
        score_deps(gold, system, DepsOptions(gold_path="g.conllu", system_path="s.conllu"))


def test_misspelled_rows_are_aligned_row_by_row() -> None:
    gold = parse_conllu(conll([("the", "2", "det"), ("house", "0", "root")]).splitlines())
    noisy = parse_conllu(conll([("teh", "2", "det"), ("house", "0", "root")]).splitlines())
    r = score_deps(gold, noisy, DepsOptions(system_path="noisy"))
    assert r.total.unlabeled.key_found == 1 and r.total.uas.correct == 2
    assert r.warnings[0] == ("noisy: 1 word form(s) differ from the gold's; the files have "
                             "the same rows, so words are aligned row by row")
    # the files have UPOS only: the metrics of the other columns are n/a, each file named
    assert r.warnings[1:] == [
        f"{p} has no XPOS tags, no features, no lemmas: XPOS, UFeats, AllTags, Lemmas, MLAS, "
        "BLEX n/a" for p in ("GOLD", "noisy")]
    d = r.as_dict()
    assert d["upos"]["f1"] == 1.0 and d["xpos"]["f1"] is None and d["las"]["f1"] == 1.0


def test_label_map_makes_labels_equivalent(tmp_path: pytest.TempPathFactory) -> None:
    key, ans = lin()
    path = tmp_path / "map.txt"  # type: ignore[operator]
    path.write_text("obj1 obj2\n")
    r = score_deps(key[:1], ans[:1], DepsOptions(labels=LabelMap.read(path))).total
    assert r.labeled.key_found == 5  # bring's obj2/obj1 now agree


def test_groups_and_base_labels_select() -> None:
    sel = Selection.parse("deprel=@subject")
    assert {"nsubj", "csubj"} <= sel.values
    s = parse_conllu(conll([("a", "2", "nsubj:pass"), ("b", "0", "root")]).splitlines())
    assert sel.test(s[0], 0)
    with pytest.raises(InputError):
        Selection.parse("deprel=@nonsense")
    with pytest.raises(InputError):
        Selection.parse("lemma=x")


def test_by_deprel_uses_key_label_for_recall_and_answer_label_for_precision() -> None:
    key, ans = lin()
    r = score_deps(key[:1], ans[:1], DepsOptions(by="deprel"))
    assert r.by is not None
    subj = r.by["subj"].unlabeled
    assert (subj.key, subj.key_found, subj.answer, subj.answer_found) == (1, 1, 2, 1)
    obj2 = r.by["obj2"].unlabeled
    assert (obj2.key, obj2.answer) == (1, 0)


def test_ewt_against_itself_is_perfect() -> None:
    gold = read_conllu(shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu"))
    r = score_deps(gold, gold, DepsOptions(by="category"))
    t = r.total
    assert (len(gold), t.words.gold) == (2077, 25094)
    assert t.unlabeled.key == t.unlabeled.key_found == 25094 - 2077
    d = r.as_dict()
    for k in CONLL18:  # the span metrics have no aligned accuracy (null, as in the script)
        shares = {x: d[k][x] for x in ("precision", "recall", "f1", "aligned_accuracy")}
        assert shares == {"precision": 1.0, "recall": 1.0, "f1": 1.0,
                          "aligned_accuracy": None if k in SPAN_METRICS else 1.0}, k
        assert d[k]["correct"] == d[k]["gold"] == d[k]["system"] > 0, k  # and its counts
    assert (t.tokens.gold, t.sentences.gold) == (25094 - 354, 2077)  # 354 two-word tokens
    assert r.by is not None
    assert set(r.by) == {"weblog", "newsgroup", "email", "answers", "reviews"}
    assert sum(b.sentences for b in r.by.values()) == 2077


def test_ewt_against_a_corrupted_copy() -> None:
    path = shared_path("data/ud-english-ewt/en_ewt-ud-dev.conllu")
    gold = read_conllu(path)
    system = read_conllu(path)
    moved = relabeled = 0
    for s in system:
        n = len(s)
        # Re-attach the first word to another word when that stays a legal head.
        h = s.heads[0]
        if n >= 3 and h not in (0, 2):
            s.heads[0] = 2
            moved += 1
        # Relabel the last word (labels only).
        if s.heads[-1] != 0 and s.deprels[-1] != "dep":
            s.deprels[-1] = "dep"
            relabeled += 1
    t = score_deps(gold, system).total
    key = sum(len(s) for s in gold) - len(gold)
    assert t.unlabeled.key == key
    assert t.unlabeled.key_found == key - moved
    assert t.uas.correct == t.words.gold - moved
    # the relabeled words that kept their head lose the labeled match
    lost_label = sum(1 for g, s in zip(gold, system, strict=True)
                     if s.deprels[-1] == "dep" and g.deprels[-1] != "dep"
                     and s.heads[-1] == g.heads[-1])
    assert t.labeled.key_found == key - moved - lost_label
    assert relabeled >= lost_label > 1000


@st.composite
def trees(draw: st.DrawFn) -> list[tuple[str, str, str]]:
    n = draw(st.integers(1, 8))
    root = draw(st.integers(1, n))
    rows = []
    for i in range(1, n + 1):
        head = 0 if i == root else draw(st.sampled_from([h for h in range(1, n + 1) if h != i]
                                                        + ["_"]))
        rows.append((f"w{i}", str(head), draw(st.sampled_from(["nsubj", "obj", "det"]))))
    return rows


@settings(max_examples=150, deadline=None)
@given(trees(), trees())
def test_precision_and_recall_swap_when_key_and_answer_swap(
        a: list[tuple[str, str, str]], b: list[tuple[str, str, str]]) -> None:
    n = min(len(a), len(b))
    a, b = a[:n], [(f"w{i}", h if h == "_" or int(h) <= n else "0", r)
                   for i, (_, h, r) in enumerate(b[:n], 1)]
    a = [(f, h if h == "_" or int(h) <= n else "0", r) for f, h, r in a]
    sa = parse_conllu(conll(a).splitlines())
    sb = parse_conllu(conll(b).splitlines())
    ab = score_deps(sa, sb).total
    ba = score_deps(sb, sa).total
    assert ab.unlabeled.precision == ba.unlabeled.recall
    assert ab.labeled.recall == ba.labeled.precision
    same = score_deps(sa, sa).total
    assert same.unlabeled.key_found == same.unlabeled.key == same.labeled.answer_found
    assert 0.0 <= ab.uas.as_dict()["f1"] <= 1.0


def _whole(gold: list[Sentence], system: list[Sentence], by: str | None) -> dict[str, Any]:
    """The files aligned and scored in one piece, as before streaming."""
    from parsebench.metrics.dependency.conll18 import absent_metrics
    from parsebench.metrics.dependency.conll18 import held_columns as _columns
    from parsebench.metrics.dependency.evaluate import DepsResult, SentenceCounts
    from parsebench.metrics.dependency.stretch import count_stretch

    part = count_stretch(gold, system, (), [by] if by else [], None, "G", "S")
    has: tuple[set[str], set[str]] = (set(), set())
    for side, sents in zip(has, (gold, system), strict=True):
        for x in sents:
            _columns(x, side)
    total = SentenceCounts()
    for c in part.per_sentence:
        total.add(c)
    out = DepsResult(total, len(gold), part.per_sentence,
                     part.breakdowns[by] if by else None, by, [],
                     absent_metrics(has[1], has[0]), part.confusion,
                     breakdowns=part.breakdowns).as_dict()
    # intervals may differ: a system word that aligns with no gold word counts in the
    # gold sentence before it when the files are cut at a shared sentence end, in the
    # one after it when aligned whole; the totals are the same
    out.pop("ci95", None)
    out.pop("stats", None)
    return out


def _retokenized(gold: list[Sentence], rng: random.Random) -> list[Sentence]:
    """GOLD with some words split in two and some heads moved: another tokenizer's parse."""
    out = []
    for s in gold:
        forms, heads = list(s.forms), list(s.heads)
        if rng.random() < 0.5:
            i = rng.randrange(len(forms))
            if len(forms[i]) > 1:
                cut = rng.randrange(1, len(forms[i]))
                forms[i:i + 1] = [forms[i][:cut], forms[i][cut:]]
                heads = [h + 1 if h > i + 1 else h for h in heads]
                heads[i + 1:i + 1] = [i + 1]
        heads = [rng.randrange(len(forms) + 1) if rng.random() < 0.2 else h for h in heads]
        n = len(forms)
        out.append(Sentence(forms=forms, lemmas=["_"] * n, upos=["X"] * n, xpos=["_"] * n,
                            feats=["_"] * n, heads=heads, deprels=["dep"] * n,
                            deps=["_"] * n, misc=["_"] * n))
    return out


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.text(alphabet="abc", min_size=1, max_size=4), min_size=1,
                         max_size=6), min_size=1, max_size=8),
       st.integers(0, 10**6), st.sampled_from([None, "deprel", "upos"]))
def test_streamed_scores_equal_the_whole_files_scored_at_once(
        words: list[list[str]], seed: int, by: str | None) -> None:
    rng = random.Random(seed)
    gold = []
    for ws in words:
        n = len(ws)
        gold.append(Sentence(forms=ws, lemmas=["_"] * n, upos=["NOUN"] * n, xpos=["_"] * n,
                             feats=["_"] * n, heads=[0] + [rng.randrange(1, n + 1)
                                                           for _ in range(n - 1)],
                             deprels=[rng.choice(["nsubj", "obj", "dep"]) for _ in range(n)],
                             deps=["_"] * n, misc=["_"] * n))
    system = _retokenized(gold, rng)
    streamed = score_deps(iter(gold), iter(system), DepsOptions(by=by, gold_path="G",
                                                                system_path="S")).as_dict()
    streamed["warnings"] = []
    streamed.pop("ci95", None)
    streamed.pop("stats", None)
    assert streamed == _whole(gold, system, by)


def test_ewt_against_a_retokenized_parse_streams_to_the_same_numbers() -> None:
    gold = read_conllu(shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu"))[:600]
    system = _retokenized(gold, random.Random(1))
    for by in (None, "deprel", "category"):
        got = score_deps(iter(gold), iter(system), DepsOptions(by=by)).as_dict()
        got["warnings"] = []
        got.pop("ci95", None)
        got.pop("stats", None)
        assert got == _whole(gold, system, by)


def test_memory_stays_flat_while_streaming(tmp_path: Path) -> None:
    import tracemalloc

    from parsebench.formats.conllu import iter_conllu, write_conllu

    base = read_conllu(DATA / "lin-key.conllu")
    peaks = []
    for copies in (200, 800):
        f = tmp_path / f"g{copies}.conllu"
        with f.open("w", encoding="utf-8") as fh:
            write_conllu(base * copies, fh)
        tracemalloc.start()
        score_deps(iter_conllu(f), iter_conllu(f), DepsOptions(per_sentence=False))
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    assert peaks[1] < 1.5 * peaks[0], peaks  # 4x the sentences, not 4x the memory


def test_a_taggers_output_has_no_attachment_scores(tmp_path: Path) -> None:
    gold = read_conllu(DATA / "lin-key.conllu")
    tags = [replace(s, heads=[-1] * len(s), deprels=["_"] * len(s)) for s in gold]
    r = score_deps(gold, tags, DepsOptions(system_path="tags.conllu", per_sentence=False))
    d = r.as_dict()
    assert all(d[k]["f1"] is None and d[k]["precision"] is None
               for k in ("uas", "las", "clas", "unlabeled", "labeled"))
    assert any("no heads" in w and "n/a" in w for w in d["warnings"])
    from parsebench.metrics.dependency.figures import DepsEval
    from parsebench.metrics.dependency.lin_shown import deps_table
    text = deps_table(DepsEval.from_dict({**d, "signature": "sig"}), "g", "tags.conllu")
    assert "n/a" in text and " 0.00" not in text


def _depth_by_walking(heads: list[int], i: int) -> str | None:
    """Word I's depth as MaltEval counts it, walked up one head at a time (quadratic over a
    sentence: the reference for the one-pass computation)."""
    depth, j = 1, i
    while heads[j] > 0:
        j = heads[j] - 1
        depth += 1
        if depth > len(heads):
            return "cycle"
    if heads[j] != 0:
        return None
    return str(depth) if depth < 7 else "7+"


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 12).flatmap(
    lambda n: st.lists(st.integers(-1, n), min_size=n, max_size=n)))
def test_depth_in_one_pass_equals_walking_up_the_heads(heads: list[int]) -> None:
    """Any heads, cycles and fragments included: a 10,000-word chain took 12.9 s."""
    from parsebench.formats.conllu import Sentence
    from parsebench.metrics.dependency.lin_scorer import bucket_value as _bucket_value

    n = len(heads)
    s = Sentence(forms=["w"] * n, lemmas=["_"] * n, upos=["X"] * n, xpos=["_"] * n,
                 feats=["_"] * n, heads=heads, deprels=["dep"] * n, deps=["_"] * n,
                 misc=["_"] * n)
    assert [_bucket_value("depth", s, i) for i in range(n)] == \
        [_depth_by_walking(heads, i) for i in range(n)]


def _checkable(text: str, header: str, first: int) -> int:
    """The rows under HEADER: each precision and recall is its printed counts' ratio
    (counts from column FIRST: key, answer, in answer, in key, precision, recall for
    the breakdowns; key, in answer, answer, in key after three ratios for Lin's)."""
    lines = text.splitlines()
    at = next(k for k, ln in enumerate(lines) if ln.startswith(header))
    checked = 0
    for ln in lines[at + 1:]:
        cols = ln.split()
        if not ln.strip() or not cols[first].isdigit():
            break
        if header.startswith(" "):
            p, r = cols[1], cols[2]
            key, in_answer, answer, in_key = map(int, cols[4:8])
        else:
            key, answer, in_answer, in_key = map(int, cols[first:first + 4])
            p, r = cols[first + 4], cols[first + 5]
        assert p == (f"{100 * in_key / answer:.2f}" if answer else "n/a")
        assert r == (f"{100 * in_answer / key:.2f}" if key else "n/a")
        checked += 1
    return checked


def test_every_printed_ratio_is_checkable_from_the_printed_counts() -> None:
    """--select picks the key's arcs by the key's values and the answer's by the
    answer's: precision's matched count is not recall's ("answer 2062, matched 1871,
    precision 89.67" on EWT, where 1871/2062 = 90.74). Both are printed, and the text
    says that the CoNLL 2018 table is not restricted by the selection."""
    import subprocess
    import sys

    key, answer = str(DATA / "lin-key.conllu"), str(DATA / "lin-answer.conllu")

    def text(*args: str) -> str:
        p = subprocess.run([sys.executable, "-m", "parsebench.cli", "eval", "deps", key,
                            answer, *args], capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        return p.stdout

    got = text("--select", "deprel=obj1,obj2")
    # Lin section 4: recall 2/3, precision 2/2 (unlabeled)
    assert "unlabeled        100.00   66.67   80.00       3         2        2        2" \
        in got
    assert _checkable(got, "              precision", 4) == 2
    assert "Lin (the dependencies --select chose)" in got
    assert "CoNLL 2018 (the table of conll18_ud_eval.py -v); all words: --select does not " \
        "restrict it" in got
    assert "--select" not in text()
    for by in ("deprel", "category"):
        got = text("--by", by)
        assert _checkable(got, f"{by} ", 3 if by == "category" else 1) > 0
    got = text("--by", "arc-length")
    assert _checkable(got, "arc-length ", 1) > 0
def test_one_warning_a_cause_for_a_taggers_output() -> None:
    """A tagger's output was told 'words without a head (fragments)' and 'no heads (a
    tagger's output?)' of the same missing heads."""
    gold = read_conllu(DATA / "lin-key.conllu")
    tags = [replace(s, heads=[-1] * len(s), deprels=["_"] * len(s)) for s in gold]
    warnings = score_deps(gold, tags, DepsOptions(system_path="tags.conllu")).warnings
    assert [w for w in warnings if "head" in w] == [
        "tags.conllu has no heads (a tagger's output?): every attachment score is n/a"]
    # a parse with real fragments is still told so
    some = [replace(gold[0], heads=[-1, *gold[0].heads[1:]]), *gold[1:]]
    warnings = score_deps(gold, some, DepsOptions(system_path="some.conllu")).warnings
    assert "some.conllu: 1 sentence(s) have words without a head (fragments)" in warnings
    assert not any("tagger" in w for w in warnings)


def test_a_failed_parse_is_a_failure_not_a_fragment() -> None:
    """``parse`` marks a failure '# parse_status = failed' with no heads: one warning,
    the failure's, and its words count as attached wrong (not n/a)."""
    gold = read_conllu(DATA / "lin-key.conllu")
    first = gold[0]
    failed = replace(first, heads=[-1] * len(first), deprels=["_"] * len(first),
                     comments=[*first.comments, "# parse_status = failed"])
    r = score_deps(gold, [failed, *gold[1:]], DepsOptions(system_path="p.conllu"))
    assert r.failed == 1 and r.as_dict()["failed"] == 1
    assert [w for w in r.warnings if "head" in w or "fail" in w] == [
        f"p.conllu: 1 sentence(s) the parser failed on (first at line {first.line}): "
        "counted as failures, with no attachment"]
    words = sum(len(s) for s in gold)
    assert r.total.uas.correct == words - len(first) and r.total.uas.gold == words
    # every sentence failed: still failures, the attachment scores 0, not n/a
    every = [replace(s, heads=[-1] * len(s), deprels=["_"] * len(s),
                     comments=[*s.comments, "# parse_status = failed"]) for s in gold]
    r = score_deps(gold, every, DepsOptions(system_path="p.conllu"))
    assert r.failed == len(gold) and r.as_dict()["uas"]["f1"] == 0
    assert not any("tagger" in w for w in r.warnings)


def test_a_gold_word_without_a_head_is_said_with_its_file_and_line(tmp_path: Path) -> None:
    """Issue 59 item 12: a gold HEAD ``_`` was scored silently (LAS 99.61, no word; the
    official scorer refuses the file); the system side already warned."""
    import parsebench as pb

    gold, system = tmp_path / "g.conllu", tmp_path / "s.conllu"
    gold.write_text("# sent_id = a\n1\tThe\t_\tDET\t_\t_\t2\tdet\t_\t_\n"
                    "2\tcat\t_\tNOUN\t_\t_\t0\troot\t_\t_\n\n"
                    "# sent_id = b\n1\tDogs\t_\tNOUN\t_\t_\t2\tnsubj\t_\t_\n"
                    "2\tbark\t_\tVERB\t_\t_\t_\t_\t_\t_\n\n")
    system.write_text(gold.read_text().replace("\t_\t_\t_\t_\n\n", "\t0\troot\t_\t_\n\n"))
    got = pb.evaluate_deps(gold, system).to_dict()
    assert f"{gold}:5: 1 gold word(s) have no HEAD (_) in sentences that have heads: no " \
        "parser can attach them, so they count against every attachment score" in \
        got["warnings"]
    assert got["uas"]["correct"] == 3 and got["uas"]["gold"] == 4
    clean = pb.evaluate_deps(system, system).to_dict()
    assert not [w for w in clean["warnings"] if "no HEAD" in w]


def test_a_confusion_over_no_aligned_words_says_so(tmp_path: Path) -> None:
    """An empty system file scored with --align words --confusion upos: no label to
    put in the table (the fuzzer found max() of none)."""
    import subprocess
    import sys

    gold, system = tmp_path / "g.conllu", tmp_path / "s.conllu"
    gold.write_text("1\ta\t_\tX\t_\t_\t0\troot\t_\t_\n\n", encoding="utf-8")
    system.write_text("", encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "eval", "deps", str(gold),
                        str(system), "--align", "words", "--confusion", "upos"],
                       capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert "Traceback" not in p.stderr, p.stderr
    assert p.returncode == 0, p.stderr
    assert "Confusion (rows: gold, columns: system; aligned words): no aligned words" \
        in p.stdout
