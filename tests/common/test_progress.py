"""Progress where no terminal draws bars (a log, CI, a cluster job): plain lines on
standard error that say what is being done, how far, the rate and the time left; and
--quiet, which silences them. Every command that can take long gives them."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import DATA, FIXTURES, ROOT

from parsebench.common.progress import Lines, duration

# a line for every step: the toy parsers are done in less than the two seconds before
# the first line
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(FIXTURES)]),
           PARSEBENCH_PROGRESS_SECONDS="0")
SPEC = "python:toy_parsers:WeakWord"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_lines_say_what_how_far_the_rate_and_the_time_left() -> None:
    out, clock = io.StringIO(), Clock()
    p = Lines(out, interval=10, first=2, clock=clock)
    p.stage("A", 400)
    clock.now += 2
    p.advance(20)  # two seconds in: worth a line
    clock.now += 10
    p.advance(80)  # 100 of 400 in 12 s: 8.3/s, 300 left, 36 s
    p.note("x")
    clock.now += 3
    p.advance(300)
    p.stage("B", None)
    clock.now += 1
    p.advance(5)
    clock.now += 2
    p.advance(31)
    clock.now += 12
    p.advance(0)
    p.stage("C", 0)  # an empty stage says nothing
    p.stage("D", 10)
    clock.now += 1
    p.advance(10)  # a stage done within two seconds says nothing
    p.close()
    assert out.getvalue().splitlines() == [
        "[0:00:02] A: started, 400 to do",  # (the count it ends with, 20 being done)
        "[0:00:12] A: 100/400 (25%), 8.3/s, about 36 s left",
        "[0:00:12] x",
        "[0:00:15] A: 400/400 done in 15 s (27/s)",
        "[0:00:18] B: started",
        "[0:00:30] B: 36 done, 2.4/s",
        "[0:00:30] B: 36 done in 15 s (2.4/s)",
    ]


def test_lines_come_on_time_between_steps() -> None:
    """A stage that takes long before its first step (a model loading) still says it
    started and how far it is, on time: a ticking thread writes what is due."""
    import threading

    out, clock = io.StringIO(), Clock()
    with Lines(out, interval=10, first=2, clock=clock, tick=0.01) as p:
        p.stage("parse udpipe", 50)
        seen = threading.Event()

        def wait_for(text: str) -> None:
            for _ in range(500):
                if text in out.getvalue():
                    return
                seen.wait(0.01)
            raise AssertionError(out.getvalue())

        clock.now += 2
        wait_for("started")
        clock.now += 10
        wait_for("0/50 (0%)")
        p.advance(50)
    assert out.getvalue().splitlines() == [
        "[0:00:02] parse udpipe: started, 50 to do",
        "[0:00:12] parse udpipe: 0/50 (0%), 0.0/s",
        "[0:00:12] parse udpipe: 50/50 done in 12 s (4.2/s)"]


def test_a_stage_of_one_step_says_only_how_long() -> None:
    out, clock = io.StringIO(), Clock()
    with Lines(out, clock=clock) as p:
        p.stage("write the report", 1)
        clock.now += 13
        p._due()  # (what the ticking thread does between steps)
        p.advance()
    assert out.getvalue().splitlines() == ["[0:00:13] write the report: started",
                                           "[0:00:13] write the report: done in 13 s"]
    out, clock = io.StringIO(), Clock()
    with Lines(out, clock=clock) as p:
        p.stage("write the report", 1)
        clock.now += 3
        p._due()
        clock.now += 10
        p._due()
        p.advance()
    assert out.getvalue().splitlines() == ["[0:00:03] write the report: started",
                                           "[0:00:13] write the report: 13 s so far",
                                           "[0:00:13] write the report: done in 13 s"]


def test_an_error_ends_the_lines_without_a_stage_done() -> None:
    out, clock = io.StringIO(), Clock()
    with pytest.raises(ValueError), Lines(out, clock=clock) as p:
        p.stage("parsing", 10)
        clock.now += 5
        p.advance()
        raise ValueError
    assert out.getvalue() == "[0:00:05] parsing: started, 10 to do\n"


def test_a_stage_named_again_is_a_new_stage_with_its_own_count() -> None:
    """A stage's count never grows under the reader: "started, 4 to do" then "7/7" (the
    clean text, then the noisy one, once counted as one stage) read as a wrong number."""
    out, clock = io.StringIO(), Clock()
    with Lines(out, first=0, clock=clock) as p:
        p.stage("parse", 4)
        clock.now += 1
        p.advance(4)
        p.stage("parse", 3)
        clock.now += 2
        p.advance(3)
    assert out.getvalue().splitlines() == [
        "[0:00:00] parse: started, 4 to do", "[0:00:01] parse: 4/4 done in 1.0 s (4.0/s)",
        "[0:00:01] parse: started, 3 to do", "[0:00:03] parse: 3/3 done in 2.0 s (1.5/s)"]


def test_durations_read_as_a_person_says_them() -> None:
    assert [duration(s) for s in (0.44, 42, 362, 360, 4320)] == \
        ["0.4 s", "42 s", "6 min 2 s", "6 min", "1 h 12 min"]


def _cli(*args: Any, env: dict[str, str] = ENV) -> subprocess.CompletedProcess[str]:
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", *map(str, args)],
                       capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr
    return p


PROGRESS = re.compile(r"^\[\d+:\d\d:\d\d\] ")


def _progress_lines(err: str) -> list[str]:
    return [x for x in err.splitlines() if PROGRESS.match(x)]


def _commands(tmp: Path) -> dict[str, list[Any]]:
    typos, learner = FIXTURES / "typos.conllu", FIXTURES / "learner.conllu"
    exp = tmp / "exp.toml"
    exp.write_text(f'''name = "p"
[corpus]
path = "{typos}"
[noise]
rates = [0.2]
lexicon = "{FIXTURES / 'lexicon.txt'}"
[[parsers]]
name = "weak"
spec = "{SPEC}"
''')
    key, answer = DATA / "lin-key.conllu", DATA / "lin-answer.conllu"
    return {
        "parse": ["parse", typos, "-o", tmp / "p.conllu", "--parser", SPEC],
        "attack": ["attack", typos, "-o", tmp / "a.conllu", "--parser", SPEC, "--lexicon",
                   FIXTURES / "lexicon.txt", "--queries", 20],
        "invariance": ["invariance", learner, "--parser", SPEC],
        "noise": ["noise", typos, "-o", tmp / "n.conllu", "--rate", 0.2, "--lexicon",
                  FIXTURES / "lexicon.txt"],
        "compare": ["compare", key, key, answer, "--samples", 200],
        "run": ["run", exp, "--store", tmp / "s.sqlite"],
    }


@pytest.mark.parametrize("command", ["parse", "attack", "invariance", "noise", "compare",
                                     "run"])
def test_every_long_command_logs_its_progress_and_quiet_silences_it(
        tmp_path: Path, command: str) -> None:
    args = _commands(tmp_path)[command]
    lines = _progress_lines(_cli(*args).stderr)
    started = [x for x in lines if x.endswith("to do") or x.endswith(": started")]
    done = [x for x in lines if " done in " in x]
    assert started and done, lines
    for line in done:  # each stage's last line: its count of the count it announced
        m = re.search(r"\] (.*?): (?:([\d,]+)(?:/([\d,]+))? )?done in ", line)
        assert m is not None, line
        if m.group(3):
            assert m.group(2) == m.group(3), line
    (tmp_path / "q").mkdir()  # afresh (a run again would resume)
    again = _cli(*_commands(tmp_path / "q")[command], "--quiet")
    assert not _progress_lines(again.stderr), again.stderr


def test_run_lines_name_each_stage(tmp_path: Path) -> None:
    lines = _progress_lines(_cli(*_commands(tmp_path)["run"]).stderr)
    stages = [re.sub(r"^\[[^]]*\] ", "", x).split(":")[0] for x in lines]
    assert {"load weak", "score weak"} <= set(stages), stages
    assert any(s.startswith("parse weak") for s in stages), stages


def _seconds(text: str) -> float:
    """A :func:`duration` read back (to the second above 10 s)."""
    m = re.fullmatch(r"(?:(\d+) h )?(?:(\d+) min ?)?(?:([\d.]+) s)?", text.strip())
    assert m is not None, text
    h, mins, s = (float(g) if g else 0.0 for g in m.groups())
    return 3600 * h + 60 * mins + s


def test_a_run_gives_each_stage_one_count_and_one_clock(tmp_path: Path) -> None:
    """The log and the end-of-run times name the same stages; each stage's first line
    announces the count its every later line counts to, and its last line the time the
    summary gives it (a run logged "parse: started, 4 to do" then "7/7", and scoring
    that the summary timed at 0.1 s ran in the log until the next stage began)."""
    exp = tmp_path / "exp.toml"
    exp.write_text(_commands(tmp_path)["run"][1].read_text().replace(
        "[[parsers]]", "[attack]\nbudget = [1]\nqueries = 10\n[[parsers]]", 1)
        + '[[parsers]]\nname = "casey"\nspec = "python:toy_parsers:Casey"\n')
    p = _cli("run", exp, "--store", tmp_path / "s.sqlite", "--report", tmp_path / "r")
    logged: dict[str, float] = {}
    for line in _progress_lines(p.stderr):
        name, _, rest = re.sub(r"^\[[^]]*\] ", "", line).partition(": ")
        if rest.startswith("started"):
            assert name not in logged, f"{name}: two stages of one name"
            m = re.search(r", ([\d,]+) to do$", rest)
            announced = m.group(1) if m else None
        else:
            counts = re.findall(r"^[\d,]+/([\d,]+)", rest)
            assert counts == ([announced] if announced else []), (line, announced)
            m = re.search(r"done in (.*?)(?: \(|$)", rest)
            if m:
                logged[name] = _seconds(m.group(1))
    times = re.findall(r"^  (\S.*?) +([\d.]+ s|[\d]+ min(?: \d+ s)?)(?:  \(|$)",
                       p.stdout, re.M)
    summary = {name: _seconds(t) for name, t in times if name != "other"}
    assert list(summary) == list(logged), (summary, logged)
    for name, seconds in summary.items():
        assert abs(seconds - logged[name]) <= 0.1 + 0.01 * seconds, (name, seconds, logged)


def test_quick_work_prints_no_progress(tmp_path: Path) -> None:
    env = {k: v for k, v in ENV.items() if k != "PARSEBENCH_PROGRESS_SECONDS"}
    p = _cli(*_commands(tmp_path)["parse"], env=env)
    assert not _progress_lines(p.stderr) and p.stderr.count("\n") == 1, p.stderr


def test_a_stage_no_one_counts_says_how_long_not_zero_done() -> None:
    """Issue 59 item 21: ``train yara`` showed "0 done, 0.0/s" throughout (a trainer's
    stage has no steps to count)."""
    out, clock = io.StringIO(), Clock()
    with Lines(out, clock=clock) as p:
        p.stage("training yara", None)
        clock.now += 3
        p._due()
        clock.now += 10
        p._due()
    lines = out.getvalue().splitlines()
    assert "[0:00:13] training yara: 13 s so far" in lines, lines
    assert not [line for line in lines if "0 done" in line or "0.0/s" in line]
