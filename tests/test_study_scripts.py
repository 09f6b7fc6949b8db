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


def _validity_store(tmp: Path, prefix: str = "noise-validity") -> Path:
    """The two noise-validity experiments on the fixture's typo sentences (five times: 10
    sentences, 50 words, 15 natural typos), keyboard and profile noise at their rate, two
    replicates, into one store: baseline:random (its tree drawn from the words, so a
    misspelling redraws it) and baseline:right (a chain whatever the words: no harm).
    PREFIX names the pair (noise-validity-fr for the French one)."""
    from conftest import FIXTURES

    from parsebench.noise.make import learn_profile
    from parsebench.parsers.executor import Executor
    from parsebench.run.experiment import load
    from parsebench.run.runner import run_experiment
    from parsebench.store import Store

    typos = FIXTURES / "typos.conllu"
    learn_profile(typos, tmp / "p.json", lexicon=str(FIXTURES / "lexicon.txt"))
    store = tmp / "s.sqlite"
    paths = ", ".join([f'"{typos}"'] * 5)
    for name, extra in ((f"{prefix}-keyboard", ""),
                        (f"{prefix}-profile", 'profile = "p.json"\n')):
        toml = tmp / f"{name}.toml"
        toml.write_text(
            f'name = "{name}"\n[corpus]\npath = [{paths}]\ntypos_only = true\n'
            f'[noise]\nnatural = true\nreplicates = 2\nlexicon = "{FIXTURES / "lexicon.txt"}"\n'
            f'{extra}[[parsers]]\nname = "random"\nspec = "baseline:random"\n'
            '[[parsers]]\nname = "right"\nspec = "baseline:right"\n'
            '[metrics]\nrows = ["head+deprel", "head", "tag"]\nsentences = false\n'
            'deps = true\nf1 = false\n', encoding="utf-8")
        with Store(store) as st:
            run_experiment(load(toml), st, Executor("local", 1))
    return store


