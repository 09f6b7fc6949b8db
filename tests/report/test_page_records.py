"""The report's pages that are not methods (speed, drawn examples, browser data, the
attack's results) are records: a run's values read back from their stored JSON to
equal records whose JSON is the stored text byte for byte, key order included, with
the keys only some pages have (an alignment, the random baseline) where they are."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES
from experiments import write_exp
from probe_data import LEX, US, corpus

from parsebench.common.errors import InputError
from parsebench.common.record import plain
from parsebench.model.scored import Scored
from parsebench.parsers.cached import CachedParser, parsed_of
from parsebench.parsers.executor import Executor
from parsebench.probes.attack import AttackSettings, AttackValue, attack
from parsebench.run.experiment import load
from parsebench.run.page_values import PAGE_TYPES, BrowserData, Example, SpeedValue
from parsebench.run.page_values import typed_result as typed
from parsebench.run.runner import run_experiment
from parsebench.store import PAGES as STORE_PAGES
from parsebench.store import Store

LEARNER = FIXTURES / "learner.conllu"
PARSER = '[[parsers]]\nname = "p"\nspec = "python:toy_parsers:WeakWord"\n'
PAGES = ("speed", "examples", "browser", "attack")


def _run(tmp: Path, name: str, body: str) -> tuple[list[Scored], list[Scored]]:
    """A run's pages as it made them, and as the store gives them back (plain JSON)."""
    exp = write_exp(tmp, f'[corpus]\npath = "{LEARNER}"\n' + body, name)
    sys.path.insert(0, str(FIXTURES))
    with Store(tmp / f"{name}.sqlite") as store:
        made = run_experiment(load(exp), store, Executor("local", 1)).results
        stored = list(store.results(name))
    return [r for r in made if r.method in PAGES], [r for r in stored if r.method in PAGES]


def _same(made: Scored, stored: Scored) -> None:
    """MADE (records) is what STORED (JSON) reads back to, and writes the same text."""
    back = typed(stored)
    assert back.value == made.value, made.method
    assert json.dumps(plain(back.value)) == json.dumps(stored.value), made.method
    assert json.dumps(plain(made.value)) == json.dumps(stored.value), made.method


@pytest.mark.parametrize("name,body", [
    ("spelling", '[noise]\nrates = [0.1]\nreplicates = 2\nseed = 3\n' + PARSER
     + '[report]\nexamples = [1, 2]\nchanged_most = 2\n[attack]\nbudget = [1]\n'
     'queries = 20\n'),
    ("grammar", '[noise]\nkind = "grammar"\nper_sentence = [1]\ntypes = ["M:DET", "R:WO"]\n'
     + PARSER + '[report]\nchanged_most = 3\n'),
])
def test_a_runs_pages_are_their_records_json(tmp_path: Path, name: str, body: str) -> None:
    made, stored = _run(tmp_path, name, body)
    kinds = {r.method for r in made}
    assert kinds == ({"speed", "examples", "browser", "attack"} if name == "spelling"
                     else {"speed", "examples", "browser"})
    at = {(r.method, r.level): r for r in stored}
    for r in made:
        _same(r, at[(r.method, r.level)])
        if r.method == "speed":
            assert isinstance(r.value, SpeedValue)
        elif r.method == "examples":
            assert r.value and all(isinstance(x, Example) for x in r.value)
        elif r.method == "browser":
            assert isinstance(r.value, BrowserData)
        else:
            assert isinstance(r.value, AttackValue) and r.value.random is not None
    examples = [x for r in made if r.method == "examples" for x in r.value]
    # noise that moves words: the alignment and error types, at the end, only there
    if name == "grammar":
        assert any(x.alignment is not None for x in examples)
        assert all(list(x.to_dict())[-2:] == ["alignment", "types"] for x in examples
                   if x.alignment is not None)
    else:
        assert all("alignment" not in x.to_dict() for x in examples)


def test_the_attack_without_its_baseline_has_no_random_keys() -> None:
    sys.path.insert(0, str(FIXTURES))
    import toy_parsers

    def parse(batch: list[tuple[str, ...]]) -> list[object]:
        return [parsed_of(w, toy_parsers.weak_word(w)) for w in batch]

    _, r = attack(corpus(), CachedParser(parse), AttackSettings(budget=1, queries=10), US, LEX,
                  baseline=False)
    d = r.to_dict()
    assert "random" not in d and "ratio" not in d and list(d["picked"]) == ["attack"]
    assert list(d)[:4] == ["settings", "success", "damage", "picked"]
    assert list(d)[-5:] == ["sentences", "attacked", "short", "clean_failed", "calls"]
    assert AttackValue.from_dict(json.loads(json.dumps(d))) == r


def test_a_page_that_is_not_its_shape_is_refused() -> None:
    """A stored page with a key its record does not know is an error (the report says
    the store is damaged), not a figure silently dropped."""
    assert set(STORE_PAGES) <= set(PAGE_TYPES)  # every page the store keeps apart is read
    with pytest.raises(TypeError, match="no field for 'extra'"):
        PAGE_TYPES["speed"]({"extra": 1})
    with pytest.raises(InputError, match="examples of p does not read"):
        typed(Scored("p", "examples", "deps", "chosen", "", [1]))
    # a record is left as it is; a method's result still goes to its method's record
    r = Scored("p", "browser", "deps", "all", "", BrowserData("deps", [], [], [], [], [], [],
                                                              None))
    assert typed(r) is r
