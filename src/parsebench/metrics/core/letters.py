"""The compact letter display of a ranking from its paired tests (Piepho 2004): parsers
that share a letter are not separated by any test. Written here because it is a few
lines over the tests' outcome; the report's summary and a benchmark's macro ranking
both show it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def _separated(t: Any) -> bool:
    """Whether the test T (a record of the report's paired tests, or a stored test's
    JSON object) separates its pair."""
    return bool(t["significant"] if isinstance(t, Mapping) else t.significant)


def _pair(t: Any) -> frozenset[str]:
    return frozenset((t["a"], t["b"]) if isinstance(t, Mapping) else (t.a, t.b))


def letters(ranking: list[str], tests: Iterable[Any]) -> list[list[str]]:
    """A compact letter display of RANKING (best first): groups that may overlap, one a
    letter, such that two parsers share a letter exactly when no test separates them
    (Holm-corrected, p < 0.05; a pair without a test is not separated). The groups are
    the maximal sets of parsers no test separates, ordered by their best member, so a
    parser no test separates from either of two separated ones is in both groups (a, ab,
    b): disjoint tiers would claim that it differs from one of them."""
    sig = {_pair(t) for t in tests if _separated(t)}
    rank = {p: k for k, p in enumerate(ranking)}
    groups: list[frozenset[str]] = []

    def grow(clique: set[str], candidates: set[str], excluded: set[str]) -> None:
        # Bron and Kerbosch: every maximal clique of the "not separated" graph, once
        if not candidates and not excluded:
            groups.append(frozenset(clique))
            return
        for p in sorted(candidates, key=rank.__getitem__):
            near = {q for q in ranking if q != p and frozenset((p, q)) not in sig}
            grow(clique | {p}, candidates & near, excluded & near)
            candidates = candidates - {p}
            excluded = excluded | {p}

    grow(set(), set(ranking), set())
    ordered = sorted(groups, key=lambda g: sorted(rank[p] for p in g))
    return [sorted(g, key=rank.__getitem__) for g in ordered]


def letter_names(ranking: list[str], groups: list[list[str]]) -> dict[str, str]:
    """Each parser's letters: a for the first group, b for the second, ..."""
    names = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    out = {p: "" for p in ranking}
    for k, g in enumerate(groups):
        name = names[k] if k < len(names) else f"[{k + 1}]"
        for p in g:
            out[p] += name
    return out
