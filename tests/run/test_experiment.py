"""`parsebench run` and `report`: experiment files, the store and its parse cache, resume
after kill -9, identical results with 1 and 2 workers and on Dask, and the HTML report
rendered by headless Chromium."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, ROOT, error_text, needs, shared_path
from experiments import write_exp

from parsebench.common.errors import InputError
from parsebench.parsers.executor import Executor
from parsebench.run.experiment import load
from parsebench.run.runner import run_experiment
from parsebench.store import Store

DEMO_TEXT = ROOT / "src" / "parsebench" / "data" / "demo" / "sample.txt"
ARTIFACTS = ROOT / "test-artifacts"


def cli(*args: str, **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *args], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, **kw)


def lg_exp(tmp: Path, rates: str = "[0.05, 0.10]", limit: int = 12) -> Path:
    return write_exp(tmp, f'''
[corpus]
path = "{DEMO_TEXT}"
limit = {limit}
[noise]
rates = {rates}
replicates = 2
seed = 3
[[parsers]]
name = "lg"
spec = "linkgrammar"
accuracy = 0.8
''')


def udpipe_exp(tmp: Path, limit: int, rates: str, extra: str = "") -> Path:
    """UDPipe on the first LIMIT sentences of EWT test (gold), 2 replicates a level."""
    needs("ufal.udpipe")
    corpus = shared_path("data/ud-english-ewt/en_ewt-ud-test.conllu")
    model = shared_path("models/en_ewt.udpipe")
    return write_exp(tmp, f'''
[corpus]
path = "{corpus}"
limit = {limit}
[noise]
rates = {rates}
replicates = 2
[[parsers]]
name = "udpipe"
spec = "udpipe:{model}"
[metrics]
rows = ["head+deprel", "upos"]
''' + extra)


def comparable(store: Path) -> list[tuple[str, str, str, str, Any]]:
    """Every stored result except timings, which differ from run to run."""
    with Store(store) as st:
        return [(r.parser, r.metric, r.projection, r.level, r.value)
                for name, _ in st.experiments() for r in st.results(name)
                if r.metric != "speed"]


def run(exp: Path, store: Path, workers: int = 1, executor: str = "local") -> dict[str, Any]:
    with Store(store) as st:
        out = run_experiment(load(exp), st, Executor(executor, workers))
        return st.run_info(out.run_id)


# experiment files -------------------------------------------------------------------

def test_experiment_file_errors_name_file_and_line(tmp_path: Path) -> None:
    bad = write_exp(tmp_path, f'[corpus]\npath = "{DEMO_TEXT}"\n[noise]\nrate = [0.1]\n')
    with pytest.raises(InputError) as e:
        load(bad)
    assert e.value.line == 5 and "unknown key 'rate' in [noise]" in str(e.value)
    broken = write_exp(tmp_path, '[corpus\npath = "x"\n', "broken")
    p = cli("run", str(broken))
    assert p.returncode == 2
    assert error_text(p.stderr).startswith(f"parsebench: {broken}:2: not valid TOML")
    assert "Traceback" not in p.stderr
    missing = write_exp(tmp_path, '[corpus]\npath = "nowhere.conllu"\n[[parsers]]\n'
                        'name = "a"\nspec = "linkgrammar"\n', "missing")
    with pytest.raises(InputError, match=r"no such file") as e:
        load(missing)
    assert e.value.line == 3
    acc = write_exp(tmp_path, f'[corpus]\npath = "{DEMO_TEXT}"\n[noise]\nrates = [0.1]\n'
                    '[[parsers]]\nname = "a"\nspec = "linkgrammar"\naccuracy = 80\n', "acc")
    with pytest.raises(InputError, match="accuracy 80") as e:
        load(acc)
    assert e.value.line == 9


def test_paths_are_relative_to_the_experiment_file(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    shutil.copy(DEMO_TEXT, tmp_path / "sub" / "text.txt")
    (tmp_path / "sub" / "model.bin").write_bytes(b"x")
    p = write_exp(tmp_path / "sub", '[corpus]\npath = "text.txt"\n[noise]\nrates = [0.1]\n'
                  '[[parsers]]\nname = "a"\nspec = "udpipe:model.bin"\n')
    exp = load(p)
    assert exp.corpus == [tmp_path / "sub" / "text.txt"]
    assert exp.parsers[0].spec == f"udpipe:{(tmp_path / 'sub' / 'model.bin').resolve()}"
    assert exp.setting("rows") == ["default"] and exp.levels[0].label == "rate=0.1"


def test_store_refuses_other_files(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    with pytest.raises(InputError, match="not a parsebench store"):
        Store(other)
    text = tmp_path / "text.sqlite"
    text.write_text("hello\n" * 100)
    p = cli("report", str(text), "-o", str(tmp_path / "r"))
    assert p.returncode == 2 and "not a parsebench store" in p.stderr


# the cache, workers, Dask ------------------------------------------------------------

def test_cache_second_run_parses_nothing_and_new_level_parses_only_new(tmp_path: Path) -> None:
    needs("linkgrammar")
    exp = lg_exp(tmp_path)
    store = tmp_path / "s.sqlite"
    first = run(exp, store)
    assert first["parsed"] > 12 and first["cached"] == 0
    before = comparable(store)
    second = run(exp, store)
    assert second["parsed"] == 0 and second["cached"] == first["parsed"]
    assert comparable(store) == before
    more = lg_exp(tmp_path, "[0.05, 0.10, 0.20]")
    third = run(more, store)
    assert 0 < third["parsed"] < first["parsed"]  # only the sentences new at 20%
    assert third["cached"] == first["parsed"]
    with Store(store) as st:
        assert st.count_parses() == first["parsed"] + third["parsed"]
        stats = third["stats"]["parsers"]["lg"]
    assert stats["parsed_sentences"] == third["parsed"]


def test_same_results_with_one_and_two_workers_and_dask(tmp_path: Path) -> None:
    needs("linkgrammar")
    needs("distributed")
    exp = lg_exp(tmp_path, limit=20)
    one, two, dask = (tmp_path / f"{n}.sqlite" for n in ("one", "two", "dask"))
    run(exp, one, 1)
    run(exp, two, 2)
    info = run(exp, dask, 2, "dask")
    assert info["stats"]["executor"] == "dask" and info["parsed"] > 20
    a = comparable(one)
    assert any(m == "rows" for _, m, *_ in a) and any(m == "sentences" for _, m, *_ in a)
    assert comparable(two) == a
    assert comparable(dask) == a


def test_resume_after_kill_9_in_the_middle_of_parsing(tmp_path: Path) -> None:
    exp = udpipe_exp(tmp_path, 250, "[0.05, 0.10]")
    killed, clean = tmp_path / "killed.sqlite", tmp_path / "clean.sqlite"
    proc = subprocess.Popen([sys.executable, "-m", "parsebench.cli", "run", str(exp),
                             "--store", str(killed), "--report", str(tmp_path / "r1")],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    done_before = 0
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
        try:
            with sqlite3.connect(killed, timeout=5) as db:
                done_before = db.execute("SELECT count(*) FROM parses").fetchone()[0]
        except sqlite3.OperationalError:
            continue
        if done_before >= 100:
            break
    assert proc.poll() is None, "the run ended before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    with sqlite3.connect(killed) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        kept = db.execute("SELECT count(*) FROM parses").fetchone()[0]
        assert db.execute("SELECT count(*) FROM results").fetchone()[0] == 0
    assert kept >= done_before >= 100
    resumed = run(exp, killed)
    assert resumed["cached"] == kept  # nothing committed before the kill is parsed again
    fresh = run(exp, clean)
    assert resumed["parsed"] + kept == fresh["parsed"]
    with Store(killed) as a, Store(clean) as b:
        assert a.count_parses() == b.count_parses() == fresh["parsed"]
    assert comparable(killed) == comparable(clean)


# reports ------------------------------------------------------------------------------

def _chromium() -> str:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is not installed in CI")
        pytest.skip("chromium is not installed (make test installs Debian's chromium)")
    return exe


CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--disable-background-networking", "--disable-extensions", "--no-first-run",
                  "--mute-audio", "--hide-scrollbars"]


def test_report_renders_in_headless_chromium(tmp_path: Path) -> None:
    needs("linkgrammar")
    exe = _chromium()
    store = tmp_path / "s.sqlite"
    run(lg_exp(tmp_path), store)
    p = cli("report", str(store), "-o", str(tmp_path / "report"))
    assert p.returncode == 0, p.stderr
    page = tmp_path / "report" / "index.html"
    text = page.read_text(encoding="utf-8")
    # one script, the sentence browser's, inside the page: nothing loaded from elsewhere
    assert text.count("<script>") == 1 and " src='http" not in text and "<script src" not in text
    assert "src='data:image/svg+xml;base64," in text  # vector plots
    # a copy of the page that writes what the browser rendered into the DOM
    probe = tmp_path / "probe.html"
    probe.write_text(text.replace("</body>", """<script>
