"""How the constituency scores are shown: the report's section of the brackets a noisy
parse keeps of the clean one (EVALB's and Gaizauskas et al.'s flat keys side by side,
the plot asked for) and ``eval flat``'s text on the terminal (``eval brackets``'s is
EVALB's own report: :meth:`parsebench.metrics.constituency.evalb_scorer.EvalbResult.report`)."""

from __future__ import annotations

from parsebench.metrics.constituency.evalb_records import EvalbValue
from parsebench.metrics.constituency.gaizauskas_records import FlatEval, FlatValue
from parsebench.metrics.dependency.figures import StoredInterval
from parsebench.model.level import level_order
from parsebench.model.scored import Scored
from parsebench.present import interval_text, percent
from parsebench.present.plots import LevelSeries, against_level
from parsebench.present.tables import CI_NOTE, Section, Table, level_free_signature, pct, results_of


def _pct(x: float | None) -> str:
    return percent(x, 6)


def brackets_section(results: list[Scored]) -> Section | None:
    """EVALB's brackets and the flat key of a constituency parser's noisy parses, each
    against its clean parse (no gold trees needed)."""
    ev: dict[tuple[str, str], Scored] = {(r.parser, r.level): r
                                         for r in results_of(results, "evalb")}
    fl: dict[tuple[str, str], Scored] = {(r.parser, r.level): r
                                         for r in results_of(results, "flat")}
    keys = sorted(set(ev) | set(fl), key=lambda k: (k[0], level_order(k[1])))
    if not keys:
        return None
    t = Table("Structure of the clean parse kept in the noisy one",
              ["parser", "error level", "sentences", "EVALB recall", "EVALB precision",
               "EVALB F", "95% CI", "flat-key recall", "95% CI", "conformance", "95% CI"], [],
              anchor="brackets")
    series: dict[str, LevelSeries] = {}
    for k in keys:
        e: EvalbValue = ev[k].value if k in ev else EvalbValue()
        f: FlatValue = fl[k].value if k in fl else FlatValue()
        one = e if k in ev else f
        label = one.error_level_label
        t.rows.append([k[0], label, str(one.sentences),
                       pct(e.recall), pct(e.precision), pct(e.f1), interval_text(_iv(e.ci95.f1)),
                       pct(f.recall), interval_text(_iv(f.ci95.recall)), pct(f.conformance),
                       interval_text(_iv(f.ci95.conformance))])
        for name, v, iv in (("EVALB F", e.f1, _iv(e.ci95.f1)),
                            ("conformance", f.conformance, _iv(f.ci95.conformance))):
            if v is not None:
                lo, hi = iv or (None, None)
                series.setdefault(f"{k[0]} @ {name}", []).append((label, v, v, v, lo, hi))
    t.notes += ["The key is each sentence's clean parse: EVALB's labeled brackets (no "
                "label deleted) and Gaizauskas et al.'s recall and conformance against its "
                "unlabeled spans (flattened by the experiment's rules, if any). A failed "
                "noisy parse is the flat (PARSE-FAILED ...) tree: it matches little and "
                "crosses nothing. Replicates pooled.", CI_NOTE]
    firsts = (next(iter(ev.values()), None), next(iter(fl.values()), None))
    t.notes += ["signature: " + level_free_signature(r) for r in firsts if r]
    sec = Section("Brackets under noise (EVALB; flat keys, Gaizauskas et al.)", [t])
    if series:
        sec.images.append(("brackets.png", "Brackets of the clean parse kept, against error "
                           "level: one colour a parser, EVALB F solid, conformance dashed; "
                           "bars: 95% intervals over sentences",
                           against_level("Brackets kept (clean parse as key)", "%",
                                         series)))
    return sec

def _iv(iv: StoredInterval) -> StoredInterval:
    """IV where it is an interval: None for a missing bound."""
    return iv if isinstance(iv, list) and len(iv) == 2 and None not in iv else None


def flat_table(scores: FlatEval, key: str, response: str) -> str:
    """``eval flat``'s text: the counts and Gaizauskas et al.'s three shares."""
    c = scores
    return (
        f"Flat-key evaluation of {response} against {key}\n"
        "KeyCons  RespCons  Matched  KCV   Recall  Precision  Conformance\n"
        f"{c.key_constituents:7d} {c.response_constituents:9d} {c.matched:8d} "
        f"{c.violated:4d}  {_pct(c.recall):>7} {_pct(c.precision):>10} "
        f"{_pct(c.conformance):>12}\n"
        f"\nsignature: {c.signature}\n"
    )
