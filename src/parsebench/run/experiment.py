"""Experiment files: a TOML file naming the corpus, noise, parsers and metrics (SPEC 3).

Read with the standard library's tomllib; every mistake is reported with the
file and the line of the offending key, before any work starts. Relative
paths (the corpus, and files named in a parser spec) are taken from the
experiment file's folder, so an experiment runs the same from anywhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parsebench.common.errors import InputError
from parsebench.common.limits import problem
from parsebench.common.record import OMIT, Record
from parsebench.metrics.core.method import on
from parsebench.metrics.registry import METHODS
from parsebench.model.level import Level
from parsebench.model.parses import PROJECTIONS
from parsebench.noise.kinds import DEFAULT_KIND, KINDS, OWN_KEYS, moves_words
from parsebench.noise.languages import LANGUAGES, keyboard_for
from parsebench.run import schema
from parsebench.run.schema import At, Field, Reader, TomlTable, kept

METRICS_KEYS = set(METHODS)
"""The methods a run can score (:data:`parsebench.metrics.registry.METHODS`), each
switched on and off by its name in ``[metrics]``."""

@dataclass
class ParserConf(Record):
    """A parser of a run: its name, spec and settings (a record: the run keeps it as
    its ``to_dict()``)."""

    name: str
    spec: str
    accuracy: float | dict[str, float] | None = None
    """Clean-text accuracy for the bounds: one figure, or one per projection."""
    timeout: float = 60.0
    batch_size: int = 16
    written: str | None = field(default=None, metadata=OMIT)
    """The spec as the experiment file wrote it, where :attr:`spec` differs (its files
    made absolute): what a report shows, so that it names no path the user did not."""

    @property
    def shown(self) -> str:
        """The spec as the user wrote it."""
        return self.written or self.spec

    def accuracy_for(self, projection: str) -> float | None:
        if isinstance(self.accuracy, dict):
            return self.accuracy.get(projection)
        return self.accuracy


@dataclass
class Experiment:
    name: str
    source: Path
    corpus: list[Path]
    """One or more files, read as one corpus in this order."""
    limit: int | None = None
    corrected: list[Path] | None = None
    gold: bool = True
    """False: the corpus's annotation is ignored (its words used as unannotated text)."""
    typos_only: bool = False
    train: Path | None = None
    """The corpus's training split (its train file, or dev where there is none), for a
    parser trained on each corpus (``spec = "udpipe:train"``)."""
    tokens: str = "gold"
    """What a parser is given: the gold words (``gold``), or the text (``raw``: each
    document's, or each sentence's where the corpus marks no document), which it
    tokenizes and segments itself; its words are then scored against the gold's
    by character alignment, as the CoNLL 2018 scorer does."""
    alignment: str = "edit-distance"
    """How the corpus's words align with the corrected text's: edit-distance, or errant
    (ERRANT's typed edits, so robustness F1 is broken down by error type)."""
    errant_pipeline: str = "en_core_web_sm"
    """Keep only the sentences with a natural typo (``CorrectForm=`` in MISC)."""
    natural: bool = False
    """The text as written is one error level against its CorrectForm corrections,
    and an artificial level at the same rate is added beside it."""
    calibration: Path | None = None
    calibration_limit: int | None = None
    levels: list[Level] = field(default_factory=list)
    replicates: int = 1
    seed: int = 1
    corpus_lang: str | None = None
    """``[corpus] lang``: the corpus's language, the noise's default ``lang``."""
    lang: str = "en"
    lexicon: str | None = None
    keyboard: str | None = None
    """The layout: given, or the language's (None: a language typed through an input
    method, which has no misspellings)."""
    min_length: int = 2
    kind: str = DEFAULT_KIND
    """The kind of noise (:data:`parsebench.noise.kinds.KINDS`): spelling (one misspelling
    a word, words kept), grammar (learner-like errors that add, drop and move words;
    scored through their alignment) or another package's."""
    noise: Any = field(default_factory=lambda: KINDS[DEFAULT_KIND].restore({}))
    """The kind's own settings (its ``settings``: weights, profile, types...)."""
    parsers: list[ParserConf] = field(default_factory=list)
    metrics: dict[str, Any] = field(default_factory=dict)
    """Each method's settings, by its key in ``[metrics]``, as the method reads them
    (:attr:`parsebench.metrics.core.method.Method.settings`); a method absent here has its
    ``default``."""
    examples: list[int] = field(default_factory=list)
    """Sentences the report draws, each at the lowest level where it is misspelled."""
    changed_most: int = 3
    """Besides: the sentences whose parse changed most at the example level."""
    example_level: str | None = None
    """The level of those (a label such as "rate=0.05"; default the lowest)."""
    example_replicate: int = 1
    attack: tuple[tuple[int, ...], int, int] | None = None
    """``[attack]``: (budgets K, candidates a word, queries a sentence); each dependency
    parser is attacked at each K, seeded by the experiment's seed (:mod:`parsebench.probes.attack`
    ), beside the random noise."""
    benchmark: tuple[str, str] | None = None
    """(the benchmark's name, this corpus's name) when the experiment is one corpus of
    an experiment over several (``[[corpora]]``); kept in the run's record, so that the
    report finds a benchmark's corpora. None: a single-corpus experiment (its record
    as before)."""

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> Experiment:
        """The experiment a run recorded with :meth:`config` (checked when it was read,
        its paths resolved): ``from_config(e.config()).config() == e.config()``. What
        ``export`` rebuilds a run's noisy versions from. The report's choices (which
        sentences it draws) and the calibration's limit are not in the record."""
        return cls(source=Path("."), **schema.restore(FIELDS, config))

    def config(self) -> dict[str, Any]:
        """The settings as stored with a run (paths as given, resolved)."""
        return schema.record(FIELDS, vars(self))

    def setting(self, method: str) -> Any:
        """METHOD's settings (its ``default`` when the experiment names none)."""
        got = self.metrics.get(method)
        return METHODS[method].default if got is None else got

    def wants(self, method: str) -> bool:
        """Whether ``[metrics]`` leaves METHOD on."""
        return on(self.setting(method))


