"""Data flows one way: no module imports, at any depth (a function's lazy import
included), a module that imports it back, directly or through others."""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT

SRC = ROOT / "src" / "parsebench"


def _module(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports() -> dict[str, set[str]]:
    mods = {_module(p): p for p in SRC.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for m, p in mods.items():
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for n in names:
                if n in mods and n != m and not m.startswith(n + "."):
                    graph[m].add(n)  # a package's own __init__ is not a way back
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_its_way_back_to_itself() -> None:
    assert cycles(imports()) == []


def _under(name: str, *packages: str) -> bool:
    """Whether module NAME is one of PACKAGES or lies inside one."""
    return any(name == p or name.startswith(p + ".") for p in packages)


def test_the_metrics_never_import_what_drives_them() -> None:
    above = ("parsebench.run", "parsebench.cli", "parsebench.api", "parsebench.report",
             "parsebench.store")
    for m, deps in imports().items():
        if _under(m, "parsebench.metrics", "parsebench.formats", "parsebench.model.parses"):
            assert not {d for d in deps if _under(d, *above)}, (m, deps)


def test_each_layer_imports_only_the_layers_under_it() -> None:
    """The parsers and the store know nothing of a run; a run writes the store and never
    reads its report; the report is drawn from the store; none of them knows the API
    (api/) or the commands (cli/) that call it."""
    top = ("parsebench.api", "parsebench.cli")
    above = {"parsebench.parsers": ("parsebench.run", "parsebench.report", *top),
             "parsebench.store": ("parsebench.run", "parsebench.report", *top),
             "parsebench.run": ("parsebench.report", *top),
             "parsebench.report": top}
    for m, deps in imports().items():
        for layer, higher in above.items():
            if _under(m, layer):
                assert not {d for d in deps if _under(d, *higher)}, (m, deps)
