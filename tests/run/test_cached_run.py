"""A run whose parses are all in the store starts no parser (so loads no model and
trains no tagger) and gives the same results; a partly cached run starts only the
parsers that still have work. Counted, not timed."""

from __future__ import annotations

import contextlib
import io
import sqlite3
import sys
from pathlib import Path

import pytest
from conftest import DATA, FIXTURES, calls_of

from parsebench.cli import main
from parsebench.parsers import pool
from parsebench.parsers.base import spec_identity

sys.path.insert(0, str(FIXTURES))  # python:toy_parsers:... in this process and its workers
import toy_parsers

TNT = f"nltk-tnt:{DATA / 'lin-key.conllu'}"
TOY = "python:toy_parsers:WeakWord"


def experiment(tmp: Path, specs: list[str]) -> Path:
    p = tmp / "cached.toml"
    parsers = "".join(f'[[parsers]]\nname = "p{k}"\nspec = "{s}"\n' for k, s in enumerate(specs))
    p.write_text(f'''name = "cached"
[corpus]
path = "{FIXTURES / 'typos.conllu'}"
[noise]
rates = [0.2]
replicates = 2
lexicon = "{FIXTURES / 'lexicon.txt'}"
{parsers}[metrics]
rows = ["upos"]
''', encoding="utf-8")
    return p


