"""The report's figures, drawn with matplotlib (Agg, no display) to PNG bytes."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

LevelSeries = list[tuple[Any, ...]]
"""(level label, mean, min, max) points of one line, optionally followed by the 95%
interval over sentences (lo, hi)."""


def _figure(width: float = 6.4, height: float = 3.6) -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(width, height), dpi=100)
    return plt, fig, ax


def _png(plt: Any, fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()


def against_level(title: str, ylabel: str, series: dict[str, LevelSeries]) -> bytes:
    """Lines against error level, with the replicates' min-max as a band and the 95%
    interval over sentences as error bars where the points have one. Series named
    "PARSER @ WHAT" share a colour a parser and take a line style a WHAT."""
    plt, fig, ax = _figure()
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    colours: dict[str, Any] = {}
    styles: dict[str, str] = {}
    labels: list[str] = []
    for pts in series.values():
        for lab, *_ in pts:
            if lab not in labels:
                labels.append(lab)
    numeric = all(lab.endswith("%") for lab in labels)
    try:  # rates on a scale true to their values; other levels evenly spaced
        pos = {lab: float(lab[:-1]) for lab in labels} if numeric else {}
    except ValueError:
        numeric = False
    if not numeric:
        pos = {lab: float(i) for i, lab in enumerate(labels)}
    for name, pts in series.items():
        xs = [pos[p[0]] for p in pts]
        parser, sep, what = name.partition(" @ ")
        if sep:
            colour = colours.setdefault(parser, cycle[len(colours) % len(cycle)])
            style = styles.setdefault(what, ("-", "--", ":", "-.")[len(styles) % 4])
            label = f"{parser} {what}"
        else:
            colour = cycle[len(colours) % len(cycle)]
            colours[name] = colour
            style = "--" if "real" in name else ":" if "calibrated" in name else "-"
            label = name
        ys = [100 * p[1] for p in pts]
        ax.plot(xs, ys, style, marker="o", markersize=4, color=colour, label=label)
        if any(p[2] != p[3] for p in pts):
            ax.fill_between(xs, [100 * p[2] for p in pts], [100 * p[3] for p in pts],
                            alpha=0.2, color=colour)
        ci = [(x, y, p[4], p[5]) for x, y, p in zip(xs, ys, pts, strict=True)
              if len(p) >= 6 and p[4] is not None and p[5] is not None]
        if ci:
            ax.errorbar([c[0] for c in ci], [c[1] for c in ci],
                        yerr=[[c[1] - 100 * c[2] for c in ci], [100 * c[3] - c[1] for c in ci]],
                        fmt="none", ecolor=colour, capsize=2, linewidth=0.8)
    if numeric:
        ax.set_xlabel("misspelled words (%)")
        ax.set_xlim(left=0)
    else:
        ax.set_xticks(range(len(labels)), labels)
        ax.set_xlabel("error level")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    return _png(plt, fig)


def relation_bars(title: str, bars: dict[str, dict[str, float]]) -> bytes:
    """Grouped bars: recall by relation, one colour per parser."""
    plt, fig, ax = _figure(7.5, 3.8)
    relations: list[str] = []
    for d in bars.values():
        relations += [r for r in d if r not in relations]
    width = 0.8 / max(1, len(bars))
    for k, (name, d) in enumerate(bars.items()):
        ax.bar([i + k * width for i in range(len(relations))],
               [100 * d.get(r, 0.0) for r in relations], width, label=name)
    ax.set_xticks([i + width * (len(bars) - 1) / 2 for i in range(len(relations))],
                  relations, rotation=45, ha="right", fontsize=8)
    ax.set_ylabel("labeled recall (%)")
    ax.set_ylim(0, 100)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7)
    return _png(plt, fig)


def time_by_length(series: dict[str, Sequence[tuple[int, float]]]) -> bytes:
    """Mean parse time against sentence length, one line per parser (Lin, Fig. 18.1)."""
    plt, fig, ax = _figure()
    for name, pts in series.items():
        ax.plot([p[0] for p in pts], [1000 * p[1] for p in pts], marker=".", label=name)
    ax.set_xlabel("sentence length (words)")
    ax.set_ylabel("mean parse time (ms)")
    ax.set_title("Parse time against sentence length", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    return _png(plt, fig)


def by_group(title: str, ylabel: str, groups: Sequence[str],
             series: dict[str, dict[str, float]]) -> bytes:
    """Lines across ordered groups (arc lengths, sentence lengths), one per parser and
    level ("PARSER @ LEVEL"): one colour a parser, the clean text solid, each error level
    its own dash in the order given."""
    plt, fig, ax = _figure()
    colours: dict[str, Any] = {}
    dashes: dict[str, str] = {"clean": "-"}
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for name, pts in series.items():
        parser, _, level = name.partition(" @ ")
        colour = colours.setdefault(parser, cycle[len(colours) % len(cycle)])
        style = dashes.setdefault(level, ("--", ":", "-.")[(len(dashes) - 1) % 3])
        xs = [i for i, g in enumerate(groups) if g in pts]
        ax.plot(xs, [100 * pts[groups[i]] for i in xs], style, marker="o", color=colour,
                label=name, markersize=4)
    ax.set_xticks(range(len(groups)), groups)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=6, ncol=2)
    return _png(plt, fig)


def heatmap(title: str, labels: Sequence[str], matrix: Sequence[Sequence[int]]) -> bytes:
    """A confusion matrix, each gold row as shares of its words (the diagonal: right)."""
    plt, fig, ax = _figure(6.0, 5.2)
    shares = [[n / max(1, sum(row)) for n in row] for row in matrix]
    im = ax.imshow(shares, cmap="Blues", vmin=0, vmax=1)
    ax.set_xticks(range(len(labels)), labels, rotation=60, ha="right", fontsize=7)
    ax.set_yticks(range(len(labels)), labels, fontsize=7)
    ax.set_xlabel("system")
    ax.set_ylabel("gold")
    for i, row in enumerate(shares):
        for j, v in enumerate(row):
            if v >= 0.01:
                ax.text(j, i, f"{100 * v:.0f}", ha="center", va="center", fontsize=6,
                        color="white" if v > 0.5 else "black")
    fig.colorbar(im, ax=ax, fraction=0.046)
    ax.set_title(title, fontsize=10)
    return _png(plt, fig)


DegradationPoint = dict[str, Any]
"""x (share of words misspelled), lower, upper, estimate, and optionally real, real_ci
(lo, hi), calibrated, sentences."""


def degradation(title: str, parsers: dict[str, list[DegradationPoint]],
                few: int = 100) -> bytes:
    """Bigert et al.'s figures against the measured share of misspelled words (a true
    scale): one colour a parser; its bounds a band, the estimate a solid line, the real
    degradation (with gold) dashed with its 95% interval over sentences as error bars,
    a calibrated estimate dotted; "n=" beside a point that rests on fewer than FEW
    sentences."""
    plt, fig, ax = _figure(6.8, 3.9)
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, (name, pts) in enumerate(parsers.items()):
        colour = cycle[k % len(cycle)]
        pts = sorted(pts, key=lambda p: p["x"])
        xs = [100 * p["x"] for p in pts]
        ax.fill_between(xs, [100 * p["lower"] for p in pts], [100 * p["upper"] for p in pts],
                        color=colour, alpha=0.15, linewidth=0)
        ax.plot(xs, [100 * p["estimate"] for p in pts], "-", marker="o", markersize=3,
                color=colour, label=f"{name}: estimate (band: bounds)")
        real = [p for p in pts if p.get("real") is not None]
        if real:
            ys = [100 * p["real"] for p in real]
            lo = [y - 100 * p["real_ci"][0] if p.get("real_ci") else 0.0
                  for y, p in zip(ys, real, strict=True)]
            hi = [100 * p["real_ci"][1] - y if p.get("real_ci") else 0.0
                  for y, p in zip(ys, real, strict=True)]
            ax.errorbar([100 * p["x"] for p in real], ys, yerr=[lo, hi], fmt="--s",
                        markersize=3, capsize=2, color=colour, label=f"{name}: real (95% CI)")
        cal = [p for p in pts if p.get("calibrated") is not None]
        if cal:
            ax.plot([100 * p["x"] for p in cal], [100 * p["calibrated"] for p in cal], ":",
                    color=colour, label=f"{name}: calibrated")
        for p in pts:
            if p.get("sentences") is not None and p["sentences"] < few:
                ax.annotate(f"n={p['sentences']}", (100 * p["x"], 100 * p["estimate"]),
                            textcoords="offset points", xytext=(3, 4), fontsize=6,
                            color=colour)
    ax.set_xlabel("misspelled words (%)")
    ax.set_ylabel("degradation (%)")
    ax.set_xlim(left=0)
    ax.set_ylim(bottom=0)
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=6)
    return _png(plt, fig)