def resolve_spec(spec: str, base: Path) -> str:
    """A parser spec with its file argument made absolute (relative to the experiment file)."""
    name, colon, arg = spec.partition(":")
    if not colon or name in ("python", "command", "command-text") or not arg:
        return spec
    def absolute(part: str) -> str:
        candidate = Path(part)
        if not candidate.is_absolute() and (base / candidate).exists():
            return str((base / candidate).resolve())
        return part

    if absolute(arg) != arg or "," not in arg:
        return f"{name}:{absolute(arg)}"
    # MODEL,key=FILE,... (malt:, yara:): each file relative to the experiment file too
    first, *options = re.split(r",(?=[a-z_]+=)", arg)
    return f"{name}:" + ",".join([absolute(first), *(
        f"{k}={absolute(v)}" for k, _, v in (o.partition("=") for o in options))])


MAX_NAME = 100
"""Characters an experiment name may have."""


def _name(at: At) -> str:
    name: str = at.get(str) or at.reader.path.stem
    if len(name) > MAX_NAME or any(c in name for c in "/\\") or not name.isprintable():
        raise at.fail(f"name {name[:40]!r}: at most {MAX_NAME} printable characters, no / "
                      "or \\ (it names the store, the report and its files)")
    return name


def _joined(paths: list[Path] | None) -> str | None:
    """Files as a run's record keeps them: one string, joined with " + "."""
    return " + ".join(map(str, paths)) if paths else None


def _split(v: Any) -> list[Path]:
    return [Path(x) for x in str(v).split(" + ")] if v else []


def _alignment(at: At) -> str:
    got: str = at.get(str, "edit-distance")
    if got not in ("edit-distance", "errant"):
        raise at.fail(f"alignment: {got!r} is not edit-distance or errant")
    return got


def _errant(config: dict[str, Any]) -> str | None:
    """The ERRANT pipeline of a record's alignment ("errant:PIPELINE"), if any."""
    alignment = str(config.get("alignment") or "")
    return alignment.split(":", 1)[1] if alignment.startswith("errant:") else None


def _levels(at: At) -> list[Level]:
    """The error levels: ``rates``, then ``per_sentence``."""
    levels = []
    for v in at.get(list, []):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v <= 1:
            raise at.fail(f"rates: {v!r} is not a fraction in (0, 1], e.g. 0.05")
        levels.append(Level("rate", float(v)))
    per = at.of("per_sentence")
    for v in per.get(list, []):
        if isinstance(v, bool) or not isinstance(v, int) or problem("per_sentence", v):
            raise per.fail(f"per_sentence: {v!r} is not a count from 1 to 10,000")
        levels.append(Level("per_sentence", v))
    return levels


def _seed(at: At) -> int:
    seed: int = at.get(int, 1)
    if (wrong := problem("seed", seed)) is not None:
        raise at.fail(f"seed {wrong}")
    return seed