def run(tmp: Path, specs: list[str], store: Path, report: str,
        monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Run the experiment; the specs of the worker processes it started."""
    started: list[str] = []
    spawn = pool.Pool._spawn

    def counting(self: pool.Pool) -> object:
        started.append(self.spec)
        return spawn(self)

    monkeypatch.setattr(pool.Pool, "_spawn", counting)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            pytest.raises(SystemExit) as done:
        main(["run", str(experiment(tmp, specs)), "--store", str(store),
              "--report", str(tmp / report)])
    assert done.value.code == 0, err.getvalue()
    monkeypatch.setattr(pool.Pool, "_spawn", spawn)
    return started


def results(store: Path) -> list[tuple[str, ...]]:
    with contextlib.closing(sqlite3.connect(store)) as db:
        return db.execute("SELECT parser, metric, projection, level, signature, value "
                          "FROM results ORDER BY parser, metric, projection, level, "
                          "signature").fetchall()


def test_a_cached_rerun_starts_no_parser(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("nltk")
    store = tmp_path / "s.sqlite"
    assert run(tmp_path, [TNT], store, "r1", monkeypatch) == [TNT]
    first = results(store)
    report = {p.name: p.read_bytes() for p in (tmp_path / "r1").iterdir() if p.is_file()}
    # everything cached: no worker, so no model loaded and no tagger trained
    assert run(tmp_path, [TNT], store, "r2", monkeypatch) == []
    assert results(store) == first
    again = {p.name: p.read_bytes() for p in (tmp_path / "r2").iterdir() if p.is_file()}
    assert again.keys() == report.keys()
    assert again["results.csv"] == report["results.csv"]
    # the report differs only in the run's own account (parsed, cached, wall time)
    assert _without_run(again["index.md"]) == _without_run(report["index.md"])
    # one more parser: only it is started
    assert run(tmp_path, [TNT, TOY], store, "r3", monkeypatch) == [TOY]
    assert run(tmp_path, [TNT, TOY], store, "r4", monkeypatch) == []


def _without_run(md: bytes) -> list[str]:
    run = ("| sentences parsed", "| sentences from", "| wall time", "| p0: words parsed",
           "| p0: distinct", "| p0: parse wall", "| earlier run")
    return [line for line in md.decode().splitlines() if not line.startswith(run)]


def test_the_identity_from_the_spec_is_the_loaded_adapters() -> None:
    pytest.importorskip("nltk")
    from parsebench.parsers.base import make_adapter

    for spec in (TNT, "nltk-earley:english.cfg", f"precomputed:{FIXTURES / 'typos.conllu'}",
                 'command:"cat" -', TOY):
        assert spec_identity(spec) == make_adapter(spec).identity(), spec
    # an adapter that tells its identity only once loaded is asked in a worker
    assert OwnIdentity.spec_identity("x") is None


class OwnIdentity(toy_parsers.WeakWord):
    def identity(self) -> dict[str, str]:
        return {"adapter": "own", "loaded": "yes"}


def _reused(store: Path) -> list[str]:
    import json

    with contextlib.closing(sqlite3.connect(store)) as db:
        stats = db.execute("SELECT stats FROM runs ORDER BY id DESC LIMIT 1").fetchone()[0]
    return json.loads(stats)["scores_reused"]


def test_a_cached_rerun_scores_nothing_again_unless_settings_or_code_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every score comes from the parses, the settings and the code: with none of them
    changed, the stored scores are taken back (the same results, statistics included);
    a changed setting or other code scores again."""
    from parsebench.run import runner
    from parsebench.run.score import score as real

    store = tmp_path / "s.sqlite"
    run(tmp_path, [TOY], store, "r1", monkeypatch)
    first = results(store)
    calls: list[str] = []

    def counted(ctx: object) -> object:
        calls.append("score")
        return real(ctx)  # type: ignore[arg-type]

    monkeypatch.setattr(runner, "score", counted)
    pages = _pages(store)
    from parsebench import store as module

    decoded = calls_of(monkeypatch, module, "decode")
    run(tmp_path, [TOY], store, "r2", monkeypatch)
    assert calls == [] and _reused(store) == ["p0"]
    assert results(store) == first
    # speed, examples and the browser's data come back with the scores: no parse is read
    assert decoded == [] and _pages(store) == pages
    with contextlib.closing(sqlite3.connect(store)) as db:
        assert db.execute("SELECT count(*) FROM statistics").fetchone()[0] > 0
    monkeypatch.setattr(runner, "scoring_digest", lambda: "other code")
    run(tmp_path, [TOY], store, "r3", monkeypatch)
    assert calls == ["score"] and _reused(store) == []
    assert results(store) == first and _pages(store) == pages and decoded


def _pages(store: Path) -> list[tuple[str, ...]]:
    with contextlib.closing(sqlite3.connect(store)) as db:
        return db.execute("SELECT parser, kind, projection, level, value FROM pages ORDER "
                          "BY rowid").fetchall()


def test_a_cached_parse_that_does_not_read_is_one_error(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """A parse whose checksum holds but whose text is not a parse (a crafted store) is
    read only when its scores are needed, and is then one line naming the store."""
    from parsebench.run import runner
    from parsebench.store import checksum

    store = tmp_path / "s.sqlite"
    run(tmp_path, [TOY], store, "r1", monkeypatch)
    with contextlib.closing(sqlite3.connect(store)) as db, db:
        db.execute("UPDATE parses SET outcome='[1, 2]', checksum=? WHERE sentence=(SELECT "
                   "min(sentence) FROM parses)", (checksum("[1, 2]"),))
    run(tmp_path, [TOY], store, "r2", monkeypatch)  # its scores are reused: not read
    monkeypatch.setattr(runner, "scoring_digest", lambda: "other code")
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()), \
            pytest.raises(SystemExit) as done:
        main(["run", str(experiment(tmp_path, [TOY])), "--store", str(store),
              "--report", str(tmp_path / "r3")])
    assert done.value.code == 2
    assert err.getvalue().splitlines()[-1] == (
        f"parsebench: {store}: a cached parse of parser "
        f"{_parser_key(store)} is not what parsebench writes (damaged store?); delete the "
        "store or use another")


def _parser_key(store: Path) -> str:
    with contextlib.closing(sqlite3.connect(store)) as db:
        return str(db.execute("SELECT min(parser) FROM parses").fetchone()[0])


def test_a_report_written_again_draws_only_what_changed(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """The plots of a report folder are reused by a digest of their inputs: the same
    bytes as drawing them again, nothing drawn when nothing changed, and only the
    changed plots drawn when some did."""
    from parsebench.report import plots
    from parsebench.report.pages import DRAWINGS, write_report
    from parsebench.store import Store

    store = tmp_path / "s.sqlite"
    run(tmp_path, [TOY], store, "r1", monkeypatch)
    drawn, computed = plots.DRAWN[0], plots.COMPUTED[0]
    folder = tmp_path / "again"
    with Store(store) as st:
        write_report(st, folder)
        first = plots.DRAWN[0] - drawn
        pngs = {p.name: p.read_bytes() for p in (folder / "plots").iterdir()}
        html = (folder / "index.html").read_bytes()
        results_json = (folder / "results.json").read_bytes()
        assert first >= 3 and len(list((folder / DRAWINGS).glob("*.svg"))) == first
        # the paired tests and the headline's intervals: computed once, then kept
        assert plots.COMPUTED[0] - computed == 2
        assert len(list((folder / DRAWINGS).glob("*.value"))) == 2
        write_report(st, folder)  # nothing changed: nothing drawn, the same bytes
        assert plots.DRAWN[0] - drawn == first and plots.COMPUTED[0] - computed == 2
        assert {p.name: p.read_bytes() for p in (folder / "plots").iterdir()} == pngs
        assert (folder / "index.html").read_bytes() == html
        assert (folder / "results.json").read_bytes() == results_json
        # a damaged or edited drawing is not trusted: that one plot is drawn again
        victim = next((folder / DRAWINGS).glob("*.svg"))
        victim.write_bytes(b"<svg/>")
        write_report(st, folder)
        assert plots.DRAWN[0] - drawn == first + 1
        assert (folder / "index.html").read_bytes() == html
        # nor a kept value: an edited one is computed again, to the same report
        for k, value in enumerate((folder / DRAWINGS).glob("*.value")):
            text = value.read_text()
            value.write_text(text.replace("0", "1", 1) if k else text[:-5])
        write_report(st, folder)
        assert plots.COMPUTED[0] - computed == 4
        assert (folder / "index.html").read_bytes() == html
        assert (folder / "results.json").read_bytes() == results_json
    # a new result (another run's) changes the stored results: computed again
    run(tmp_path, [TOY, TNT], store, "r2", monkeypatch)
    computed = plots.COMPUTED[0]
    with Store(store) as st:
        write_report(st, folder)
    assert plots.COMPUTED[0] - computed == 2
    # a plot whose inputs changed is drawn; the others are reused; the unused dropped
    from parsebench.report.colours import for_parsers

    with plots.drawings(folder / DRAWINGS) as d, for_parsers(["p0"]):
        plots.time_by_length({"p0": [(3, 0.5), (5, 0.75)]})
        plots.time_by_length({"p0": [(3, 0.5), (5, 0.75)]})
        assert d.drawn == 1
    # the parsers' colours are among a plot's inputs: p0 in another colour is drawn again
    with plots.drawings(folder / DRAWINGS) as d, for_parsers(["p1", "p0"]):
        plots.time_by_length({"p0": [(3, 0.5), (5, 0.75)]})
        assert d.drawn == 1
    d.save(folder / DRAWINGS)
    assert len(list((folder / DRAWINGS).glob("*.svg"))) == 1  # the unused ones dropped


def test_a_cached_rerun_imports_no_numpy(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """With nothing new, nothing is resampled: the scores and the report's paired tests
    are kept, so NumPy (a tenth of a cached re-run's time) is not even imported."""
    import json
    import os
    import subprocess

    store = tmp_path / "s.sqlite"
    run(tmp_path, [TOY], store, "r1", monkeypatch)
    code = ("import sys\nfrom parsebench.cli import main\ntry:\n    main(sys.argv[1:])\n"
            "except SystemExit as e:\n    assert e.code == 0\n"
            "print('numpy' in sys.modules)")
    args = ["run", str(experiment(tmp_path, [TOY])), "--store", str(store), "--report",
            str(tmp_path / "r1")]
    env = {"PYTHONPATH": str(FIXTURES)}
    got = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                         env={**os.environ, **env}, check=True)
    assert json.loads(got.stdout.splitlines()[-1].lower()) is False, got.stderr
