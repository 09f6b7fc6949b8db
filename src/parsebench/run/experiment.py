"""Experiment files: a TOML file naming the corpus, noise, parsers and metrics (SPEC 3).

Read with the standard library's tomllib; every mistake is reported with the
file and the line of the offending key, before any work starts. Relative
paths (the corpus, and files named in a parser spec) are taken from the
experiment file's folder, so an experiment runs the same from anywhere.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parsebench.errors import InputError, read_lines
from parsebench.limits import LIMITS, problem
from parsebench.metrics.method import on
from parsebench.metrics.registry import METHODS
from parsebench.noise.grammar_types import DEFAULT_WEIGHTS
from parsebench.noise.grammar_types import TYPES as GRAMMAR_TYPES
from parsebench.noise.keyboard import KEYBOARDS
from parsebench.noise.kinds import KINDS
from parsebench.noise.spelling import OPERATIONS
from parsebench.parses import PROJECTIONS

METRICS_KEYS = set(METHODS)
"""The methods a run can score (:data:`parsebench.metrics.registry.METHODS`), each
switched on and off by its name in ``[metrics]``."""

TABLES: dict[str, set[str]] = {
    "": {"name", "corpus", "noise", "parsers", "metrics", "calibration", "report", "attack"},
    "corpus": {"path", "limit", "corrected", "gold", "typos_only", "alignment",
               "errant_pipeline"},
    "noise": {"rates", "per_sentence", "natural", "replicates", "seed", "lang", "lexicon",
              "keyboard", "weights", "min_length", "kind", "types", "keep_mix"},
    "parsers": {"name", "spec", "accuracy", "timeout", "batch_size"},
    "metrics": METRICS_KEYS,
    "calibration": {"path", "limit"},
    "report": {"examples", "changed_most", "level", "replicate"},
    "attack": {"budget", "candidates", "queries"},
}


@dataclass(frozen=True)
class Level:
    """One error level: a rate of misspelled words, or misspellings per sentence."""

    mode: str
    value: float

    @property
    def label(self) -> str:
        if self.mode == "natural":
            return "natural"
        return f"rate={self.value:g}" if self.mode == "rate" else f"per-sentence={self.value:g}"

    @staticmethod
    def of_label(label: str) -> Level:
        """The level whose :attr:`label` is LABEL (as a run's record keeps it)."""
        if label == "natural":
            return Level("natural", 0.0)
        mode, _, value = label.partition("=")
        return Level("per_sentence" if mode == "per-sentence" else mode, float(value))

    @property
    def rate(self) -> float | None:
        """The noise settings' rate (None unless a rate level)."""
        return self.value if self.mode == "rate" else None

    @property
    def per_sentence(self) -> int | None:
        return int(self.value) if self.mode == "per_sentence" else None

    @property
    def short(self) -> str:
        if self.mode == "natural":
            return "natural"
        return f"{self.value * 100:.3g}%" if self.mode == "rate" else f"{self.value:g}/sentence"


@dataclass
class ParserConf:
    name: str
    spec: str
    accuracy: float | dict[str, float] | None = None
    """Clean-text accuracy for the bounds: one figure, or one per projection."""
    timeout: float = 60.0
    batch_size: int = 16

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
    lang: str = "en"
    lexicon: str | None = None
    keyboard: str | None = None
    weights: dict[str, float] = field(default_factory=lambda: dict.fromkeys(OPERATIONS, 1.0))
    min_length: int = 2
    keep_mix: bool = False
    """Spelling: keep the asked-for operation mix (:mod:`parsebench.noise.spelling`)."""
    kind: str = "spelling"
    """spelling (one misspelling a word, words kept) or grammar (learner-like errors that
    add, drop and move words; scored through their alignment)."""
    types: tuple[str, ...] = GRAMMAR_TYPES
    parsers: list[ParserConf] = field(default_factory=list)
    metrics: dict[str, Any] = field(default_factory=dict)
    """Each method's settings, by its key in ``[metrics]``, as the method reads them
    (:attr:`parsebench.metrics.method.Method.settings`); a method absent here has its
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
    parser is attacked at each K, seeded by the experiment's seed (:mod:`parsebench.attack`
    ), beside the random noise."""

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> Experiment:
        """The experiment a run recorded with :meth:`config` (checked when it was read,
        its paths resolved): ``from_config(e.config()).config() == e.config()``. What
        ``export`` rebuilds a run's noisy versions from. The report's choices (which
        sentences it draws) and the calibration's limit are not in the record."""
        def paths(v: Any) -> list[Path]:
            return [Path(x) for x in str(v).split(" + ")] if v else []

        exp = cls(config["name"], Path("."), paths(config["corpus"]),
                  limit=config.get("limit"), corrected=paths(config.get("corrected")) or None,
                  gold=config.get("gold", True), typos_only=config.get("typos_only", False),
                  natural=config.get("natural", False))
        exp.levels = [Level.of_label(x) for x in config.get("levels", [])]
        exp.replicates, exp.seed = config.get("replicates", 1), config.get("seed", 1)
        exp.lang, exp.lexicon = config.get("lang", "en"), config.get("lexicon")
        # the record's keys are sorted; the noise (and its key in the store) follows the
        # operations' own order
        w = config.get("weights") or exp.weights
        exp.kind = config.get("kind", "spelling")
        kind = KINDS.get(exp.kind)
        if kind is None:
            raise InputError(f"the run used noise of kind {exp.kind!r}, which this "
                             "parsebench does not have")
        exp.keyboard = config.get("keyboard")
        exp.weights = {k: float(w.get(k, 0.0)) for k in kind.weights}
        if kind.types:
            exp.types = tuple(t for t in kind.types if t in config.get("types", ()))
        exp.min_length = config.get("min_length", exp.min_length)
        exp.keep_mix = bool(config.get("keep_mix", False))
        exp.parsers = [ParserConf(**p) for p in config.get("parsers", [])]
        alignment = str(config.get("alignment") or "")
        if alignment.startswith("errant:"):
            exp.alignment, exp.errant_pipeline = "errant", alignment.split(":", 1)[1]
        if config.get("calibration"):
            exp.calibration = Path(config["calibration"])
        for name, m in METHODS.items():
            if name in config:
                exp.metrics[name] = m.restore(config[name]) if m.restore else config[name]
        if config.get("attack"):
            a = config["attack"]
            exp.attack = (tuple(a["budget"]), a["candidates"], a["queries"])
        return exp

    def config(self) -> dict[str, Any]:
        """The settings as stored with a run (paths as given, resolved)."""
        return {"name": self.name, "corpus": " + ".join(map(str, self.corpus)),
                "limit": self.limit,
                "corrected": " + ".join(map(str, self.corrected)) if self.corrected else None,
                "gold": self.gold, "typos_only": self.typos_only, "natural": self.natural,
                **({"alignment": f"errant:{self.errant_pipeline}"}
                   if self.corrected and self.alignment == "errant" else {}),
                "calibration": str(self.calibration) if self.calibration else None,
                "levels": [lv.label for lv in self.levels], "replicates": self.replicates,
                "seed": self.seed, "lang": self.lang, "lexicon": self.lexicon,
                "keyboard": self.keyboard, "weights": self.weights,
                "min_length": self.min_length, "kind": self.kind,
                **({"keep_mix": True} if self.keep_mix else {}),
                **({"types": list(self.types)} if KINDS[self.kind].types else {}),
                "parsers": [vars(p) for p in self.parsers],
                **{name: m.record(self.setting(name)) if m.record else self.setting(name)
                   for name, m in METHODS.items()},
                **({"attack": {"budget": list(self.attack[0]), "candidates": self.attack[1],
                               "queries": self.attack[2]}} if self.attack else {})}

    def setting(self, method: str) -> Any:
        """METHOD's settings (its ``default`` when the experiment names none)."""
        got = self.metrics.get(method)
        return METHODS[method].default if got is None else got

    def wants(self, method: str) -> bool:
        """Whether ``[metrics]`` leaves METHOD on."""
        return on(self.setting(method))


@dataclass(frozen=True)
class _Where:
    """A method's key in ``[metrics]``, for its settings reader (:class:`Where`)."""

    reader: _Reader
    table: dict[str, Any]
    key: str

    def fail(self, message: str) -> Exception:
        return self.reader.fail(message, "metrics", self.key)

    def path(self, value: str) -> Path:
        got = self.reader.path_of(self.table, "metrics", self.key, True)
        assert got is not None
        return got


def _line_of(lines: list[str], table: str, key: str) -> int | None:
    """The line where KEY is set inside TABLE ("" = top level, where a table header counts)."""
    header = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.-]+)\s*\]\]?")
    setting = re.compile(rf"^\s*{re.escape(key)}\s*=")
    current = ""
    for n, line in enumerate(lines, 1):
        m = header.match(line)
        if m:
            current = m.group(1)
            if table == "" and current == key:
                return n
        elif current == table and setting.match(line):
            return n
    return None


