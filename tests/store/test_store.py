"""A damaged or crafted store gives one clear message, never a traceback, a silently
different result or a script in the report; names from data stay inside the folders
given; a failed run or report leaves nothing behind; two runs never share a store."""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import DATA, FIXTURES, error_lines, error_text

from parsebench.cli import main
from parsebench.store import Store, checksum

CORPUS = FIXTURES / "typos.conllu"


def run_main(*args: str) -> tuple[int, str, str]:
    """The console script in this process: status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(args))
            code = 0
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


def experiment(tmp: Path, name: str = "tiny", spec: str | None = None) -> Path:
    p = tmp / f"{name}.toml"
    p.write_text(f'''name = "{name}"
[corpus]
path = "{CORPUS}"
[noise]
rates = [0.2]
replicates = 2
lexicon = "{FIXTURES / 'lexicon.txt'}"
[[parsers]]
name = "tnt"
spec = "{spec or f'nltk-tnt:{DATA / "lin-key.conllu"}'}"
[metrics]
rows = ["upos"]
[report]
examples = [1, 2]
''', encoding="utf-8")
    return p


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("nltk")
    tmp = tmp_path_factory.mktemp("store")
    code, _, err = run_main("run", str(experiment(tmp)), "--store", str(tmp / "s.sqlite"),
                            "--report", str(tmp / "rep"))
    assert code == 0, err
    return tmp / "s.sqlite"


def _results(path: Path) -> list[tuple[str, ...]]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        # speed is left out: a damaged parse is parsed again, in another time
        return db.execute("SELECT parser, metric, projection, level, value FROM results "
                          "WHERE metric != 'speed' ORDER BY parser, metric, projection, "
                          "level").fetchall()


def _assert_clean_failure(code: int, err: str, out_dir: Path) -> None:
    assert code in (0, 2), err
    assert "Traceback" not in err
    if code == 2:  # after the progress lines a report gets once it has run two seconds
        lines = error_lines(err)
        assert len(lines) == 1 and lines[0].startswith("parsebench: "), err
        assert not out_dir.exists(), "a failed report left files behind"


def test_crafted_rows_in_a_store(store: Path, tmp_path: Path) -> None:
    rng = random.Random(1)
    crafted = ["{", "[]", "null", "1", '{"rows": "x"}', '"\\ud800"', '{"a": [1, {"b": 2}]}',
               json.dumps({"differs": "<script>"}), "\xff\xfe", ""]
    with contextlib.closing(sqlite3.connect(store)) as db:
        rows = db.execute("SELECT rowid, signature, value FROM results").fetchall()
    tried = 0
    for k in range(40):
        s = tmp_path / f"c{k}.sqlite"
        shutil.copy(store, s)
        rowid, sig, _ = rng.choice(rows)
        value = rng.choice(crafted)
        with contextlib.closing(sqlite3.connect(s)) as db:
            if k % 2:  # with a checksum that matches: a crafted store, not a damaged one
                db.execute("UPDATE results SET value=?, checksum=? WHERE rowid=?",
                           (value, checksum(sig, value), rowid))
            else:
                db.execute("UPDATE results SET value=? WHERE rowid=?", (value, rowid))
            db.commit()
        code, _, err = run_main("report", str(s), "-o", str(tmp_path / f"r{k}"))
        _assert_clean_failure(code, err, tmp_path / f"r{k}")
        if k % 2 == 0:
            assert code == 2 and "damaged" in err
        code, _, err = run_main("export", str(s), "-o", str(tmp_path / f"e{k}"))
        assert code in (0, 2) and "Traceback" not in err, err
        tried += 1
    assert tried == 40


def test_byte_flips_and_truncation_never_give_a_traceback_or_other_numbers(
        store: Path, tmp_path: Path) -> None:
    """A flipped byte is refused, or the run parses again what was damaged and gives the
    very same results."""
    rng = random.Random(2)
    data = store.read_bytes()
    want = _results(store)
    exp = experiment(tmp_path)
    outcomes = {"refused": 0, "same": 0}
    for k in range(24):
        s = tmp_path / f"f{k}.sqlite"
        b = bytearray(data)
        if k % 4 == 3:
            b = b[:rng.randrange(len(b))]
        else:  # half of the flips in the first pages: the schema, the tables' roots
            for _ in range(1 + k % 3):
                at = rng.randrange(8192) if k % 2 else rng.randrange(len(b))
                b[at] ^= 1 << rng.randrange(8)
        s.write_bytes(bytes(b))
        code, _, err = run_main("report", str(s), "-o", str(tmp_path / f"r{k}"))
        _assert_clean_failure(code, err, tmp_path / f"r{k}")
        code, _, err = run_main("export", str(s), "-o", str(tmp_path / f"e{k}"))
        assert code in (0, 2) and "Traceback" not in err, err
        assert code == 0 or len(error_lines(err)) == 1, err
        code, _, err = run_main("run", str(exp), "--store", str(s), "--report",
                                str(tmp_path / f"run{k}"))
        assert code in (0, 2) and "Traceback" not in err, err
        if code == 2:  # the run's progress notes, then one line of error
            errors = [ln for ln in err.splitlines() if ln.startswith("parsebench: ")]
            assert len(errors) == 1 and err.strip().endswith(errors[0]), err
            outcomes["refused"] += 1
        else:
            assert _results(s) == want, f"flip {k} changed the results"
            outcomes["same"] += 1
    assert sum(outcomes.values()) == 24


def test_a_store_of_schema_1_is_upgraded(store: Path, tmp_path: Path) -> None:
    s = tmp_path / "old.sqlite"
    shutil.copy(store, s)
    with contextlib.closing(sqlite3.connect(s)) as db:
        for table in ("noisy", "parses", "results"):
            db.execute(f"ALTER TABLE {table} DROP COLUMN checksum")
        db.execute("UPDATE meta SET value='1' WHERE key='schema'")
        db.commit()
    code, _, err = run_main("report", str(s), "-o", str(tmp_path / "rep"))
    assert code == 0, err
    assert (tmp_path / "rep" / "index.html").exists()


def _as_schema_2(src: Path, dst: Path) -> None:
    """SRC written back the way schema 2 kept it: statistics inside the figures, the
    report's pages among the results, no tables of their own."""
    shutil.copy(src, dst)
    with contextlib.closing(sqlite3.connect(dst)) as db:
        for e, p, m, proj, lvl, name, rows in db.execute(
                "SELECT experiment, parser, metric, projection, level, name, rows FROM "
                "statistics").fetchall():
            sig, v = db.execute("SELECT signature, value FROM results WHERE experiment=? AND "
                                "parser=? AND metric=? AND projection=? AND level=?",
                                (e, p, m, proj, lvl)).fetchone()
            value = json.loads(v)
            value.setdefault("stats", {})[name] = json.loads(rows)
            t = json.dumps(value, ensure_ascii=False)
            db.execute("UPDATE results SET value=?, checksum=? WHERE experiment=? AND "
                       "parser=? AND metric=? AND projection=? AND level=?",
                       (t, checksum(sig, t), e, p, m, proj, lvl))
        for e, p, kind, proj, lvl, v, run in db.execute(
                "SELECT experiment, parser, kind, projection, level, value, run FROM pages"
                ).fetchall():
            db.execute("INSERT INTO results VALUES (?, ?, ?, ?, ?, '', ?, ?, ?)",
                       (e, p, kind, proj, lvl, v, run, checksum("", v)))
        db.execute("DROP TABLE statistics")
        db.execute("DROP TABLE pages")
        db.execute("UPDATE meta SET value='2' WHERE key='schema'")
        db.commit()


