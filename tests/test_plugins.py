"""A method and a kind of noise from outside the package, each its module and one entry
point (tests/fixtures/plugin): a run scores the method on the noise, and the report,
the end-of-run table and the export carry both, as they carry parsebench's own."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import FIXTURES, ROOT

ENTRY_POINTS = """[parsebench.methods]
rootkept = rootkept:METHOD

[parsebench.noise_kinds]
shout = shout:KIND
"""


def _installed(tmp: Path) -> dict[str, str]:
    """An environment where the plugin package is installed: its metadata with the two
    entry points on the import path, as pip would leave it."""
    site = tmp / "site"
    info = site / "parsebench_plugin_test-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: parsebench-plugin-test\n"
                                   "Version: 0.1\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    path = [str(ROOT / "src"), str(FIXTURES / "plugin"), str(FIXTURES), str(site)]
    return dict(os.environ, PYTHONPATH=os.pathsep.join(path))


def _cli(env: dict[str, str], *args: object, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "parsebench.cli", *map(str, args)],
                          capture_output=True, text=True, env=env, cwd=cwd)


def test_a_method_and_a_noise_kind_from_outside_the_package(tmp_path: Path) -> None:
    env = _installed(tmp_path)
    exp = tmp_path / "exp.toml"
    exp.write_text(f'''name = "plugins"
[corpus]
path = "{FIXTURES / 'typos.conllu'}"
[noise]
kind = "shout"
rates = [0.5]
replicates = 2
[[parsers]]
name = "weak"
spec = "python:toy_parsers:WeakWord"
[metrics]
rootkept = true
''')
    p = _cli(env, "run", exp, "--store", tmp_path / "s.sqlite", "--report", tmp_path / "r",
             cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    # the end-of-run table: the method's own line
    line = next(x for x in p.stdout.splitlines() if " rootkept " in x)
    assert "root kept" in line and "rate=0.5" in line
    # the report: its section, its figure's statistics, the kind's name
    md = (tmp_path / "r" / "index.md").read_text()
    assert "Root kept (a method from outside parsebench)" in md
    assert "words in capitals" in md
    # what its column holds, in its own words, under its table
    assert "root kept: share of noisy sentences whose root word is the clean parse's" in md
    # results.json: its figures beside parsebench's own
    results = json.loads((tmp_path / "r" / "results.json").read_text())
    assert "rootkept" in json.dumps(results)
    # a bad value of its [metrics] key is refused like any method's
    exp.write_text(exp.read_text().replace("rootkept = true", "rootkept = 3"))
    bad = _cli(env, "run", exp, "--store", tmp_path / "t.sqlite", cwd=tmp_path)
    assert bad.returncode == 2 and "rootkept must be bool" in bad.stderr
    # the export: the shouted parses and the method's per-sentence scores
    q = _cli(env, "export", tmp_path / "s.sqlite", "-o", tmp_path / "x", cwd=tmp_path)
    assert q.returncode == 0, q.stderr
    files = [f.relative_to(tmp_path / "x").as_posix() for f in (tmp_path / "x").rglob("*")]
    assert sorted(f for f in files if f.endswith(".conllu")) == [
        "plugins/weak/clean.conllu", "plugins/weak/rate-0.5_seed-1.conllu",
        "plugins/weak/rate-0.5_seed-2.conllu"]
    noisy = (tmp_path / "x" / "plugins" / "weak" / "rate-0.5_seed-1.conllu").read_text()
    assert noisy.count("Noise=shout") == 10  # round(0.5 x 21 words that can be shouted)
    with (tmp_path / "x" / "plugins" / "scores.csv").open() as fh:
        rows = [r for r in csv.DictReader(fh) if r["metric"] == "rootkept"]
    assert {r["column"] for r in rows} == {"sentences", "root kept"}
    assert {r["sentence"] for r in rows} == {"1", "2", "3", "4"}  # each sentence's counts


def test_a_noise_kind_from_outside_reads_its_own_option(tmp_path: Path) -> None:
    """The kind's one option, ``letters``, in a run's [noise] table (checked at its line,
    kept in the record, shown in the report) and as the noise command's --option (and
    ``pb.noise``'s ``options``); another kind refuses it, naming the kind it is for."""
    env = _installed(tmp_path)
    exp = tmp_path / "exp.toml"
    exp.write_text(f'''name = "first-letters"
[corpus]
path = "{FIXTURES / 'typos.conllu'}"
[noise]
kind = "shout"
letters = "first"
rates = [0.5]
[[parsers]]
name = "weak"
spec = "python:toy_parsers:WeakWord"
''')
    p = _cli(env, "run", exp, "--store", tmp_path / "s.sqlite", "--report", tmp_path / "r",
             cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    md = (tmp_path / "r" / "index.md").read_text()
    assert "words shouted at rate=0.5" in md and "(first letters)" in md
    results = json.loads((tmp_path / "r" / "results.json").read_text())
    assert '"letters": "first"' in json.dumps(results)
    q = _cli(env, "export", tmp_path / "s.sqlite", "-o", tmp_path / "x", cwd=tmp_path)
    assert q.returncode == 0, q.stderr
    noisy = (tmp_path / "x" / "first-letters" / "weak" / "rate-0.5_seed-1.conllu").read_text()
    shouted = [ln.split("\t")[1] for ln in noisy.splitlines() if "Noise=shout" in ln]
    assert len(shouted) == 10 and all(w[0].isupper() and w[1:] == w[1:].lower()
                                      for w in shouted if len(w) > 1)
    for bad, where, message in (('letters = "first"', 'letters = "most"',
                                 'letters: "all" or "first"'),
                                ('kind = "shout"', 'kind = "spelling"',
                                 'letters: for kind = "shout"')):
        exp.write_text(exp.read_text().replace(bad, where))
        got = _cli(env, "run", exp, "--store", tmp_path / "t.sqlite", cwd=tmp_path)
        assert got.returncode == 2 and message in got.stderr, got.stderr
        assert f"{exp}:6:" in got.stderr or f"{exp}:5:" in got.stderr
        exp.write_text(exp.read_text().replace(where, bad))
    out = tmp_path / "n.conllu"
    n = _cli(env, "noise", FIXTURES / "typos.conllu", "-o", out, "--kind", "shout",
             "--rate", "0.5", "--option", "letters=first", "--json", cwd=tmp_path)
    assert n.returncode == 0, n.stderr
    assert json.loads(n.stdout)["signature"].startswith("method:shout|letters:first")
    assert out.read_text().count("Noise=shout") == 10
    for args, message in ((["--option", "volume=9"], "--kind shout has no option 'volume'"),
                          (["--option", "letters"], "expected NAME=VALUE"),
                          (["--weights", "sub=2"], "--kind shout has no option 'weights'")):
        bad_run = _cli(env, "noise", FIXTURES / "typos.conllu", "-o", tmp_path / "m.conllu",
                       "--kind", "shout", "--rate", "0.5", *args, cwd=tmp_path)
        assert bad_run.returncode == 2 and message in bad_run.stderr, bad_run.stderr
    api = ("import parsebench as pb, sys; m = pb.noise(sys.argv[1], kind='shout', rate=0.5, "
           "options={'letters': 'first'}); print(m.signature)")
    r = subprocess.run([sys.executable, "-c", api, str(FIXTURES / "typos.conllu")],
                       capture_output=True, text=True, env=env, cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.startswith("method:shout|letters:first"), r.stderr