MAX_NAME = 100
"""Characters an experiment name may have."""


class _Reader:
    def __init__(self, path: Path, lines: list[str]) -> None:
        self.path, self.lines = path, lines

    def fail(self, msg: str, table: str = "", key: str = "") -> InputError:
        return InputError(msg, self.path, _line_of(self.lines, table, key) if key else None)

    def check_keys(self, d: dict[str, Any], table: str) -> None:
        for k in d:
            if k not in TABLES[table]:
                where = f"[{table}]" if table else "the top level"
                raise self.fail(f"unknown key {k!r} in {where}; known: "
                                + ", ".join(sorted(TABLES[table])), table, k)

    def get(self, d: dict[str, Any], table: str, key: str, kind: type | tuple[type, ...],
            default: Any = None) -> Any:
        if key not in d:
            return default
        v = d[key]
        if isinstance(v, bool) and kind in (int, float, (int, float)):
            raise self.fail(f"{key} must be a number, not {v!r}", table, key)
        if not isinstance(v, kind):
            names = kind.__name__ if isinstance(kind, type) else " or ".join(
                k.__name__ for k in kind)
            raise self.fail(f"{key} must be {names}, not {v!r}", table, key)
        return v

    def path_of(self, d: dict[str, Any], table: str, key: str, required: bool) -> Path | None:
        got = self.paths_of(d, table, key, required, many=False)
        return got[0] if got else None

    def paths_of(self, d: dict[str, Any], table: str, key: str, required: bool,
                 many: bool = True) -> list[Path] | None:
        """KEY's file (or, with MANY, list of files) resolved from the experiment's folder."""
        v = self.get(d, table, key, (str, list) if many else str)
        if v is None:
            if required:
                raise self.fail(f"[{table}] needs {key} = \"FILE\"", "", table)
            return None
        names = v if isinstance(v, list) else [v]
        if not names or not all(isinstance(x, str) for x in names):
            raise self.fail(f"{key} must be a file name or a list of them", table, key)
        out = []
        for x in names:
            p = Path(x) if Path(x).is_absolute() else (self.path.parent / x)
            try:
                found = p.is_file()
            except (OSError, ValueError):  # a name too long for the system, a NUL
                found = False
            if not found:
                raise self.fail(f"{key} = {x[:80]!r}: no such file", table, key)
            out.append(p)
        return out


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