def test_a_store_of_schema_2_is_migrated_to_the_same_results(store: Path,
                                                             tmp_path: Path) -> None:
    """Schema 3 keeps per-sentence statistics and the report's pages in tables of their
    own; a store of schema 2 is moved over on open and reads back the same."""
    from parsebench.store import Store

    old = tmp_path / "v2.sqlite"
    _as_schema_2(store, old)
    with Store(store) as st:
        want = [r for n, _ in st.experiments() for r in st.results(n)]
    with Store(old) as st:
        got = [r for n, _ in st.experiments() for r in st.results(n)]
        assert st.statistics("tiny")  # moved to their table
    key = lambda r: (r.parser, r.metric, r.projection, r.level)  # noqa: E731
    assert sorted(got, key=key) == sorted(want, key=key)
    assert any("stats" in r.value for r in want if isinstance(r.value, dict))
    with contextlib.closing(sqlite3.connect(old)) as db:
        assert db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()[0] == "3"
        assert not db.execute("SELECT count(*) FROM results WHERE metric IN "
                              "('examples', 'browser') OR value LIKE '%\"stats\"%'"
                              ).fetchone()[0]
    # a damaged figure of schema 2 stays damaged after the move: refused, not reported
    bad = tmp_path / "v2-bad.sqlite"
    _as_schema_2(store, bad)
    with contextlib.closing(sqlite3.connect(bad)) as db:
        db.execute("UPDATE results SET value = replace(value, '0', '1') WHERE metric='rows'")
        db.commit()
    code, _, err = run_main("report", str(bad), "-o", str(tmp_path / "rep"))
    assert code == 2 and "damaged" in err and not (tmp_path / "rep").exists()