@pytest.fixture()
def validity(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    monkeypatch.syspath_prepend(str(ROOT / "scripts"))
    import noise_validity_doc

    yield noise_validity_doc
    for name in ("doc_template", "noise_validity_doc"):
        sys.modules.pop(name, None)


def test_noise_validity_doc_pairs_the_two_runs_figures(tmp_path: Path,
                                                       validity: ModuleType) -> None:
    from parsebench.store import Store

    mod = validity

    store = _validity_store(tmp_path)
    results = {}
    with Store(store) as st:
        for exp, _ in st.experiments():
            for r in st.results(exp):
                results[(exp.rsplit("-", 1)[1], r.parser, r.metric, r.projection,
                         r.level)] = r.value
    art = next(lvl for (_, _, m, _, lvl) in results if m == "rows"
               and lvl not in ("natural", "clean"))
    # the runs' own figures: the natural level's degradation, an artificial level's mean
    # over its replicates; LAS lost from the clean text
    nat = results[("keyboard", "random", "rows", "head", "natural")]
    want = [nat["gold"]["degr_real"]] + [
        sum(r["gold"]["degr_real"] for r in v["replicates"]) / len(v["replicates"])
        for v in (results[(k, "random", "rows", "head", art)]
                  for k in ("keyboard", "profile"))]
    las = {(k, lvl): results[(k, "random", "deps", "deprel", lvl)]["las"]["f1"]
           for k, lvl in (("keyboard", "clean"), ("keyboard", "natural"),
                          ("keyboard", art), ("profile", art))}
    lost = [las[("keyboard", "clean")] - las[k] for k in
            (("keyboard", "natural"), ("keyboard", art), ("profile", art))]

    template = tmp_path / "t.md"
    template.write_text(
        "<!-- table: en-harm -->\n\n<!-- table: en-prediction -->\n\n{{en_sentences}} "
        "{{en_words}} {{en_typos}} {{en_replicates}} {{en_profile_errors}} "
        "{{en_random_head_natural}} {{en_random_head_keyboard_ratio}} "
        "{{en_right_head_profile_ratio}} {{en_profile_inside}}/{{en_figures}}\n",
        encoding="utf-8")
    page = tmp_path / "page.md"
    mod.build(store, template, page)
    text = page.read_text(encoding="utf-8")
    pct = mod.pct
    harm_table = text.split("\n\n")[0]
    rows = {tuple(x.split(" | ")[:2]): x.split(" | ")[2:] for x in harm_table.splitlines()}
    assert [c.split()[0] for c in rows[("| random", "head degradation")]] == \
        [pct(w) for w in want]
    las_lost = rows[("| random", "LAS points lost")]
    assert [c.split()[0] for c in las_lost] == [pct(x) for x in lost]
    assert all(c.split(" ", 1)[1].startswith("[") for c in las_lost)
    # the chain never changes: no harm, and a ratio to no harm is n/a, not 0 or inf
    assert "| right | head degradation | 0.00 [0.00, 0.00] | 0.00 [0.00, 0.00] | " \
        "0.00 [0.00, 0.00] |" in text
    assert "| right | head degradation | n/a | n/a | +0.00 [+0.00, +0.00] |" in text
    # baselines predict no tags; the chain's head+deprel rows are never right (its labels
    # are dep): its degradation is undefined, n/a and nothing more
    assert "| random | tag degradation | n/a | n/a | n/a |" in text
    assert "| right | head+deprel degradation | n/a | n/a | n/a |" in text
    # the words and typos are the natural level's
    tail = text.rsplit("\n\n", 1)[1].split()
    assert tail[:5] == ["10", "50", "15", "2", "3"]
    assert tail[5] == pct(want[0])
    # the random trees gain from the typos (a natural harm below 0): a ratio to a gain
    # is n/a, as is one to no harm
    assert want[0] < 0
    assert tail[6] == "n/a" and tail[7] == "n/a"


def test_noise_validity_doc_gives_a_ratio_only_to_a_harm_resolved_above_0(
        validity: ModuleType) -> None:
    import numpy as np

    def harm(natural: list[float]) -> object:
        nat = np.array(natural)
        return validity.Harm({"natural": float(nat.mean()), "keyboard": 0.06},
                             {"natural": nat, "keyboard": np.full(len(nat), 0.06)})

    # a natural harm whose interval is above 0: the ratio and its paired interval
    point, iv = harm([0.02, 0.03, 0.04]).ratio("keyboard")  # type: ignore[attr-defined]
    assert round(point, 6) == 2.0 and iv is not None and iv[0] > 1.4 and iv[1] < 3.1
    # a gain (natural harm below 0): no ratio; a harm whose interval reaches 0 (the
    # resampled ratios run off to infinity): the ratio without its interval
    point, iv = harm([-0.03, -0.02, -0.01]).ratio("keyboard")  # type: ignore[attr-defined]
    assert np.isnan(point) and iv is None
    point, iv = harm([0.0, 0.03, 0.06]).ratio("keyboard")  # type: ignore[attr-defined]
    assert round(point, 6) == 2.0 and iv is None
    assert validity.ratio_cell(point, iv) == "2.00 n/a"


def test_noise_validity_doc_fills_the_french_pair_when_the_page_has_its_tables(
        tmp_path: Path, validity: ModuleType) -> None:
    store = _validity_store(tmp_path)
    template = tmp_path / "t.md"
    template.write_text("<!-- table: en-harm -->\n\n<!-- table: fr-harm -->\n\n"
                        "{{fr_sentences}} {{fr_typos}} {{fr_random_better}} "
                        "{{fr_random_worse}} {{fr_right_better}} {{fr_figures}}\n",
                        encoding="utf-8")
    page = tmp_path / "page.md"
    # the page asks for the French pair and the store has none: refused, nothing written
    with pytest.raises(SystemExit, match="noise-validity-fr-keyboard"):
        validity.build(store, template, page)
    assert not page.exists()
    _validity_store(tmp_path, "noise-validity-fr")
    validity.build(store, template, page)
    en, fr, tail = page.read_text(encoding="utf-8").split("\n\n")
    assert fr == en  # the same sentences and parsers as the English pair
    # the baselines label every word dep: no word right with its label, as written or
    # corrected, so no sentence parsed better or worse (counted, not n/a); of the
    # figures, tag has no statistics (no tags): 3 a parser
    assert tail.split() == ["10", "15", "0", "0", "0", "6"]


def test_noise_validity_doc_counts_the_sentences_parsed_better_as_written(
        validity: ModuleType) -> None:
    pair = validity.Pair.__new__(validity.Pair)
    # per sentence: words right with their label, gold words, system words
    las = {"clean": [[3, 5, 5], [4, 5, 5], [2, 5, 5], [5, 5, 5]],
           "natural": [[4, 5, 5], [4, 5, 5], [1, 5, 5], [5, 5, 5]]}
    pair.results = {("keyboard", "p", "deps", "deprel", lvl): {"stats": {"las": v}}
                    for lvl, v in las.items()}
    assert pair.changed("p") == (1, 1)
    assert pair.changed("q") is None  # no such parser: n/a, not 0


def test_noise_validity_doc_refuses_a_store_without_the_runs(tmp_path: Path,
                                                             validity: ModuleType) -> None:
    from parsebench.store import Store

    mod = validity

    with Store(tmp_path / "s.sqlite"):
        pass
    (tmp_path / "t.md").write_text("x\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="noise-validity-keyboard"):
        mod.build(tmp_path / "s.sqlite", tmp_path / "t.md", tmp_path / "page.md")
    assert not (tmp_path / "page.md").exists()


def test_noise_validity_doc_counts_the_typos_a_parser_met_in_training(
        validity: ModuleType) -> None:
    from conftest import FIXTURES

    typos = FIXTURES / "typos.conllu"
    # cant, tonite, recieved in 2 sentences of 4 and 6 words; all of them in "train" (the
    # same file), as words and as marked typos
    got = validity.seen("x", typos, [typos, typos])
    assert (got["x_seen_typos"], got["x_seen_sentences"], got["x_seen_words"],
            got["x_seen_rate"]) == ("6", "4", "20", "30.00")
    assert (got["x_train_typos"], got["x_train_sentences"], got["x_seen_word"],
            got["x_seen_typo_pct"]) == ("3", "2", "6", "100.00")
    assert (got["x_seen_split"], got["x_seen_grammar"]) == ("0", "0")


def test_noise_validity_doc_counts_split_typos_and_grammatical_slips(
        tmp_path: Path, validity: ModuleType) -> None:
    # GSD's way: "contre attaque" for contre-attaque (the typo's word heads a goeswith
    # piece) and "Il" for "Ils" (a feature corrected beside the form)
    f = tmp_path / "t.conllu"
    f.write_text(
        "1\tla\tle\tDET\t_\t_\t2\tdet\t_\t_\n"
        "2\tcontre\t_\tNOUN\t_\t_\t4\tnsubj\t_\tCorrectForm=contre-attaque\n"
        "3\tattaque\t_\tX\t_\t_\t2\tgoeswith\t_\t_\n"
        "4\tréussit\t_\tVERB\t_\t_\t0\troot\t_\t_\n\n"
        "1\tIl\til\tPRON\t_\t_\t2\tnsubj\t_\tCorrectForm=Ils|CorrectNumber=Plur\n"
        "2\tviennent\t_\tVERB\t_\t_\t0\troot\t_\t_\n\n"
        "1\tvoila\t_\tVERB\t_\t_\t0\troot\t_\tCorrectForm=voilà\n"
        "2\tattaque\t_\tNOUN\t_\t_\t1\tobj\t_\t_\n\n", encoding="utf-8")
    got = validity.seen("x", f, [f])
    assert (got["x_seen_typos"], got["x_seen_split"], got["x_seen_grammar"],
            got["x_train_split"]) == ("3", "1", "1", "1")


@pytest.fixture()
def multilingual(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    monkeypatch.syspath_prepend(str(ROOT / "scripts"))
    import multilingual_doc

    yield multilingual_doc
    for name in ("doc_template", "multilingual_doc"):
        sys.modules.pop(name, None)


def _multilingual_store(tmp: Path) -> Path:
    """The multilingual study's English experiment in small: the fixture's learner
    sentences (three times: 45 sentences), 5 and 10% misspelled, two replicates;
    baseline:random as the train- and baseline:left as the dev-trained 'parsers'."""
    from conftest import FIXTURES

    from parsebench.parsers.executor import Executor
    from parsebench.run.experiment import load
    from parsebench.run.runner import run_experiment
    from parsebench.store import Store

    learner = FIXTURES / "learner.conllu"
    toml = tmp / "en.toml"
    toml.write_text(
        f'name = "multilingual-en"\n[corpus]\npath = ["{learner}", "{learner}", "{learner}"]\n'
        f'[noise]\nrates = [0.05, 0.10]\nreplicates = 2\nlang = "en"\n'
        f'lexicon = "{FIXTURES / "lexicon.txt"}"\n'
        '[[parsers]]\nname = "udpipe-train"\nspec = "baseline:random"\n'
        '[[parsers]]\nname = "udpipe-dev"\nspec = "baseline:left"\n'
        '[metrics]\nrows = ["head+deprel"]\nsentences = false\ndeps = true\nf1 = false\n',
        encoding="utf-8")
    store = tmp / "s.sqlite"
    with Store(store) as st:
        run_experiment(load(toml), st, Executor("local", 1))
    return store


def test_multilingual_doc_fits_the_loss_per_percent_and_reads_bigert(
        tmp_path: Path, multilingual: ModuleType) -> None:
    from parsebench.store import Store

    store = _multilingual_store(tmp_path)
    res = {}
    with Store(store) as st:
        for r in st.results("multilingual-en"):
            res[(r.parser, r.metric, r.level)] = r.value
    models = tmp_path / "models"
    models.mkdir()
    (models / "en_train.udpipe.json").write_text(json.dumps(
        {"train": "en_ewt-ud-train.conllu", "sentences": 40, "seconds": 60.0}))
    (models / "en_train.mco.json").write_text(json.dumps({"seconds": 6.0}))
    template = tmp_path / "t.md"
    template.write_text("<!-- table: loss -->\n\n<!-- table: bigert -->\n\n"
                        "{{train_minutes}} {{trained_models}} {{en_udpipe_diff}} "
                        "{{bigert_cells}}\n", encoding="utf-8")
    page = tmp_path / "page.md"
    multilingual.build(store, template, page, models)
    loss, bigert, tail = page.read_text(encoding="utf-8").split("\n\n")
    rows = {r.split(" | ")[3]: r.split(" | ") for r in loss.splitlines()[2:]}
    # the slope through the origin of the points lost against the misspelled rate (%)
    for p in ("udpipe-train", "udpipe-dev"):
        las = {lvl: res[(p, "deps", lvl)]["las"]["f1"]
               for lvl in ("clean", "rate=0.05", "rate=0.1")}
        rate = {lvl: res[(p, "rows", lvl)]["error_level"]["mean"]
                for lvl in ("rate=0.05", "rate=0.1")}
        lost = {lvl: 100 * (las["clean"] - las[lvl]) for lvl in rate}
        want = sum(100 * rate[k] * lost[k] for k in rate) / sum(
            (100 * rate[k]) ** 2 for k in rate)
        assert rows[p][6].split()[0] == f"{100 * las['clean']:.2f}"
        assert rows[p][-1].split()[0] == f"{want:.2f}"
        assert rows[p][-1].split(" ", 1)[1].startswith("[")
        assert [c.split()[0] for c in rows[p][7:9]] == [f"{lost[k]:.2f}" for k in rate]
    assert rows["udpipe-train"][4] == "train, 40 sentences"
    assert rows["udpipe-dev"][4] == "n/a"  # (no sidecar: not made up)
    # Bigert's estimate and bounds: the runs' means over the replicates
    rnd = res[("udpipe-train", "rows", "rate=0.1")]
    line = next(x for x in bigert.splitlines() if x.startswith("| English | udpipe-train | 10%"))
    cells = line.split(" | ")
    assert cells[4] == f"{100 * rnd['degr_estimate']['mean']:.2f}"
    assert cells[3].split()[0] == f"{100 * rnd['gold']['degr_real']['mean']:.2f}"
    within = rnd["gold"]["within_bounds"]
    assert cells[6] == f"{round(2 * within)}/2"
    minutes, n, *rest = tail.split()
    assert (minutes, n) == ("1.1", "2")  # the sidecars' 66 s: 2 models
    cells_with_bounds = sum((v.get("gold") or {}).get("within_bounds") is not None
                            for (_, m, _), v in res.items() if m == "rows")
    assert rest[0][0] in "+-" and rest[-1] == str(cells_with_bounds)  # (paired difference)
    # the chain's labels are never right: no bounds, n/a, never a count of 0
    assert "| English | udpipe-dev | 10% | n/a | n/a | n/a | n/a | n/a |" in bigert


def test_multilingual_doc_refuses_a_store_without_the_study(
        tmp_path: Path, multilingual: ModuleType) -> None:
    from parsebench.store import Store

    with Store(tmp_path / "s.sqlite"):
        pass
    (tmp_path / "t.md").write_text("x\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="multilingual-LANG"):
        multilingual.build(tmp_path / "s.sqlite", tmp_path / "t.md", tmp_path / "page.md",
                           tmp_path)
    assert not (tmp_path / "page.md").exists()


def test_multilingual_doc_splits_the_variation_between_language_and_parser(
        multilingual: ModuleType) -> None:
    """Issue 58 item 4: "the loss is the language's more than the parser's", as shares of
    the slopes' sum of squares (a two-way additive decomposition): exact on a grid with
    no interaction, and on resamples (a leading axis) alike."""
    import numpy as np

    x = np.array([[1.0, 2.0], [3.0, 4.0]])  # languages 1.5 and 3.5, parsers 2 and 3
    assert multilingual.shares(x).tolist() == [0.8, 0.2, 0.0]
    y = np.array([[1.0, 2.0], [2.0, 1.0]])  # no main effect: all interaction
    assert multilingual.shares(y).tolist() == [0.0, 0.0, 1.0]
    many = multilingual.shares(np.stack([x, y]))
    assert many.shape == (2, 3) and many[1].tolist() == [0.0, 0.0, 1.0]


@pytest.fixture()
def pipelines(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    monkeypatch.syspath_prepend(str(ROOT / "scripts"))
    import pipelines_study

    yield pipelines_study
    sys.modules.pop("pipelines_study", None)


def test_pipelines_study_drops_tests_and_rankings(pipelines: ModuleType) -> None:
    """docs/pipelines.md's arithmetic: a drop with its interval, two parsers' drops
    compared on the same resamples, and how often two rankings agree."""
    import numpy as np

    clean = np.array([[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]])  # LAS (correct, gold, system)
    noisy = np.array([[1.0, 2.0, 2.0], [1.0, 2.0, 2.0]])
    got = pipelines.drop(clean, noisy)
    assert (got["clean"], got["las"], got["drop"], got["relative"]) == (1.0, 0.5, 0.5, 0.5)
    assert got["ci"] == (0.5, 0.5)  # every resample loses half
    d, p = pipelines.paired(clean, noisy, clean, clean)
    assert d == 0.5 and p <= 1
    assert pipelines.paired(clean, noisy, clean, noisy) == (0.0, 1.0)
    assert pipelines.concordance({"a": 1, "b": 2, "c": 3}, {"a": 1, "b": 3, "c": 2}) == \
        "2 of 3"


def test_pipelines_study_scores_misspelled_words_against_the_gold_tree(
        pipelines: ModuleType, tmp_path: Path) -> None:
    gold, noisy = tmp_path / "g.conllu", tmp_path / "n.conllu"
    gold.write_text("# text = the cat\n1\tthe\t_\tDET\t_\t_\t2\tdet\t_\t_\n"
                    "2\tcat\t_\tNOUN\t_\t_\t0\troot\t_\t_\n\n")
    noisy.write_text("# text = teh cat\n1\tteh\t_\t_\t_\t_\t_\t_\t_\tNoise=trans\n"
                     "2\tcat\t_\t_\t_\t_\t_\t_\t_\t_\n\n")
    out = pipelines.with_tree(gold, noisy).read_text()
    assert out == ("# text = teh cat\n1\tteh\t_\tDET\t_\t_\t2\tdet\t_\t_\n"
                   "2\tcat\t_\tNOUN\t_\t_\t0\troot\t_\t_\n\n")