def load(path: str | Path) -> Experiment:
    path = Path(path)
    lines = read_lines(path)
    try:
        data = tomllib.loads("\n".join(lines))
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        raise InputError(f"not valid TOML: {msg}", path, int(m.group(1)) if m else None
                         ) from None
    r = _Reader(path, lines)
    r.check_keys(data, "")
    name = r.get(data, "", "name", str) or path.stem
    if len(name) > MAX_NAME or any(c in name for c in "/\\") or not name.isprintable():
        raise r.fail(f"name {name[:40]!r}: at most {MAX_NAME} printable characters, no / "
                     "or \\ (it names the store, the report and its files)", "", "name")
    corpus_t = r.get(data, "", "corpus", dict)
    if corpus_t is None:
        raise r.fail("an experiment needs a [corpus] table with path = \"FILE\"")
    r.check_keys(corpus_t, "corpus")
    exp = Experiment(name=name, source=path,
                     corpus=r.paths_of(corpus_t, "corpus", "path", True) or [path])
    exp.limit = _positive(r, corpus_t, "corpus", "limit")
    exp.corrected = r.paths_of(corpus_t, "corpus", "corrected", False)
    exp.gold = r.get(corpus_t, "corpus", "gold", bool, True)
    exp.typos_only = r.get(corpus_t, "corpus", "typos_only", bool, False)
    exp.alignment = r.get(corpus_t, "corpus", "alignment", str, "edit-distance")
    if exp.alignment not in ("edit-distance", "errant"):
        raise r.fail(f"alignment: {exp.alignment!r} is not edit-distance or errant", "corpus",
                     "alignment")
    exp.errant_pipeline = r.get(corpus_t, "corpus", "errant_pipeline", str, "en_core_web_sm")

    noise_t = r.get(data, "", "noise", dict, {})
    r.check_keys(noise_t, "noise")
    for v in r.get(noise_t, "noise", "rates", list, []):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v <= 1:
            raise r.fail(f"rates: {v!r} is not a fraction in (0, 1], e.g. 0.05", "noise",
                         "rates")
        exp.levels.append(Level("rate", float(v)))
    for v in r.get(noise_t, "noise", "per_sentence", list, []):
        if isinstance(v, bool) or not isinstance(v, int) or problem("per_sentence", v):
            raise r.fail(f"per_sentence: {v!r} is not a count from 1 to 10,000", "noise",
                         "per_sentence")
        exp.levels.append(Level("per_sentence", v))
    exp.natural = r.get(noise_t, "noise", "natural", bool, False)
    exp.replicates = _positive(r, noise_t, "noise", "replicates") or 1
    exp.seed = r.get(noise_t, "noise", "seed", int, 1)
    if (wrong := problem("seed", exp.seed)) is not None:
        raise r.fail(f"seed {wrong}", "noise", "seed")
    exp.lang = r.get(noise_t, "noise", "lang", str, "en")
    exp.lexicon = r.get(noise_t, "noise", "lexicon", str)
    exp.keyboard = r.get(noise_t, "noise", "keyboard", str) or KEYBOARDS.get(exp.lang,
                                                                              "us-qwerty")
    exp.kind = r.get(noise_t, "noise", "kind", str, "spelling")
    if exp.kind not in KINDS:
        raise r.fail(f"kind: {exp.kind!r} is not " + " or ".join(KINDS), "noise", "kind")
    types = r.get(noise_t, "noise", "types", list)
    if types is not None:
        bad = [t for t in types if t not in GRAMMAR_TYPES]
        if exp.kind != "grammar" or bad or not types:
            raise r.fail("types: for kind = \"grammar\", a list of " + ", ".join(GRAMMAR_TYPES)
                         + (f" (not {bad[0]!r})" if bad else ""), "noise", "types")
        exp.types = tuple(t for t in GRAMMAR_TYPES if t in types)
    weights = r.get(noise_t, "noise", "weights", dict)
    if weights is not None and exp.kind == "grammar":
        if set(weights) - set(GRAMMAR_TYPES) or not all(
                isinstance(w, (int, float)) and w >= 0 for w in weights.values()) or \
                not any(weights.get(t, DEFAULT_WEIGHTS[t]) for t in exp.types):
            raise r.fail("weights: give {\"M:DET\" = W, ...} with the types' names, W >= 0",
                         "noise", "weights")
        exp.weights = {**DEFAULT_WEIGHTS, **{k: float(w) for k, w in weights.items()}}
    elif weights is not None:
        if set(weights) - set(OPERATIONS) or not all(
                isinstance(w, (int, float)) and w >= 0 for w in weights.values()):
            raise r.fail("weights: give {sub = W, ins = W, del = W, trans = W}, W >= 0",
                         "noise", "weights")
        exp.weights = {op: float(weights.get(op, 0.0)) for op in OPERATIONS}
    else:
        exp.weights = dict(KINDS[exp.kind].weights)
    if exp.kind == "grammar" and (exp.natural or exp.lang != "en"):
        raise r.fail("kind = \"grammar\" makes English errors, without natural typos",
                     "noise", "kind")
    exp.min_length = _positive(r, noise_t, "noise", "min_length") or 2
    keep = r.get(noise_t, "noise", "keep_mix", bool)
    if keep and exp.kind != "spelling":
        raise r.fail("keep_mix: for kind = \"spelling\" (its operations' mix)", "noise",
                     "keep_mix")
    exp.keep_mix = bool(keep)

    parsers = r.get(data, "", "parsers", list)
    if not parsers:
        raise r.fail("an experiment needs at least one [[parsers]] table with name and spec")
    names: set[str] = set()
    for p in parsers:
        if not isinstance(p, dict):
            raise r.fail("parsers must be [[parsers]] tables", "", "parsers")
        r.check_keys(p, "parsers")
        pname, spec = r.get(p, "parsers", "name", str), r.get(p, "parsers", "spec", str)
        if not pname or not spec:
            raise r.fail("every [[parsers]] needs name and spec", "", "parsers")
        if pname in names:
            raise r.fail(f"two parsers named {pname!r}", "parsers", "name")
        names.add(pname)
        acc = r.get(p, "parsers", "accuracy", (int, float, dict))
        for proj, v in (acc.items() if isinstance(acc, dict) else [("", acc)]):
            if proj and proj not in PROJECTIONS:
                raise r.fail(f"accuracy: {proj!r} is not one of " + ", ".join(PROJECTIONS),
                             "parsers", "accuracy")
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))
                                  or not 0 < v <= 1):
                raise r.fail(f"accuracy {v!r}: expected a fraction in (0, 1], e.g. 0.89",
                             "parsers", "accuracy")
        timeout = r.get(p, "parsers", "timeout", (int, float), 60.0)
        if (wrong := problem("timeout", timeout)) is not None:
            raise r.fail(f"timeout {wrong}", "parsers", "timeout")
        exp.parsers.append(ParserConf(pname, resolve_spec(spec, path.parent),
                                      {k: float(v) for k, v in acc.items()}
                                      if isinstance(acc, dict) else
                                      None if acc is None else float(acc), float(timeout),
                                      _positive(r, p, "parsers", "batch_size") or 16))

    metrics_t = r.get(data, "", "metrics", dict, {})
    r.check_keys(metrics_t, "metrics")
    for name, method in METHODS.items():
        if method.settings is None:
            exp.metrics[name] = r.get(metrics_t, "metrics", name, bool, True)
        else:
            exp.metrics[name] = method.settings(metrics_t.get(name, True),
                                                _Where(r, metrics_t, name))

    cal_t = r.get(data, "", "calibration", dict)
    if cal_t is not None:
        r.check_keys(cal_t, "calibration")
        exp.calibration = r.path_of(cal_t, "calibration", "path", True)
        exp.calibration_limit = _positive(r, cal_t, "calibration", "limit")
    report_t = r.get(data, "", "report", dict, {})
    r.check_keys(report_t, "report")
    ex = r.get(report_t, "report", "examples", list, [])
    if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 1 for x in ex):
        raise r.fail("examples: sentence numbers from 1", "report", "examples")
    exp.examples = ex
    most = r.get(report_t, "report", "changed_most", int, 3)
    if isinstance(most, bool) or most < 0:
        raise r.fail("changed_most: a count of 0 or more", "report", "changed_most")
    exp.changed_most = most
    exp.example_level = r.get(report_t, "report", "level", str)
    if exp.example_level is not None and exp.example_level not in (
            [lv.label for lv in exp.levels] + ["natural", "rate"]):
        raise r.fail(f"level: {exp.example_level!r} is not one of the experiment's levels ("
                     + ", ".join(lv.label for lv in exp.levels) + ")", "report", "level")
    rep = r.get(report_t, "report", "replicate", int, 1)
    if isinstance(rep, bool) or not 1 <= rep <= exp.replicates:
        raise r.fail(f"replicate: from 1 to {exp.replicates}", "report", "replicate")
    exp.example_replicate = rep
    attack_t = r.get(data, "", "attack", dict)
    if attack_t is not None:
        exp.attack = _attack(r, attack_t, exp.seed, exp.min_length)
    if not exp.levels and not exp.natural and not exp.corrected and not exp.wants("deps") \
            and not exp.attack:
        raise r.fail("nothing to measure: give [noise] rates or per_sentence, [corpus] "
                     "corrected, or a gold corpus with deps = true")
    return exp