def test_a_store_of_a_newer_schema_is_refused_in_one_line(store: Path,
                                                          tmp_path: Path) -> None:
    s = tmp_path / "new.sqlite"
    shutil.copy(store, s)
    with contextlib.closing(sqlite3.connect(s)) as db:
        db.execute("UPDATE meta SET value='9' WHERE key='schema'")
        db.commit()
    code, _, err = run_main("report", str(s), "-o", str(tmp_path / "rep"))
    assert code == 2 and "schema '9'" in err and len(error_lines(err)) == 1


def test_everything_from_a_store_is_escaped_in_the_report(store: Path, tmp_path: Path) -> None:
    s = tmp_path / "x.sqlite"
    shutil.copy(store, s)
    evil = "<script>alert(1)</script>\"'&"
    with contextlib.closing(sqlite3.connect(s)) as db:
        rows = db.execute("SELECT rowid, value FROM results").fetchall()
        for rowid, value in rows:
            v = json.loads(value)
            if "error_level_label" in v:  # a method's figures (speed has no such key)
                v["error_level_label"] = evil
            t = json.dumps(v)
            db.execute("UPDATE results SET parser=?, level=?, projection=?, value=?, "
                       "signature=?, checksum=? WHERE rowid=?",
                       (evil, evil, evil, t, evil, checksum(evil, t), rowid))
        for rowid, value, kind in db.execute("SELECT rowid, value, kind FROM pages"
                                             ).fetchall():
            v = json.loads(value)
            if kind == "examples":
                for ex in v:
                    ex.update(sentence=evil, seed=evil, level=evil)
                    ex["clean_words"] = [evil] * len(ex["clean_words"])
            t = json.dumps(v)
            db.execute("UPDATE pages SET parser=?, value=?, checksum=? WHERE rowid=?",
                       (evil, t, checksum(kind, t), rowid))
        for rowid, cols, r in db.execute("SELECT rowid, columns, rows FROM statistics"
                                         ).fetchall():
            db.execute("UPDATE statistics SET parser=?, level=?, projection=?, signature=?, "
                       "checksum=? WHERE rowid=?", (evil, evil, evil, evil,
                                                    checksum(evil, cols, r), rowid))
        for table in ("runs", "results", "pages", "statistics"):
            db.execute(f"UPDATE {table} SET experiment=?", (evil,))
        db.commit()
    code, _, err = run_main("report", str(s), "-o", str(tmp_path / "rep"))
    assert code == 0, err
    page = (tmp_path / "rep" / "index.html").read_text()
    # the only scripts are the browser's own: its data element and its program
    assert page.lower().count("<script") == 2 and "<script>alert" not in page.lower()
    assert "<script" not in (tmp_path / "rep" / "index.md").read_text().lower()
    # plots stay in the report's folder, named after a safe form of the experiment name;
    # the drawings kept for the next report are named by their digests alone
    rep = tmp_path / "rep"
    assert all(p.parent == rep / "plots" for p in rep.rglob("*.png")
               if p.parent != rep / ".drawings")
    assert all(re.fullmatch(r"[0-9a-f]{32}\.(png|svg|json|value)", p.name)
               for p in (rep / ".drawings").iterdir())


