"""A trained TnT tagger is kept by the hash of its training file, as JSON: a second
start reads it back (trains nothing) and tags exactly as the trained one; a damaged
or foreign cache file is ignored and the tagger trained again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import DATA, FIXTURES, calls_of

from parsebench.formats.conllu import read_conllu

TRAIN = DATA / "lin-key.conllu"


@pytest.fixture
def counted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    pytest.importorskip("nltk")
    from parsebench.parsers import nltk as adapters

    monkeypatch.setenv("PARSEBENCH_CACHE", str(tmp_path / "cache"))
    return calls_of(monkeypatch, adapters, "train_tnt")


def tags(adapter: object) -> list[list[str]]:
    from parsebench.parsers.base import Item

    words = [s.forms for s in read_conllu(FIXTURES / "typos.conllu")]
    words += [["Zyzzyva", "quickly", "the", "ran", "Unheard-of"], ["a"]]
    items = [Item(k, w, " ".join(w)) for k, w in enumerate(words)]
    return [list(a.upos or []) for a in adapter.parse(items)]  # type: ignore[attr-defined]


def test_a_second_start_reads_the_tagger_back(counted: list[str], tmp_path: Path) -> None:
    from parsebench.parsers import tnt_cache
    from parsebench.parsers.nltk import TnTTagger

    first = TnTTagger(str(TRAIN))
    assert counted == [str(TRAIN)]
    kept = list((tmp_path / "cache" / "tnt").glob("*.json"))
    assert len(kept) == 1
    second = TnTTagger(str(TRAIN))
    assert counted == [str(TRAIN)]  # not trained again
    assert tags(second) == tags(first)
    assert tnt_cache.encode(second.tagger) == tnt_cache.encode(first.tagger)
    assert second.identity() == first.identity()


def test_another_training_file_is_another_tagger(counted: list[str], tmp_path: Path) -> None:
    from parsebench.parsers.nltk import TnTTagger

    other = tmp_path / "other.conllu"
    other.write_bytes(TRAIN.read_bytes().replace(b"\tN\t", b"\tNOUN\t", 1))
    TnTTagger(str(TRAIN))
    TnTTagger(str(other))
    assert counted == [str(TRAIN), str(other)]


@pytest.mark.parametrize("damage", [
    b"", b"{", b"[]", b'{"format": 1}', b'{"format": 1, "root": {"o": 0}, "objects": '
    b'[{"class": "Popen", "state": {}}]}',
    b'{"format": 1, "root": {"d": "Popen", "items": [], "attrs": null}, "objects": []}'])
def test_a_damaged_cache_file_is_trained_again(counted: list[str], damage: bytes) -> None:
    from parsebench.parsers import tnt_cache
    from parsebench.parsers.nltk import TnTTagger

    first = TnTTagger(str(TRAIN))
    path = next(tnt_cache.cache_dir().glob("*.json"))
    path.write_bytes(damage)
    again = TnTTagger(str(TRAIN))
    assert counted == [str(TRAIN)] * 2
    assert tags(again) == tags(first)
    assert json.loads(path.read_text())["format"] == tnt_cache.FORMAT  # written again