def _lang(at: At) -> str:
    """``[noise] lang``, or else the corpus's (``[corpus] lang``), or English."""
    given: str | None = at.get(str)
    of_corpus = at.got.get("corpus_lang")
    if given is not None and of_corpus is not None and given != of_corpus:
        raise at.fail(f"lang: [noise] lang = {given!r} but the corpus's lang = "
                      f"{of_corpus!r}")
    return given or of_corpus or "en"


def _keyboard(at: At) -> str | None:
    given: str | None = at.get(str)
    lang = at.got["lang"]
    if given or (lang in LANGUAGES and LANGUAGES[lang].keyboard is None):
        return given
    return keyboard_for(lang)


def _tokens(at: At) -> str:
    tokens: str = at.get(str, "gold")
    if tokens not in ("gold", "raw"):
        raise at.fail(f"tokens: \"gold\" (the parser gets the gold words) or \"raw\" (each "
                      f"sentence's text, which it tokenizes), not {tokens!r}")
    return tokens


def _kind(at: At) -> str:
    kind: str = at.get(str, DEFAULT_KIND)
    if kind not in KINDS:
        raise at.fail(f"kind: {kind!r} is not " + " or ".join(KINDS))
    if at.got.get("tokens") == "raw" and KINDS[kind].moves_words:  # before its settings
        raise at.fail(f"kind = \"{kind}\" adds, drops or moves words, scored through their "
                      "alignment, which a parser's own tokens do not keep: not with "
                      "tokens = \"raw\"")
    return kind


def _restored_kind(config: dict[str, Any]) -> str:
    kind: str = config.get("kind", DEFAULT_KIND)
    if kind not in KINDS:
        raise InputError(f"the run used noise of kind {kind!r}, which this "
                         "parsebench does not have")
    return kind


def _noise(at: At) -> Any:
    """The kind's own ``[noise]`` keys, read by the kind; a key of another kind is refused
    with what it is for."""
    name = at.got["kind"]
    kind = KINDS[name]
    for k in at.values:
        if k in OWN_KEYS and k not in kind.options:
            owner = next(x for x in KINDS.values() if k in x.options)
            raise at.of(k).fail(f"{k}: for kind = \"{owner.name}\" ({owner.options[k]})")

    def reader(k: str) -> At:
        if k == "lang" and "lang" not in at.values:  # the corpus's language
            return At(at.reader, {}, "corpus", "lang", at.got)
        return at.of(k)

    settings = kind.settings(reader, _Shared(at.got["lang"], at.got["natural"],
                                             at.got["levels"]))
    if at.got.get("tokens") == "raw" and moves_words(name, settings):
        raise at.of("tokenization" if "tokenization" in at.values else "kind").fail(
            "this noise adds, drops or moves words, scored through their alignment, which "
            "a parser's own tokens do not keep: not with tokens = \"raw\"")
    return settings


@dataclass(frozen=True)
class _Shared:
    lang: str
    natural: bool
    levels: list[Level]


def _parsers(at: At) -> list[ParserConf]:
    """The ``[[parsers]]`` tables, each checked, their files resolved."""
    r = at.reader
    parsers = at.get(list)
    if not parsers:
        raise r.fail("an experiment needs at least one [[parsers]] table with name and spec")
    out: list[ParserConf] = []
    for p in parsers:
        if not isinstance(p, dict):
            raise at.fail("parsers must be [[parsers]] tables")
        r.check_keys(p, "parsers")
        one = At(r, p, "parsers", "name", at.got)
        pname, spec = one.get(str), one.of("spec").get(str)
        if not pname or not spec:
            raise at.fail("every [[parsers]] needs name and spec")
        if any(q.name == pname for q in out):
            raise one.fail(f"two parsers named {pname!r}")
        acc = one.of("accuracy").get((int, float, dict))
        for proj, v in (acc.items() if isinstance(acc, dict) else [("", acc)]):
            if proj and proj not in PROJECTIONS:
                raise one.of("accuracy").fail(f"accuracy: {proj!r} is not one of "
                                              + ", ".join(PROJECTIONS))
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))
                                  or not 0 < v <= 1):
                raise one.of("accuracy").fail(
                    f"accuracy {v!r}: expected a fraction in (0, 1], e.g. 0.89")
        timeout = one.of("timeout").get((int, float), 60.0)
        if (wrong := problem("timeout", timeout)) is not None:
            raise one.of("timeout").fail(f"timeout {wrong}")
        resolved = resolve_spec(spec, r.path.parent)
        out.append(ParserConf(pname, resolved,
                              {k: float(v) for k, v in acc.items()} if isinstance(acc, dict)
                              else None if acc is None else float(acc), float(timeout),
                              one.of("batch_size").positive() or 16,
                              spec if resolved != spec else None))
    return out


