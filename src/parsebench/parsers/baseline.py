"""The uninformed baselines every parser must beat: ``baseline:left``, ``baseline:right``,
``baseline:random`` and ``baseline:random-projective`` (``:SEED`` after the random ones).

Ezquerro, Gómez-Rodríguez & Vilares (NoDaLiDa 2025) found that most open LLMs asked for
dependency trees do not beat such baselines, which no evaluation tool reported. They see
only the number of words:

- ``left``: each word's head is the word before it, the first word is the root;
- ``right``: each word's head is the word after it, the last word is the root;
- ``random``: uniform over the dependency trees of the sentence's length with one root
  word (n^(n-1) of them): a uniform Prüfer sequence decoded to a labeled tree (Prüfer
  1918), rooted at a uniformly chosen word;
- ``random-projective``: uniform over the projective trees with one root word, drawn top
  down through the counts of Eisner's (1996) first-order decomposition, in exact integers.

Labels are ``root`` for the root and ``dep`` otherwise. The random ones draw from a
generator seeded by the seed (0 unless given) and the sentence's words, so the same
input gives the same tree, in any batch and any order.

A baseline is perfectly robust: a chain never changes its parse, whatever the noise, so
its robustness figures are 100% while its accuracy is that of a useless parser.
Robustness must be read beside accuracy.
"""

from __future__ import annotations

import hashlib
import heapq
import random
from collections.abc import Iterator, Sequence
from functools import cache

from parsebench.common.errors import InputError
from parsebench.parsers.base import Adapter, Analysis, Failure, Item, Outcome

KINDS = ("left", "right", "random", "random-projective")


def left_chain(n: int) -> list[int]:
    return list(range(n))  # word i (1-based) -> i - 1; the first -> 0


def right_chain(n: int) -> list[int]:
    return [i + 2 if i + 1 < n else 0 for i in range(n)]


def random_tree(n: int, rng: random.Random) -> list[int]:
    """Heads (1-based, 0 the root) of a tree drawn uniformly from the n^(n-1) with one
    root word: a uniform Prüfer sequence decoded, then a uniform root."""
    if n == 1:
        return [0]
    seq = [rng.randrange(n) for _ in range(n - 2)]
    degree = [1] * n
    for v in seq:
        degree[v] += 1
    leaves = [v for v in range(n) if degree[v] == 1]
    heapq.heapify(leaves)
    adjacent: list[list[int]] = [[] for _ in range(n)]
    for v in seq:
        leaf = heapq.heappop(leaves)
        adjacent[leaf].append(v)
        adjacent[v].append(leaf)
        degree[v] -= 1
        if degree[v] == 1:
            heapq.heappush(leaves, v)
    u, w = heapq.heappop(leaves), heapq.heappop(leaves)
    adjacent[u].append(w)
    adjacent[w].append(u)
    root = rng.randrange(n)
    heads = [0] * n
    seen = [False] * n
    seen[root] = True
    stack = [root]
    while stack:
        v = stack.pop()
        for x in adjacent[v]:
            if not seen[x]:
                seen[x] = True
                heads[x] = v + 1
                stack.append(x)
    return heads


@cache
def _complete(d: int) -> int:
    """Projective subtrees of a head over a span of d words on one side of it (the head
    and its side's descendants: Eisner's complete span of length d + 1)."""
    if d == 0:
        return 1
    return sum(_incomplete(m) * _complete(d - m) for m in range(1, d + 1))


@cache
def _incomplete(d: int) -> int:
    """Eisner's incomplete span: a head and its dependent d words away, with what lies
    between them."""
    return sum(_complete(e) * _complete(d - 1 - e) for e in range(d))


def projective_trees(n: int) -> int:
    """How many projective trees with one root word n words have."""
    for d in range(n):  # fill the caches bottom up: no deep recursion on long sentences
        _complete(d)
    return sum(_complete(r) * _complete(n - 1 - r) for r in range(n))


def _pick(weights: Sequence[int], rng: random.Random) -> int:
    """An index drawn with probability proportional to WEIGHTS (exact integers)."""
    x = rng.randrange(sum(weights))
    for i, w in enumerate(weights):
        if x < w:
            return i
        x -= w
    raise AssertionError("unreachable")


def random_projective_tree(n: int, rng: random.Random) -> list[int]:
    """Heads of a tree drawn uniformly from the projective trees with one root word."""
    projective_trees(n)
    heads = [0] * n
    root = _pick([_complete(r) * _complete(n - 1 - r) for r in range(n)], rng)
    # (head, far end, direction): the head's complete span to be drawn, 0-based
    todo = [(root, 0, -1), (root, n - 1, 1)]
    while todo:
        h, end, step = todo.pop()
        d = (end - h) * step
        if d == 0:
            continue
        # the farthest dependent m on this side, m = h + step * k
        k = 1 + _pick([_incomplete(k) * _complete(d - k) for k in range(1, d + 1)], rng)
        m = h + step * k
        heads[m] = h + 1
        todo.append((m, end, step))  # m's own complete span beyond it
        # between h and m: h's complete span up to split e, m's back from there
        e = _pick([_complete(e) * _complete(k - 1 - e) for e in range(k)], rng)
        todo.append((h, h + step * e, step))
        todo.append((m, h + step * (e + 1), -step))
    return heads


class Baseline(Adapter):
    """``baseline:left|right|random|random-projective[:SEED]``."""

    name = "baseline"
    kind = "deps"

    def __init__(self, arg: str | None) -> None:
        super().__init__(arg)
        self.which, self.seed = _read(arg)

    @classmethod
    def spec_identity(cls, arg: str | None) -> dict[str, str] | None:
        which, seed = _read(arg)
        out = {"adapter": cls.name, "baseline": which}
        if which.startswith("random"):
            out.update(seed=str(seed), sampler="prufer-1" if which == "random"
                       else "eisner-counts-1")
        return out

    def parse(self, batch: Sequence[Item], tokenize: bool = False) -> Iterator[Outcome]:
        for item in batch:
            n = len(item.words)
            if n == 0:
                yield Failure("no words")
                continue
            if self.which == "left":
                heads = left_chain(n)
            elif self.which == "right":
                heads = right_chain(n)
            else:
                digest = hashlib.sha256(f"{self.seed}\0{chr(31).join(item.words)}"
                                        .encode()).digest()
                rng = random.Random(int.from_bytes(digest[:8], "big"))
                heads = random_tree(n, rng) if self.which == "random" \
                    else random_projective_tree(n, rng)
            yield Analysis(heads=heads, deprels=["root" if h == 0 else "dep" for h in heads])


def _read(arg: str | None) -> tuple[str, int]:
    which, _, seed = (arg or "").partition(":")
    if which not in KINDS:
        raise InputError(f"baseline:{arg or ''}: expected baseline:" + "|".join(KINDS)
                         + " (the random ones with :SEED)")
    if seed and (which in ("left", "right") or not (seed.isascii() and seed.isdigit())):
        raise InputError(f"baseline:{arg}: a seed is a number after a random baseline")
    return which, int(seed or 0)
