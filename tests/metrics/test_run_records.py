"""The records of Lin's and CoNLL 2018's, EVALB's and the flat keys' results: each one a
real small run makes is its JSON read back, key for key and in the same order, as the
store keeps it (``stats`` last), and the report reads them by attribute."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from conftest import FIXTURES, needs

import parsebench as pb
from parsebench.metrics.constituency.evalb_records import EvalbValue
from parsebench.metrics.constituency.gaizauskas_records import FlatValue
from parsebench.metrics.dependency.figures import Bucket, DepsValue, LinScore
from parsebench.metrics.registry import METHODS
from parsebench.store import Store


def _round_trips(store: Path, experiment: str, methods: tuple[str, ...]) -> int:
    n = 0
    with Store(store) as st:
        for r in st.results(experiment):
            if r.method not in methods:
                continue
            rtype = METHODS[r.method].value_type
            assert rtype is not None
            rec = rtype.from_dict(r.value)
            assert json.dumps(rec.to_dict()) == json.dumps(r.value)  # the order too
            assert rtype.from_dict(rec.to_dict()) == rec
            n += 1
    return n


def test_a_runs_deps_results_are_their_records(tmp_path: Path) -> None:
    sys.path.insert(0, str(FIXTURES))
    exp = tmp_path / "exp.toml"
    exp.write_text(f'''name = "rec"
[corpus]
path = "{FIXTURES / 'learner.conllu'}"
[noise]
rates = [0.2]
replicates = 2
lexicon = "{FIXTURES / 'lexicon.txt'}"
[[parsers]]
name = "weak"
spec = "python:toy_parsers:WeakWord"
[metrics]
deps = {{ by = ["category", "arc-length"], align = "words" }}
''')
    got = pb.run(exp, store=tmp_path / "s.sqlite", report=tmp_path / "r")
    deps = [r for r in got.results if r.method == "deps"]
    assert deps and all(isinstance(r.value, DepsValue) for r in deps)
    clean = next(r.value for r in deps if r.projection == "deprel" and r.level == "clean")
    assert clean.las.f1 == clean.to_dict()["las"]["f1"]
    assert clean.alignment is not None and clean.confusion is not None
    assert clean.interval("las") is not None and clean.stats
    arcs = clean.breakdown("arc-length")  # what the summary's arc-length hurt reads
    assert arcs and {g: b.to_dict() for g, b in arcs.items()} == \
        clean.to_dict()["breakdowns"]["arc-length"]
    assert all(isinstance(b, Bucket) for b in arcs.values()) and clean.breakdown("x") == {}
    by_genre = next(r.value for r in deps if r.projection == "category")
    assert by_genre.by and all(b.seconds is not None for b in by_genre.by.values())
    assert _round_trips(tmp_path / "s.sqlite", "rec", ("deps",)) == len(deps)


def test_a_genre_bucket_keeps_its_speed_key_even_when_it_is_na() -> None:
    """words_per_second is null where no time was taken, but only a genre's bucket has
    the key at all."""
    timed = Bucket(2, 10, LinScore(), LinScore(), seconds=0.0)
    assert list(timed.to_dict())[-2:] == ["seconds", "words_per_second"]
    assert timed.to_dict()["words_per_second"] is None
    assert Bucket.from_dict(timed.to_dict()) == timed
    assert "words_per_second" not in Bucket().to_dict()


def test_a_runs_bracket_results_are_their_records(tmp_path: Path) -> None:
    needs("nltk")
    (tmp_path / "in.txt").write_text("Maria walked her dog .\nThe dog ran to the river .\n")
    exp = tmp_path / "exp.toml"
    exp.write_text('''name = "trees"
[corpus]
path = "in.txt"
[noise]
per_sentence = [1]
replicates = 2
seed = 5
[[parsers]]
name = "earley"
spec = "nltk-earley:english.cfg"
''')
    got = pb.run(exp, store=tmp_path / "s.sqlite", report=tmp_path / "r")
    values = {r.method: r.value for r in got.results if r.method in ("evalb", "flat")}
    assert isinstance(values["evalb"], EvalbValue) and isinstance(values["flat"], FlatValue)
    assert values["evalb"].ci95.f1 is None or len(values["evalb"].ci95.f1) == 2
    assert _round_trips(tmp_path / "s.sqlite", "trees", ("evalb", "flat")) == 2