def _metrics(at: At) -> dict[str, Any]:
    """``[metrics]``: each method's value, read by the method's own reader."""
    out = {}
    for name, method in METHODS.items():
        if method.settings is None:
            out[name] = at.of(name).get(bool, True)
        else:
            out[name] = method.settings(at.values.get(name, True), at.of(name))
    return out


def _recorded_metrics(metrics: dict[str, Any], _: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for name, m in METHODS.items():
        got = metrics.get(name)
        setting = m.default if got is None else got
        out[name] = m.record(setting) if m.record else setting
    return out


def _restored_metrics(config: dict[str, Any]) -> dict[str, Any]:
    return {name: m.restore(config[name]) if m.restore else config[name]
            for name, m in METHODS.items() if name in config}


def _examples(at: At) -> list[int]:
    ex: list[int] = at.get(list, [])
    if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 1 for x in ex):
        raise at.fail("examples: sentence numbers from 1")
    return ex


def _changed_most(at: At) -> int:
    most: int = at.get(int, 3)
    if isinstance(most, bool) or most < 0:
        raise at.fail("changed_most: a count of 0 or more")
    return most


def _example_level(at: At) -> str | None:
    level: str | None = at.get(str)
    labels = [lv.label for lv in at.got["levels"]]
    if level is not None and level not in [*labels, "natural", "rate"]:
        raise at.fail(f"level: {level!r} is not one of the experiment's levels ("
                      + ", ".join(labels) + ")")
    return level


def _example_replicate(at: At) -> int:
    rep: int = at.get(int, 1)
    if isinstance(rep, bool) or not 1 <= rep <= at.got["replicates"]:
        raise at.fail(f"replicate: from 1 to {at.got['replicates']}")
    return rep


def _attack(at: At) -> tuple[tuple[int, ...], int, int]:
    """``[attack]``, each value checked as ``parsebench attack`` checks its options."""
    from parsebench.probes.attack import AttackSettings

    budget = at.of("budget").get((int, list), [1])
    budgets = budget if isinstance(budget, list) else [budget]
    if not budgets or not all(isinstance(k, int) and not isinstance(k, bool)
                              for k in budgets):
        raise at.of("budget").fail("budget: a count of words a sentence, or a list of them")
    candidates = at.of("candidates").get(int, 5)
    queries = at.of("queries").get(int, 50)
    for k in budgets:
        try:
            AttackSettings(k, candidates, queries, at.got["seed"], at.got["min_length"]).check()
        except InputError as exc:
            key = next((n for n in ("queries", "candidates") if f"--{n}" in exc.message),
                       "budget")
            raise at.of(key).fail(exc.message.replace("--", "")) from None
    return tuple(dict.fromkeys(budgets)), candidates, queries


def _recorded_attack(a: Any, _: dict[str, Any]) -> dict[str, Any]:
    return {"attack": {"budget": list(a[0]), "candidates": a[1], "queries": a[2]}} if a else {}


def _restored_attack(config: dict[str, Any]) -> tuple[tuple[int, ...], int, int] | None:
    a = config.get("attack")
    return (tuple(a["budget"]), a["candidates"], a["queries"]) if a else None


TABLE_LIST = (
    TomlTable(""),
    TomlTable("corpus", "an experiment needs a [corpus] table with path = \"FILE\""),
    TomlTable("noise"),
    TomlTable("parsers", keys=frozenset({"name", "spec", "accuracy", "timeout", "batch_size"})),
    TomlTable("metrics", keys=frozenset(METHODS)),
    TomlTable("calibration", "skip"),
    TomlTable("report"),
    TomlTable("attack", "skip", keys=frozenset({"budget", "candidates", "queries"})),
)
"""The experiment file's tables; each is read when its first field is."""