@pytest.mark.parametrize("name", ["/abs", "../../x", "a\u0000b", "x" * 300, "tab\there"])
def test_unsafe_experiment_names_are_refused_at_load(tmp_path: Path, name: str) -> None:
    exp = experiment(tmp_path)
    text = exp.read_text().replace('name = "tiny"', f"name = {json.dumps(name)}")
    exp.write_text(text)
    code, _, err = run_main("run", str(exp), "--store", str(tmp_path / "s.sqlite"))
    assert code == 2 and error_text(err).startswith(f"parsebench: {exp}:1: name "), err
    assert list(tmp_path.iterdir()) == [exp]


def test_crafted_experiment_names_in_a_store_stay_inside_the_report(store: Path,
                                                                    tmp_path: Path) -> None:
    for name in ("/abs", "../../x", "..", "a/../../b"):
        s = tmp_path / "n.sqlite"
        shutil.copy(store, s)
        with contextlib.closing(sqlite3.connect(s)) as db:
            db.execute("UPDATE runs SET experiment=?", (name,))
            db.execute("UPDATE results SET experiment=?", (name,))
            db.commit()
        rep = tmp_path / "inner" / "rep"
        code, _, err = run_main("report", str(s), "-o", str(rep))
        assert code == 0, err
        outside = [p for p in tmp_path.rglob("*.png") if rep not in p.parents]
        assert not outside, outside
        code, _, err = run_main("export", str(s), "-o", str(rep / "export"))
        assert code == 0, err
        outside = [p for p in tmp_path.rglob("*.csv") if rep not in p.parents]
        assert not outside, outside
        shutil.rmtree(tmp_path / "inner")


def test_unwritable_report_or_store_is_refused_before_the_run(tmp_path: Path) -> None:
    exp = experiment(tmp_path)
    afile = tmp_path / "afile"
    afile.write_text("")
    for args in (["--report", str(afile / "rep")], ["--store", str(afile / "s.sqlite")],
                 ["--report", str(afile)], ["--store", str(tmp_path)]):
        t0 = time.perf_counter()
        code, _, err = run_main("run", str(exp), *args)
        assert code == 2 and len(error_lines(err)) == 1, (args, err)
        assert time.perf_counter() - t0 < 5
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "tiny.toml"]


def test_a_failed_run_leaves_no_new_store_and_a_failed_report_no_folder(
        tmp_path: Path) -> None:
    bad = tmp_path / "bad.conllu"
    bad.write_text(CORPUS.read_text() + "1\tx\n")
    exp = experiment(tmp_path)
    exp.write_text(exp.read_text().replace(str(CORPUS), str(bad)))
    code, _, err = run_main("run", str(exp), "--store", str(tmp_path / "s.sqlite"))
    assert code == 2 and "bad.conllu" in err
    assert not any(p.name.startswith("s.sqlite") for p in tmp_path.iterdir())
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 8)
    code, _, err = run_main("report", str(junk), "-o", str(tmp_path / "rep"))
    assert code == 2 and not (tmp_path / "rep").exists()