def _attack(r: _Reader, t: dict[str, Any], seed: int, min_length: int
            ) -> tuple[tuple[int, ...], int, int]:
    """``[attack]``, each value checked as ``parsebench attack`` checks its options."""
    from parsebench.attack import Options

    r.check_keys(t, "attack")
    budget = r.get(t, "attack", "budget", (int, list), [1])
    budgets = budget if isinstance(budget, list) else [budget]
    if not budgets or not all(isinstance(k, int) and not isinstance(k, bool)
                              for k in budgets):
        raise r.fail("budget: a count of words a sentence, or a list of them", "attack",
                     "budget")
    candidates = r.get(t, "attack", "candidates", int, 5)
    queries = r.get(t, "attack", "queries", int, 50)
    for k in budgets:
        try:
            Options(k, candidates, queries, seed, min_length).check()
        except InputError as exc:
            key = next((n for n in ("queries", "candidates") if f"--{n}" in exc.message),
                       "budget")
            raise r.fail(exc.message.replace("--", ""), "attack", key) from None
    return tuple(dict.fromkeys(budgets)), candidates, queries


def _positive(r: _Reader, d: dict[str, Any], table: str, key: str) -> int | None:
    v = r.get(d, table, key, int)
    if v is not None and v < 1:
        raise r.fail(f"{key} must be 1 or more", table, key)
    if v is not None and key in LIMITS and (bad := problem(key, v)) is not None:
        raise r.fail(f"{key} {bad}", table, key)
    return None if v is None else int(v)