window.addEventListener('load', () => {
  const imgs = [...document.images];
  document.body.setAttribute('data-images', imgs.length);
  document.body.setAttribute('data-decoded', imgs.filter(i => i.naturalWidth > 100).length);
  document.body.setAttribute('data-tables', document.querySelectorAll('table').length);
  document.body.setAttribute('data-rows', document.querySelectorAll('tbody tr').length);
});</script></body>"""), encoding="utf-8")
    home = tmp_path / "home"
    env = dict(os.environ, HOME=str(home))
    dom = subprocess.run([exe, *CHROMIUM_FLAGS, f"--user-data-dir={home}/a",
                          "--virtual-time-budget=5000", "--dump-dom", probe.as_uri()],
                         capture_output=True, text=True, timeout=120, env=env)
    assert dom.returncode == 0, dom.stderr[-2000:]
    attrs = dict(part.split('="')[0:2] for part in dom.stdout.split("<body ", 1)[1]
                 .split(">", 1)[0].replace('" ', '"\x00').split("\x00") if '="' in part)
    attrs = {k.strip(): v.strip('"') for k, v in attrs.items()}
    assert int(attrs["data-images"]) == 3 == int(attrs["data-decoded"])
    assert int(attrs["data-tables"]) >= 5 and int(attrs["data-rows"]) >= 20
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "report-screenshot.png"
    shot.unlink(missing_ok=True)
    p = subprocess.run([exe, *CHROMIUM_FLAGS, f"--user-data-dir={home}/b",
                        "--window-size=1200,2400", f"--screenshot={shot}", page.as_uri()],
                       capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 0 and shot.stat().st_size > 50_000, p.stderr[-2000:]
    for name in ("index.md", "results.csv", "results.json"):
        assert (tmp_path / "report" / name).stat().st_size > 0
    md = (tmp_path / "report" / "index.md").read_text(encoding="utf-8")
    assert "Bigert et al., Tables 3-12" in md and "Kakkonen, Table 1" in md
    assert "side by side" in md and "signature: method:bigert-rows\\|projection:links" in md


def test_report_with_gold_deps_and_calibration(tmp_path: Path) -> None:
    dev = shared_path("data/ud-english-ewt/en_ewt-ud-dev.conllu")
    exp = udpipe_exp(tmp_path, 150, "[0.05]", f'''
[calibration]
path = "{dev}"
limit = 150
[report]
examples = [2]
''')
    store = tmp_path / "s.sqlite"
    p = cli("run", str(exp), "--store", str(store), "--workers", "2")
    assert p.returncode == 0, p.stderr
    assert "calibrated" in p.stdout and "UAS" in p.stdout
    with Store(store) as st:
        res = {(r.metric, r.projection, r.level): r for r in st.results("exp")}
    rows = res[("rows", "head+deprel", "rate=0.05")].value
    assert rows["gold"]["degr_real"]["mean"] > 0 and "degr_calibrated" in rows
    assert "calibration:ratio-to-upper-bound:300" in res[("rows", "head+deprel",
                                                          "rate=0.05")].signature
    clean = res[("deps", "deprel", "clean")].value
    noisy = res[("deps", "deprel", "rate=0.05")].value
    assert clean["las"]["f1"] > 0.75 and noisy["las"]["f1"] < clean["las"]["f1"]
    assert res[("examples", "deps", "chosen")].value[0]["sentence"] == 2
    # where the errors fall: every gold arc (the root's too) in one arc-length group, the
    # same gold arcs for the clean text and the noisy level (2 replicates pooled)
    words = clean["gold_words"]
    for d, copies in ((clean, 1), (noisy, 2)):
        arcs = d["breakdowns"]["arc-length"]
        assert list(arcs) == sorted(["1", "2", "3-6", "7+", "root"])
        assert sum(b["labeled"]["key"] for b in arcs.values()) == copies * words
        assert arcs["root"]["labeled"]["key"] == copies * 150
        lengths = d["breakdowns"]["sentence-length"]
        assert sum(b["labeled"]["key"] for b in lengths.values()) == copies * words
    assert sum(map(sum, clean["confusion"]["matrix"])) == words  # gold tokens: all aligned
    html = (tmp_path / "exp-report" / "index.html").read_text(encoding="utf-8")
    assert "calibrated degr." in html and "real degr." in html and "Table 18.3" in html
    assert "Where does noise hurt?" in html and "relation confusions" in html


def test_demo_runs_the_bundled_experiment(tmp_path: Path) -> None:
    needs("linkgrammar")
    p = cli("demo", "-o", str(tmp_path / "d"))
    assert p.returncode == 0, p.stderr
    assert f"report: {tmp_path / 'd' / 'report' / 'index.html'}" in p.stdout
    assert "link-grammar     rows       links" in p.stdout
    data = json.loads((tmp_path / "d" / "report" / "results.json").read_text())
    assert {r["metric"] for r in data[0]["results"]} >= {"rows", "sentences", "speed",
                                                         "examples"}


def test_direct_parse_objects_equal_the_conllu_round_trip() -> None:
    """The runner builds Parse objects straight from the analyses; files give the same."""
    from parsebench.formats.conllu import NO_HEAD
    from parsebench.model.parses import blank, from_outcome, from_sentence, to_conllu
    from parsebench.parsers.base import Analysis, Failure

    s = blank(["The", "cta", "sat", "."], ["# text = The cta sat ."])
    s.misc[1] = "Noise=trans|Orig=cat"
    outcomes = [Analysis(heads=[2, 3, 0, 3], deprels=["det", "nsubj", "root", "punct"],
                         upos=["DET", "NOUN", "VERB", "PUNCT"]),
                Analysis(links=[(0, 3, "WV"), (1, 2, "Ds**c"), (2, 3, "Ss"), (0, 4, "Xp")]),
                Analysis(upos=["DET", "NOUN", "VERB", "PUNCT"]),
                Failure("timeout after 1 s\nsecond line")]
    for o in outcomes:
        direct = from_outcome(s, o, "deps")
        via = from_sentence(to_conllu(s, o))
        assert direct == via, o
    assert from_outcome(s, outcomes[0], "deps").noise == [False, True, False, False]
    assert from_outcome(s, outcomes[3], "deps").heads == [NO_HEAD] * 4


def test_a_runs_record_gives_back_the_experiment(tmp_path: Path) -> None:
    """``export`` rebuilds a run's noisy versions from the record ``config()`` wrote:
    Experiment.from_config is its inverse, the methods' settings, the attack, the
    calibration and the alignment included (the record goes through JSON, as the store
    keeps it)."""

    from parsebench.run.experiment import Experiment

    rules = tmp_path / "rules.txt"
    rules.write_text("(NP^ NP)\n")
    corpus = f'[corpus]\npath = "{FIXTURES / "learner.conllu"}"\n'
    parser = '[[parsers]]\nname = "p"\nspec = "python:toy_parsers:WeakWord"\naccuracy = 0.9\n'
    cases = {
        "spelling": corpus + '[noise]\nrates = [0.05, 0.2]\nweights = {sub = 2}\n'
                    'keep_mix = true\n'
                    'replicates = 3\nseed = 7\n' + parser +
                    '[metrics]\ndeps = ["arc-length", "upos"]\nrows = ["head", "deprel"]\n'
                    f'flat = "{rules}"\nsentences = false\n'
                    '[attack]\nbudget = [1, 2]\ncandidates = 4\nqueries = 30\n'
                    f'[calibration]\npath = "{FIXTURES / "typos.conllu"}"\n',
        "grammar": corpus + '[noise]\nkind = "grammar"\nper_sentence = [1, 2]\n'
                   'types = ["M:DET", "R:WO"]\n' + parser + '[metrics]\ndeps = false\n',
        "corrected": f'[corpus]\npath = "{FIXTURES / "learner.conllu"}"\n'
                     f'corrected = "{FIXTURES / "typos.conllu"}"\nalignment = "errant"\n'
                     + parser,
    }
    for name, text in cases.items():
        f = tmp_path / f"{name}.toml"
        f.write_text(f'name = "{name}"\n' + text)
        exp = load(f)
        record = json.loads(json.dumps(exp.config(), sort_keys=True))
        back = Experiment.from_config(record)
        assert back.config() == exp.config(), name
        assert back.metrics == exp.metrics and back.attack == exp.attack, name
    assert load(tmp_path / "spelling.toml").setting("deps").by == ("deprel", "arc-length",
                                                                   "upos")


def test_every_setting_of_an_experiment_is_a_field_of_its_schema() -> None:
    """load(), config() and from_config() are derived from one list of fields: an
    attribute of Experiment that is not in it would be neither read nor recorded."""
    from dataclasses import fields

    from parsebench.run.experiment import FIELDS, Experiment

    names = [f.name for f in FIELDS]
    assert len(names) == len(set(names))
    assert {f.name for f in fields(Experiment)} - {"source"} == set(names)


def test_the_run_report_gives_the_realised_operation_mix(tmp_path: Path) -> None:
    """The Run table says how the misspellings' operations came out at each level, over its
    replicates, beside the asked-for weights: counted from the noisy versions stored."""
    from collections import Counter

    from conftest import FIXTURES

    # the run and its parser's workers find the toy parser
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        x for x in (str(FIXTURES), os.environ.get("PYTHONPATH")) if x)}
    for keep in (False, True):
        exp = write_exp(tmp_path, f'''
[corpus]
path = "{FIXTURES / "learner.conllu"}"
[noise]
rates = [0.1, 0.3]
replicates = 2
weights = {{sub = 1, ins = 1, del = 2, trans = 0}}
keep_mix = {"true" if keep else "false"}
[[parsers]]
name = "weak"
spec = "python:toy_parsers:WeakWord"
''', f"mix{int(keep)}")
        store, rep = tmp_path / f"s{int(keep)}.sqlite", tmp_path / f"r{int(keep)}"
        p = cli("run", str(exp), "--store", str(store), "--report", str(rep), env=env)
        assert p.returncode == 0, p.stderr
        md = (rep / "index.md").read_text(encoding="utf-8")
        with sqlite3.connect(store) as db:
            rows = db.execute("SELECT level, changes FROM noisy").fetchall()
        for level in ("rate=0.1", "rate=0.3"):
            ops = Counter(c[2] for lv, ch in rows if lv == level for c in json.loads(ch))
            n = sum(ops.values())
            assert n > 0 and not ops["trans"]
            mix = ", ".join(f"{op} {ops[op]} ({100 * ops[op] / n:.1f}%)"
                            for op in ("sub", "ins", "del", "trans"))
            assert f"| operations at {level} (realised; asked) | {mix}; asked sub 25.0%, " \
                   "ins 25.0%, del 50.0%, trans 0.0% |" in md, md
        assert ("kept as drawn (keep_mix)" in md) == keep
        assert ("gives way to another of its operations" in md) == (not keep)


def test_the_report_shows_parser_specs_as_written_not_resolved(tmp_path: Path) -> None:
    """Issue 59 item 6: a model path written relative to the experiment file was shown
    resolved to an absolute path (through symlinks) while the corpus stayed as written.
    The Run table shows what the user wrote; the run still finds the file."""
    import shutil

    import parsebench as pb

    shutil.copy(FIXTURES / "learner.conllu", tmp_path / "corpus.conllu")
    (tmp_path / "models").mkdir()
    shutil.copy(FIXTURES / "learner.conllu", tmp_path / "models" / "parses.conllu")
    exp = write_exp(tmp_path, '''
[corpus]
path = "corpus.conllu"
[[parsers]]
name = "given"
spec = "precomputed:models/parses.conllu"
[metrics]
deps = true
''')
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        got = pb.run(exp, store=Path("s.sqlite"), report=Path("r"))
    finally:
        os.chdir(here)
    assert got.results
    md = (tmp_path / "r" / "index.md").read_text()
    assert "| parsers | given (precomputed:models/parses.conllu) |" in md
    assert md.count("models/parses.conllu") == 1  # once, as written, never resolved


@pytest.mark.parametrize(("corpus_extra", "noise_extra", "message", "line"), [
    ('lang = "xx"\n', "", "wordfreq has no word list for language 'xx'; it has: ar, ", 5),
    ("", 'lexicon = "wordfreq:xx"\n', "wordfreq has no word list for language 'xx'", 7),
    ("", 'keyboard = "nope"\n', "unknown keyboard layout 'nope'; built in: ", 7)])
def test_a_noise_setting_is_refused_at_its_line(tmp_path: Path, corpus_extra: str,
                                                noise_extra: str, message: str,
                                                line: int) -> None:
    """Issue 59 item 10: lang = "xx", lexicon = "wordfreq:xx" and keyboard = "nope" were
    refused without the experiment file's line (and the language without the known
    ones)."""
    import parsebench as pb

    exp = write_exp(tmp_path, f'''
[corpus]
path = "{FIXTURES / 'learner.conllu'}"
{corpus_extra}[noise]
rates = [0.1]
{noise_extra}[[parsers]]
name = "r"
spec = "baseline:right"
''')
    with pytest.raises(pb.InputError) as e:
        pb.run(exp, store=tmp_path / "s.sqlite")
    assert message in e.value.message and e.value.line == line, (str(e.value), line)


def test_a_bad_profile_names_the_experiment_line_then_its_own(tmp_path: Path) -> None:
    """Issue 59 item 10: ``profile = "mc.toml"`` (not a profile) was refused at the
    profile's line 1 alone; now at the experiment file's line that names it, the
    profile's own line after."""
    import parsebench as pb

    (tmp_path / "mc.toml").write_text("x = 1\n", encoding="utf-8")
    exp = write_exp(tmp_path, f'''
[corpus]
path = "{FIXTURES / 'learner.conllu'}"
[noise]
rates = [0.1]
profile = "mc.toml"
[[parsers]]
name = "r"
spec = "baseline:right"
''')
    with pytest.raises(pb.InputError) as e:
        pb.run(exp, store=tmp_path / "s.sqlite")
    assert e.value.line == 7 and "mc.toml:1: not a noise profile" in e.value.message, \
        str(e.value)


def test_a_language_mismatch_under_corpora_does_not_say_corpus(tmp_path: Path) -> None:
    """Issue 59 item 10: a [[corpora]] table's lang against [noise] lang was told as
    "[corpus] lang", a table the file does not have."""
    import parsebench as pb

    exp = write_exp(tmp_path, f'''
[[corpora]]
name = "x"
lang = "de"
path = "{FIXTURES / 'learner.conllu'}"
[noise]
rates = [0.1]
lang = "en"
[[parsers]]
name = "r"
spec = "baseline:right"
''')
    with pytest.raises(pb.InputError) as e:
        pb.run(exp, store=tmp_path / "s.sqlite")
    assert "[corpus]" not in str(e.value) and "the corpus's lang = 'de'" in str(e.value)
    assert e.value.line == 9, str(e.value)
