"""The report's sections in order: each method's own (a paper's module builds them:
:attr:`parsebench.metrics.core.method.Method.sections`), then the run's: the attack,
the paired tests between parsers, the speed and the drawn examples, each from an
experiment's results to a :class:`~parsebench.present.tables.Section`, all listed once
in :func:`sections`. Each number's signature is printed under its table; a 95%
interval stands beside its figure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from parsebench.model.scored import Scored
from parsebench.present import interval_text, p_value
from parsebench.present.plots import time_by_length
from parsebench.present.tables import Section, Table, pct, results_of
from parsebench.report.examples import examples_section
from parsebench.report.summary import SIGNIFICANCE_SAMPLES
from parsebench.report.summary_records import FigureTest
from parsebench.run.page_values import SpeedValue

if TYPE_CHECKING:  # the attack's module imports NumPy, which a cached re-run does without
    from parsebench.probes.attack import AttackValue, Damage, Success


def _speed_section(results: list[Scored]) -> Section | None:
    rs = results_of(results, "speed")
    if not rs:
        return None
    speeds = [r.value for r in rs]
    assert all(isinstance(v, SpeedValue) for v in speeds), "speed read without its record"
    t = Table("Parser speed on the distinct sentences of the corpus (clean and noisy)",
              ["parser", "sentences", "words", "failures", "parse seconds", "words/s"],
              [[r.parser, str(v.sentences), str(v.words), str(v.failures),
                f"{v.parse_seconds:.2f}", f"{v.words_per_second or 0:,.0f}"]
               for r, v in zip(rs, speeds, strict=True)])
    series: dict[str, Sequence[tuple[int, float]]] = {
        r.parser: [(int(n), d.mean) for n, d in sorted(v.seconds_by_length.items(),
                                                       key=lambda kv: int(kv[0]))]
        for r, v in zip(rs, speeds, strict=True)}
    return Section("Speed (Lin, Fig. 18.1)", [t], [("time-by-length.png",
                                                    "Mean parse time of the distinct "
                                                    "sentences of each length, one line a "
                                                    "parser (a measurement of this machine, "
                                                    "no interval)",
                                                    time_by_length(series))])


def _attack_section(results: list[Scored]) -> Section | None:
    """``[attack]``: the worst case at each budget beside random misspellings at the same
    budget (docs/attack.md); the attacked sentences are drawn with the examples."""
    rs = results_of(results, "attack")
    if not rs:
        return None

    def share(x: Success | Damage | None) -> str:
        return "n/a" if x is None else pct(x.rate)

    def iv(x: Success | Damage) -> str:
        return interval_text(x.ci95) if isinstance(x.ci95, list) else "n/a"

    rows = []
    for r in rs:
        v: AttackValue = r.value
        rand, ratio = v.random, v.ratio
        rci = None if ratio is None else ratio.ci95
        calls = v.calls.per_sentence_mean
        rows.append([r.parser, r.level, f"{v.attacked} of {v.sentences}",
                     share(v.success), iv(v.success), share(rand.success if rand else None),
                     share(v.damage), iv(v.damage), share(rand.damage if rand else None),
                     "n/a" if ratio is None or ratio.value is None else f"{ratio.value:.2f}",
                     "n/a" if not rci or None in rci else f"[{rci[0]:.2f}, {rci[1]:.2f}]",
                     "n/a" if calls is None else f"{calls:.1f}"])
    t = Table("The worst K misspellings a sentence against K random ones",
              ["parser", "budget", "attacked", "success", "95% CI", "success (random)",
               "damage", "95% CI", "damage (random)", "ratio", "95% CI",
               "parses a sentence"], rows,
              notes=["success: sentences whose parse of the words not misspelled changed; "
                     "damage: the share of those words whose head or relation changed, "
                     "against the parser's own clean parse (no gold); random: K "
                     "misspellings as noise makes them, same seed; ratio: damage under "
                     "attack over random damage. The sentences the attack hurt most are "
                     "drawn with the examples below."])
    return Section("Worst-case misspellings (attack)", [t])


def _significance_section(tests: list[FigureTest]) -> Section | None:
    """Which parsers differ, figure by figure and level by level: the paired bootstrap
    tests of :func:`parsebench.report.summary.pairwise_tests` (the summary's letters come from
    them), Holm-corrected within each figure and level."""
    if not tests:
        return None
    t = Table("Which parsers differ (paired bootstrap over sentences)",
              ["figure", "level", "parser B - parser A", "difference", "95% CI", "p (Holm)",
               "significant at 0.05"], [], anchor="significance")
    for x in tests:
        p = x.p_holm
        t.rows.append([x.figure, x.level, f"{x.b} - {x.a}", pct(x.difference),
                       interval_text(list(x.ci95 or ())),
                       p_value(p, 4),
                       "n/a" if p is None else ("yes" if x.significant else "no")])
    t.notes.append(f"At least {SIGNIFICANCE_SAMPLES:,} paired resamples of the sentences "
                   "(seed 1), the same for both parsers; p = (1 + #{|d* - mean d*| >= |d|}) / "
                   "(1 + N), Holm-corrected within each figure and level (the pairs of "
                   "parsers compared on it)")
    return Section("Is the difference real?", [t])


def baseline_note(name: str, spec: str) -> str:
    """What a robustness table says under an uninformed baseline's row."""
    return (f"{name} ({spec}) is an uninformed baseline: its parse ignores what the words "
            "are, so it can look perfectly robust (a chain never changes); read its "
            "robustness beside its accuracy (LAS).")


def _mark_baselines(sec: Section, baselines: Mapping[str, str], robust: bool) -> None:
    """Each baseline's row (or its own table's title) says that it is a baseline; under a
    table of a ROBUST section, a note says why its robustness is to be read beside its
    accuracy."""
    for t in sec.tables:
        marked = []
        if t.headers and t.headers[0] == "parser":
            for row in t.rows:
                if row and row[0] in baselines:
                    marked.append(row[0])
                    row[0] = f"{row[0]} (baseline)"
        for b in baselines:
            for sep in (", ", ": "):
                if t.title.startswith(b + sep):
                    t.title = f"{b} (baseline){t.title[len(b):]}"
                    marked.append(b)
                    break
        if robust:
            t.notes += [baseline_note(b, baselines[b]) for b in dict.fromkeys(marked)]


def sections(results: list[Scored], tests: list[FigureTest],
             baselines: Mapping[str, str] | None = None) -> list[Section]:
    """Each method's sections in the order of the methods (a section two methods share,
    once), then the run's own: the attack, the paired tests, speed, drawn examples. The
    rows of the run's uninformed BASELINES (name: spec) say so; in the robustness
    sections (every method's but the accuracy's, and the attack) with a note."""
    from parsebench.metrics.registry import METHODS
    from parsebench.report.summary import LAS

    made = dict.fromkeys(make for m in METHODS.values() for make in m.sections)
    accuracy = set(METHODS[LAS.method].sections) if LAS.method in METHODS else set()
    makers = [*((make, make not in accuracy) for make in made), (_attack_section, True),
              (lambda _: _significance_section(tests), False), (_speed_section, False),
              (examples_section, False)]
    out = []
    for make, robust in makers:
        sec = make(results)
        if sec is not None:
            _mark_baselines(sec, baselines or {}, robust)
            out.append(sec)
    return out