FIELDS: tuple[Field, ...] = (
    Field("name", "", "name", _name, lambda v, _: {"name": v}, lambda c: c["name"]),
    Field("corpus", "corpus", "path", lambda at: at.paths(True) or [at.reader.path],
          lambda v, _: {"corpus": _joined(v)}, lambda c: _split(c["corpus"])),
    Field("limit", "corpus", "limit", At.positive, **kept("limit")),
    Field("corrected", "corpus", "corrected", lambda at: at.paths(False),
          **kept("corrected", to=_joined, back=lambda v: _split(v) or None)),
    Field("gold", "corpus", "gold", lambda at: at.get(bool, True), **kept("gold", True)),
    Field("typos_only", "corpus", "typos_only", lambda at: at.get(bool, False),
          **kept("typos_only", False)),
    Field("train", "corpus", "train",  # kept only when given: records so far hold
          lambda at: next(iter(at.paths(False, many=False) or []), None),
          lambda v, _: {"train": str(v)} if v else {},
          lambda c: Path(c["train"]) if c.get("train") else None),
    Field("tokens", "corpus", "tokens", _tokens,  # kept only when raw: records so far hold
          lambda v, _: {"tokens": v} if v != "gold" else {},
          lambda c: str(c.get("tokens", "gold"))),
    Field("alignment", "corpus", "alignment", _alignment,
          lambda v, e: {"alignment": f"errant:{e['errant_pipeline']}"}
          if e["corrected"] and v == "errant" else {},
          lambda c: "errant" if _errant(c) is not None else "edit-distance"),
    Field("errant_pipeline", "corpus", "errant_pipeline",  # kept in "alignment"
          lambda at: at.get(str, "en_core_web_sm"),
          restore=lambda c: _errant(c) or "en_core_web_sm"),
    Field("corpus_lang", "corpus", "lang", lambda at: at.get(str)),  # kept as "lang"
    Field("levels", "noise", "rates", _levels, also=("per_sentence",),
          **kept("levels", [], to=lambda v: [lv.label for lv in v],
                 back=lambda v: [Level.of_label(x) for x in v])),
    Field("natural", "noise", "natural", lambda at: at.get(bool, False),
          **kept("natural", False)),
    Field("replicates", "noise", "replicates", lambda at: at.positive() or 1,
          **kept("replicates", 1)),
    Field("seed", "noise", "seed", _seed, **kept("seed", 1)),
    Field("lang", "noise", "lang", _lang, **kept("lang", "en")),
    Field("lexicon", "noise", "lexicon", lambda at: at.get(str), **kept("lexicon")),
    Field("keyboard", "noise", "keyboard", _keyboard, **kept("keyboard")),
    Field("kind", "noise", "kind", _kind, lambda v, _: {"kind": v},
          _restored_kind),
    Field("noise", "noise", None, _noise, lambda v, e: KINDS[e["kind"]].record(v),
          lambda c: KINDS[_restored_kind(c)].restore(c), also=tuple(OWN_KEYS)),
    Field("min_length", "noise", "min_length", lambda at: at.positive() or 2,
          **kept("min_length", 2)),
    Field("parsers", "", "parsers", _parsers, lambda v, _: {"parsers": [vars(p) for p in v]},
          lambda c: [ParserConf(**p) for p in c.get("parsers", [])]),
    Field("metrics", "metrics", None, _metrics, _recorded_metrics, _restored_metrics),
    Field("calibration", "calibration", "path", lambda at: at.path(""),
          **kept("calibration", to=lambda v: str(v) if v else None,
                 back=lambda v: Path(v) if v else None)),
    Field("calibration_limit", "calibration", "limit", At.positive),
    Field("examples", "report", "examples", _examples),
    Field("changed_most", "report", "changed_most", _changed_most),
    Field("example_level", "report", "level", _example_level),
    Field("example_replicate", "report", "replicate", _example_replicate),
    Field("attack", "attack", None, _attack, _recorded_attack, _restored_attack),
    # not in the file: set by the benchmark that runs the experiment as one of its corpora
    Field("benchmark", "", None, lambda at: None,
          lambda v, _: {"benchmark": {"name": v[0], "corpus": v[1]}} if v else {},
          lambda c: (str(c["benchmark"]["name"]), str(c["benchmark"]["corpus"]))
          if isinstance(c.get("benchmark"), dict) else None),
)
"""The experiment's settings, in the order they are read: the one description from
which :func:`load`, :meth:`Experiment.config` and :meth:`Experiment.from_config` come."""

TABLES = schema.known_keys(TABLE_LIST, FIELDS)
"""Each table's known keys."""


def load(path: str | Path) -> Experiment:
    """The experiment file at PATH, every setting checked (:data:`FIELDS`)."""
    path = Path(path)
    lines, data = schema.parse(path)
    return read_experiment(path, lines, data)


def read_experiment(path: Path, lines: list[str], data: dict[str, Any]) -> Experiment:
    """The experiment of DATA (PATH's TOML, LINES its lines: where a mistake is)."""
    exp = Experiment(source=path, **schema.read(Reader(path, lines, TABLES), data,
                                                TABLE_LIST, FIELDS))
    if not exp.levels and not exp.natural and not exp.corrected and not exp.wants("deps") \
            and not exp.attack:
        raise InputError("nothing to measure: give [noise] rates or per_sentence, [corpus] "
                         "corrected, or a gold corpus with deps = true", path)
    return exp
