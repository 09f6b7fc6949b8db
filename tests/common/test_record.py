"""Records are their JSON: to_dict keeps the fields' order, renames and omissions, and
from_dict reads every output back to an equal record."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parsebench.common.record import OMIT, Record, key


@dataclass(frozen=True)
class Share(Record):
    correct: int
    gold: int
    f1: float | None
    ci: tuple[float, float] | None = field(default=None, metadata=OMIT)


@dataclass(frozen=True)
class Outer(Record):
    lam: float = field(metadata=key("lambda"))
    shares: dict[str, Share]
    first: Share | None
    rows: list[Share]
    notes: tuple[str, ...] = ()


shares = st.builds(Share, st.integers(0, 9), st.integers(0, 9),
                   st.none() | st.floats(0, 1),
                   st.none() | st.tuples(st.floats(0, 1), st.floats(0, 1)))
outers = st.builds(Outer, st.floats(0, 1), st.dictionaries(st.text(max_size=3), shares,
                                                           max_size=3),
                   st.none() | shares, st.lists(shares, max_size=3),
                   st.lists(st.text(max_size=3), max_size=2).map(tuple))


@given(outers)
def test_a_record_reads_back_from_its_json(r: Outer) -> None:
    text = json.dumps(r.to_dict())
    assert Outer.from_dict(json.loads(text)) == r


def test_keys_are_renamed_ordered_and_omitted() -> None:
    r = Outer(0.5, {"x": Share(1, 2, None)}, None, [Share(1, 2, 0.5, (0.25, 0.75))])
    assert list(r.to_dict()) == ["lambda", "shares", "first", "rows", "notes"]
    assert r.to_dict()["shares"] == {"x": {"correct": 1, "gold": 2, "f1": None}}
    assert r.to_dict()["rows"][0]["ci"] == [0.25, 0.75]


def test_an_unknown_key_is_refused() -> None:
    with pytest.raises(TypeError, match="no field for 'recall'"):
        Share.from_dict({"correct": 1, "gold": 1, "f1": None, "recall": 1.0})


@dataclass(frozen=True)
class Other(Record):
    correct: int
    runs: dict[str, int]


@dataclass(frozen=True)
class Either(Record):
    one: Share | Other | None


def test_a_union_of_records_reads_the_one_whose_keys_the_object_has() -> None:
    """Records whose objects differ in their keys (an experiment's run statistics and a
    benchmark's) share a field: each reads back as its own; an object neither reads is
    the last one's error."""
    for r in (Either(Share(1, 2, None)), Either(Other(1, {"a": 2})), Either(None)):
        assert Either.from_dict(json.loads(json.dumps(r.to_dict()))) == r
    with pytest.raises(TypeError, match="Other has no field for 'gold'"):
        Either.from_dict({"one": {"correct": 1, "gold": 1, "f1": None, "x": 0}})