def test_two_runs_on_one_store_never_parse_twice(tmp_path: Path) -> None:
    script = tmp_path / "slow.py"
    script.write_text("import sys, time\nblocks = sys.stdin.read().strip('\\n').split('\\n\\n')\n"
                      "out = []\nfor b in blocks:\n    time.sleep(0.3)\n"
                      "    ws = [l.split('\\t')[1] for l in b.splitlines() if l and l[0] != '#']\n"
                      "    out.append(''.join(f'{i}\\t{w}\\t_\\tX\\t_\\t_\\t{i-1}\\tdep\\t_\\t_\\n'"
                      " for i, w in enumerate(ws, 1)))\nprint('\\n'.join(out))\n")
    exp = experiment(tmp_path, spec=f"command:{sys.executable} {script}")
    store = tmp_path / "s.sqlite"
    first = subprocess.Popen([sys.executable, "-m", "parsebench.cli", "run", str(exp),
                              "--store", str(store), "--report", str(tmp_path / "r1")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 30
    while time.time() < deadline:
        with contextlib.suppress(sqlite3.Error), \
                contextlib.closing(sqlite3.connect(store)) as db:
            if db.execute("SELECT value FROM meta WHERE key='run_pid'").fetchone():
                break
        time.sleep(0.05)
    second = subprocess.run([sys.executable, "-m", "parsebench.cli", "run", str(exp),
                             "--store", str(store), "--report", str(tmp_path / "r2")],
                            capture_output=True, text=True)
    _, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    assert second.returncode == 2, second.stderr
    assert f"another parsebench run (pid {first.pid})" in second.stderr
    with contextlib.closing(sqlite3.connect(store)) as db:
        parsed = db.execute("SELECT sum(parsed) FROM runs").fetchone()[0]
        distinct = db.execute("SELECT count(*) FROM parses").fetchone()[0]
    assert parsed == distinct  # nothing parsed twice
    # once the first is done, the store is free again and everything comes from the cache
    third = subprocess.run([sys.executable, "-m", "parsebench.cli", "run", str(exp),
                            "--store", str(store), "--report", str(tmp_path / "r3")],
                           capture_output=True, text=True)
    assert third.returncode == 0, third.stderr
    assert "0 sentences parsed" in third.stdout


@pytest.mark.parametrize("config", ['"\\ud800"', "[[[[", "\xff\xfe", "null"])
def test_a_damaged_run_record(store: Path, tmp_path: Path, config: str) -> None:
    """The report refuses it with one line; a new run leaves the old record out."""
    s = tmp_path / "r.sqlite"
    shutil.copy(store, s)
    with contextlib.closing(sqlite3.connect(s)) as db:
        db.execute("UPDATE runs SET config=?", (config,))
        db.commit()
    code, _, err = run_main("report", str(s), "-o", str(tmp_path / "rep"))
    assert code == 2 and len(error_lines(err)) == 1 and "damaged" in err
    assert not (tmp_path / "rep").exists()
    code, _, err = run_main("run", str(experiment(tmp_path)), "--store", str(s), "--report",
                            str(tmp_path / "rep2"))
    assert code == 0, err
    assert "record of run 1 is damaged; left out" in err


def test_a_run_of_a_noise_kind_not_installed(store: Path, tmp_path: Path) -> None:
    """A store written with a plugin's kind of noise, reported where the plugin is not
    installed: the report says which kind is missing, with the store's name."""
    s = tmp_path / "r.sqlite"
    shutil.copy(store, s)
    with contextlib.closing(sqlite3.connect(s)) as db:
        config = json.loads(db.execute("SELECT config FROM runs").fetchone()[0])
        db.execute("UPDATE runs SET config=?", (json.dumps({**config, "kind": "nosuch"}),))
        db.commit()
    code, _, err = run_main("report", str(s), "-o", str(tmp_path / "rep"))
    assert code == 2 and error_lines(err) == [
        f"parsebench: {s}: the run used noise of kind 'nosuch', which this parsebench "
        "does not have"]
    assert not (tmp_path / "rep").exists()


def test_a_store_damaged_past_its_checks_is_named(tmp_path: Path) -> None:
    """Damage only writing finds (a schema whose constraint no stored row breaks, so the
    check on opening passes) quoted SQLite's constraint text without the store's name."""
    store = tmp_path / "s.sqlite"
    Store(store).close()
    with contextlib.closing(sqlite3.connect(store)) as db:
        db.execute("PRAGMA writable_schema=ON")
        db.execute("UPDATE sqlite_master SET sql = replace(sql, 'stats TEXT)', "
                   "'stats TEXT, CHECK (parsed < 0))') WHERE name='runs'")
        db.commit()
    code, out, err = run_main("run", str(experiment(tmp_path)), "--store", str(store),
                              "--report", str(tmp_path / "rep"))
    assert code == 2 and out == ""
    assert err == (f"parsebench: {store}: the store is damaged and cannot be read (SQLite: "
                   "CHECK constraint failed: parsed < 0); restore it or start a new one\n")
