"""The experiment store: one SQLite file with corpora, noisy versions, parses and results.

Why SQLite (the standard library's sqlite3): it is embedded, one file, and
transactional, so a run killed with SIGKILL loses at most the parses of its
last open transaction and never leaves the file corrupt (WAL journal). The
parse cache is keyed by the parser's identity (adapter, version, model
checksum, options) and the sentence's words, so a sentence parsed once by the
same parser is never parsed again, whichever corpus or noise level it came from.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from parsebench.common.errors import InputError
from parsebench.common.record import plain
from parsebench.model.scored import Scored
from parsebench.parsers.base import Analysis, Failure, Outcome

SCHEMA_VERSION = "3"
"""2: every stored value carries a checksum; 3: per-sentence statistics and the report's
pages (drawn examples, browser data) in tables of their own. Older stores are upgraded
on open; a newer one is refused."""

PAGES = ("examples", "browser")
"""Results that are pages of the report, not figures: kept in their own table."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS corpora (
    digest TEXT PRIMARY KEY, path TEXT NOT NULL, sentences INTEGER NOT NULL,
    words INTEGER NOT NULL, gold INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS noisy (
    corpus TEXT NOT NULL, settings TEXT NOT NULL, level TEXT NOT NULL, seed INTEGER NOT NULL,
    changes TEXT NOT NULL, summary TEXT NOT NULL, checksum TEXT,
    PRIMARY KEY (corpus, settings, level, seed));
CREATE TABLE IF NOT EXISTS parsers (
    key TEXT PRIMARY KEY, identity TEXT NOT NULL, kind TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS parses (
    parser TEXT NOT NULL, sentence TEXT NOT NULL, outcome TEXT NOT NULL,
    seconds REAL NOT NULL, words INTEGER NOT NULL, checksum TEXT,
    PRIMARY KEY (parser, sentence)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY, experiment TEXT NOT NULL, config TEXT NOT NULL,
    started REAL NOT NULL, finished REAL, parsed INTEGER NOT NULL DEFAULT 0,
    cached INTEGER NOT NULL DEFAULT 0, stats TEXT);
CREATE TABLE IF NOT EXISTS results (
    experiment TEXT NOT NULL, parser TEXT NOT NULL, metric TEXT NOT NULL,
    projection TEXT NOT NULL, level TEXT NOT NULL, signature TEXT NOT NULL,
    value TEXT NOT NULL, run INTEGER NOT NULL, checksum TEXT,
    PRIMARY KEY (experiment, parser, metric, projection, level));
CREATE TABLE IF NOT EXISTS statistics (
    experiment TEXT NOT NULL, parser TEXT NOT NULL, metric TEXT NOT NULL,
    projection TEXT NOT NULL, level TEXT NOT NULL, name TEXT NOT NULL,
    signature TEXT NOT NULL, columns TEXT NOT NULL, rows TEXT NOT NULL,
    run INTEGER NOT NULL, checksum TEXT,
    PRIMARY KEY (experiment, parser, metric, projection, level, name));
CREATE TABLE IF NOT EXISTS pages (
    experiment TEXT NOT NULL, parser TEXT NOT NULL, kind TEXT NOT NULL,
    projection TEXT NOT NULL, level TEXT NOT NULL, value TEXT NOT NULL,
    run INTEGER NOT NULL, checksum TEXT,
    PRIMARY KEY (experiment, parser, kind, projection, level));
"""

_CHECKED = {"noisy": "changes || char(31) || summary", "parses": "outcome",
            "results": "signature || char(31) || value"}
_STATS_CHECKED = "signature || char(31) || columns || char(31) || rows"
_PAGES_CHECKED = "kind || char(31) || value"
"""What each table's checksum covers: the values a result is computed from."""


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


def one_line(what: object, limit: int = 160) -> str:
    """SQLite's message on one short line, printable: a damaged schema's text spans
    lines and may hold control characters."""
    text = " ".join("".join(c if c.isprintable() else " " for c in str(what)).split())
    return text if len(text) <= limit else text[:limit] + "..."


def checksum(*parts: str) -> str:
    """A value's checksum: a byte flipped in the file is caught when it is read, so a
    damaged parse is parsed again and a damaged result never reaches a report."""
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:16]



def sentence_key(words: Sequence[str]) -> str:
    """The cache key of one pre-tokenized input sentence: its words."""
    return hashlib.sha256("\x1f".join(words).encode()).hexdigest()[:32]


def text_key(text: str) -> str:
    """The cache key of one sentence's raw text (under a parser that tokenizes)."""
    return hashlib.sha256(("\x1e" + text).encode()).hexdigest()[:32]


def parser_key(identity: dict[str, str], tokenize: bool = False) -> str:
    """The cache key of a parser: its identity (adapter, versions, model checksum), and
    whether it tokenizes the text itself (a run's ``tokens = "raw"``: its
    parses are then keyed by the text, :func:`text_key`, and keep where the parser began
    its sentences: ``sentences: 1``, so that raw parses cached without them are not reused)."""
    blob = json.dumps({"identity": identity, "tokenize": tokenize,
                       **({"sentences": 1} if tokenize else {})}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


def encode(outcome: Outcome) -> str:
    if isinstance(outcome, Failure):
        return json.dumps({"failed": outcome.reason}, ensure_ascii=False)
    return json.dumps({k: getattr(outcome, k) for k in Analysis.__slots__
                       if getattr(outcome, k) is not None}, ensure_ascii=False)


def decode(text: str) -> Outcome:
    d = json.loads(text)
    if "failed" in d:
        return Failure(d["failed"])
    for k in ("links", "tokens"):
        if k in d and isinstance(d[k], list):
            d[k] = [tuple(x) for x in d[k]]
    return Analysis(**d)


class ParseCache(Mapping[str, tuple[Outcome, float]]):
    """One parser's cached parses by sentence key, read from the store only for the keys
    a run asks for (:meth:`load`), with their checksums checked, and each decoded only
    when asked for: a run's memory and time follow its own corpus, not everything the
    store holds (a benchmark's hundredth corpus reads its own parses, not the 99
    others'), and a re-run whose scores are reused decodes none. A parse whose checksum
    holds but whose text does not read (a crafted store) is one clear error when it is
    needed."""

    def __init__(self, store: Store, parser: str) -> None:
        self.store, self.parser, self.path = store, parser, store.path
        self._raw: dict[str, tuple[str, float]] = {}
        self._got: dict[str, tuple[Outcome, float]] = {}
        self._asked: set[str] = set()

    def load(self, keys: Iterable[str]) -> None:
        """Read the parses of KEYS the store has and this cache has not read yet (a
        damaged one is left out, so it is parsed again, with a warning)."""
        todo = [k for k in dict.fromkeys(keys) if k not in self._asked]
        self._asked.update(todo)
        bad = 0
        for k, o, sec, c in self.store.parse_rows(self.parser, todo):
            if k in self._got:
                continue
            if c == checksum(o) and isinstance(o, str):
                self._raw[k] = (o, sec)
            else:
                bad += 1
        if bad:
            self.store.warnings.append(f"{bad} cached parse(s) were damaged in the store; "
                                       "parsed again")

    def __getitem__(self, key: str) -> tuple[Outcome, float]:
        got = self._got.get(key)
        if got is None:
            text, seconds = self._raw.pop(key)
            try:
                got = (decode(text), seconds)
            except (ValueError, TypeError, KeyError):
                raise InputError(f"a cached parse of parser {self.parser} is not what "
                                 "parsebench writes (damaged store?); delete the store or "
                                 "use another", self.path) from None
            self._got[key] = got
        return got

    def __contains__(self, key: object) -> bool:
        return key in self._got or key in self._raw

    def __iter__(self) -> Iterator[str]:
        yield from self._got
        yield from self._raw

    def __len__(self) -> int:
        return len(self._got) + len(self._raw)

    def add(self, key: str, outcome: Outcome, seconds: float) -> None:
        """A parse made in this run (already stored)."""
        self._raw.pop(key, None)
        self._got[key] = (outcome, seconds)


class Store:
    """An open store; writes go through short transactions, reads see committed data."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.warnings: list[str] = []
        """What was damaged and made again, for the run to report."""
        self._lock: IO[bytes] | None = None
        if self.path.parent and not self.path.parent.is_dir():
            raise InputError("directory of the store does not exist", self.path.parent)
        if self.path.is_dir():
            raise InputError("is a directory; give a file name for the store", self.path)
        existed = self.path.exists() and self.path.stat().st_size > 0
        try:
            self.db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            # a flipped byte can leave text that is not UTF-8: read it replaced, so its
            # checksum fails and it is parsed again or refused, never a decoding crash
            self.db.text_factory = _text
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            if existed:
                bad = [r[0] for r in self.db.execute("PRAGMA quick_check(5)")]
                if bad != ["ok"]:
                    what = one_line(bad[0])  # SQLite's report spans lines
                    raise InputError(f"the store is damaged (SQLite: {what}); restore it "
                                     "or start a new one", self.path)
            version = self._version()
            if version is None:
                self.db.executescript(f"BEGIN IMMEDIATE;{_SCHEMA}INSERT OR REPLACE INTO meta "
                                      f"VALUES ('schema', '{SCHEMA_VERSION}');COMMIT;")
            elif version == "1":
                self._upgrade_from_1()
                self._upgrade_from_2()
            elif version == "2":
                self._upgrade_from_2()
            elif version != SCHEMA_VERSION:
                raise InputError(f"store schema {version!r}, this parsebench reads "
                                 f"{SCHEMA_VERSION}", self.path)
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:  # a damaged schema's text
            raise InputError(f"not a parsebench store, or a damaged one (SQLite: "
                             f"{one_line(exc)})", self.path) from None

    def _upgrade_from_1(self) -> None:
        """Schema 1 had no checksums: add them, computed from the values as they are."""
        self.db.create_function("pb_checksum", 1, checksum, deterministic=True)
        with self.transaction() as db:
            for table, covered in _CHECKED.items():
                db.execute(f"ALTER TABLE {table} ADD COLUMN checksum TEXT")
                db.execute(f"UPDATE {table} SET checksum = pb_checksum({covered})")
            db.execute("UPDATE meta SET value=? WHERE key='schema'", (SCHEMA_VERSION,))

    def _upgrade_from_2(self) -> None:
        """Schema 2 kept a result's per-sentence statistics inside its figures, and the
        report's pages among the results: move them to their tables. A value that does not
        match its checksum is moved as it is, so that reading it still says it is damaged."""
        self.db.executescript(_SCHEMA)  # the new tables (the others exist)
        with self.transaction() as db:
            rows = db.execute("SELECT experiment, parser, metric, projection, level, "
                              "signature, value, run, checksum FROM results").fetchall()
            for e, p, m, proj, lvl, sig, v, run, c in rows:
                intact = c == checksum(sig, v)
                try:
                    value = json.loads(v) if intact else None
                except ValueError:
                    value = None
                if m in PAGES:
                    db.execute("DELETE FROM results WHERE experiment=? AND parser=? AND "
                               "metric=? AND projection=? AND level=?", (e, p, m, proj, lvl))
                    db.execute("INSERT OR REPLACE INTO pages VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                               (e, p, m, proj, lvl, v, run,
                                checksum(m, v) if intact else "damaged"))
                elif isinstance(value, dict) and isinstance(value.get("stats"), dict):
                    stats = value.pop("stats")
                    t = json.dumps(value, ensure_ascii=False, allow_nan=False)
                    db.execute("UPDATE results SET value=?, checksum=? WHERE experiment=? AND "
                               "parser=? AND metric=? AND projection=? AND level=?",
                               (t, checksum(sig, t), e, p, m, proj, lvl))
                    db.executemany("INSERT OR REPLACE INTO statistics VALUES "
                                   "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                   _statistics_rows(e, p, m, proj, lvl, sig, run, stats))
            db.execute("UPDATE meta SET value=? WHERE key='schema'", (SCHEMA_VERSION,))

    def lock_for_run(self) -> None:
        """Hold the store for one run: a second ``parsebench run`` on it is refused with a
        message instead of parsing again what the first is parsing. The lock is the
        kernel's (flock on the store file, which SQLite's own fcntl locks do not touch),
        so a killed run never leaves it behind."""
        import fcntl

        fh = open(self.path, "rb")  # noqa: SIM115 - held until close()
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fh.close()
            row = self.db.execute("SELECT value FROM meta WHERE key='run_pid'").fetchone()
            owner = f"pid {row[0]}" if row else "another process"
            raise InputError(f"another parsebench run ({owner}) is using this store; wait "
                             "for it to finish, or give this run its own --store",
                             self.path) from None
        self._lock = fh
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES ('run_pid', ?)", (str(os.getpid()),))

    def _version(self) -> str | None:
        has = self.db.execute("SELECT name FROM sqlite_master WHERE name='meta'").fetchone()
        if not has:
            if self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                raise InputError("an SQLite file, but not a parsebench store", self.path)
            return None
        row = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        return None if row is None else str(row[0])

    def close(self) -> None:
        self.db.close()
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self.close()
        if isinstance(exc, sqlite3.DatabaseError):
            # damaged past what opening checks: say which store, not only SQLite's words
            raise InputError(f"the store is damaged and cannot be read (SQLite: "
                             f"{one_line(exc)}); restore it or start a new one",
                             self.path) from None

    class _Tx:
        def __init__(self, db: sqlite3.Connection) -> None:
            self.db = db

        def __enter__(self) -> sqlite3.Connection:
            self.db.execute("BEGIN IMMEDIATE")
            return self.db

        def __exit__(self, exc_type: object, *rest: object) -> None:
            self.db.execute("COMMIT" if exc_type is None else "ROLLBACK")

    def transaction(self) -> Store._Tx:
        return Store._Tx(self.db)

    # corpora and noisy versions ------------------------------------------------------

    def add_corpus(self, digest: str, path: str, sentences: int, words: int,
                   gold: bool) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR IGNORE INTO corpora VALUES (?, ?, ?, ?, ?)",
                       (digest, path, sentences, words, int(gold)))

    def noisy(self, corpus: str, settings: str, level: str, seed: int,
              valid: Callable[[Any], bool]) -> tuple[list[list[Any]], dict[str, Any]] | None:
        """A stored noisy version; None when there is none or it is damaged (then it is
        made again from its seed). VALID: whether a stored change has its kind's shape
        (the kind's ``valid_change``)."""
        row = self.db.execute("SELECT changes, summary, checksum FROM noisy WHERE corpus=? "
                              "AND settings=? AND level=? AND seed=?",
                              (corpus, settings, level, seed)).fetchone()
        if row is None:
            return None
        try:
            if row[2] != checksum(row[0], row[1]):
                raise ValueError("checksum")
            changes, summary = json.loads(row[0]), json.loads(row[1])
            if not isinstance(changes, list) or not all(map(valid, changes)):
                raise ValueError("shape")
        except ValueError:
            self.warnings.append(f"noisy version {level} seed {seed} was damaged in the store; "
                                 "made again")
            return None
        return changes, summary

    def noisy_changes(self, corpus: str, settings: str) -> list[tuple[str, int, list[Any]]]:
        """Every intact stored noisy version of CORPUS made with SETTINGS: (level, seed,
        changes)."""
        out = []
        for level, seed, c, s, k in self.db.execute(
                "SELECT level, seed, changes, summary, checksum FROM noisy WHERE corpus=? AND "
                "settings=? ORDER BY level, seed", (corpus, settings)):
            try:
                changes = json.loads(c)
            except ValueError:
                continue
            if k == checksum(c, s) and isinstance(changes, list):
                out.append((str(level), int(seed), changes))
        return out

    def add_noisy(self, corpus: str, settings: str, level: str, seed: int,
                  changes: list[list[Any]], summary: dict[str, Any]) -> None:
        c, s = json.dumps(changes, ensure_ascii=False), json.dumps(summary)
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO noisy VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (corpus, settings, level, seed, c, s, checksum(c, s)))

    # parses ----------------------------------------------------------------------

    def add_parser(self, key: str, identity: dict[str, str], kind: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR IGNORE INTO parsers VALUES (?, ?, ?)",
                       (key, json.dumps(identity, sort_keys=True), kind))

    def parser_kind(self, key: str) -> str | None:
        """What the parser KEY's analyses hold, if the store knows it."""
        row = self.db.execute("SELECT kind FROM parsers WHERE key=?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def parse_cache(self, parser: str) -> ParseCache:
        """The parser's cached parses, read as a run asks for them (:meth:`ParseCache.load`)."""
        return ParseCache(self, parser)

    def parse_rows(self, parser: str, keys: Sequence[str]
                   ) -> Iterator[tuple[str, Any, Any, Any]]:
        """PARSER's stored rows (sentence, outcome, seconds, checksum) of KEYS, unchecked
        (looked up by the table's key, a few hundred a query)."""
        sql = "SELECT sentence, outcome, seconds, checksum FROM parses WHERE parser=?"
        for i in range(0, len(keys), 500):
            chunk = keys[i:i + 500]
            yield from self.db.execute(f"{sql} AND sentence IN ({','.join('?' * len(chunk))})",
                                       (parser, *chunk))

    def add_parses(self, parser: str, rows: Iterable[tuple[str, Outcome, float, int]]) -> None:
        with self.transaction() as db:
            db.executemany("INSERT OR REPLACE INTO parses VALUES (?, ?, ?, ?, ?, ?)",
                           [(parser, k, e, s, w, checksum(e))
                            for k, o, s, w in rows for e in [encode(o)]])

    def count_parses(self, parser: str | None = None) -> int:
        if parser is None:
            return int(self.db.execute("SELECT count(*) FROM parses").fetchone()[0])
        return int(self.db.execute("SELECT count(*) FROM parses WHERE parser=?",
                                   (parser,)).fetchone()[0])

    # runs and results ------------------------------------------------------------

    def start_run(self, experiment: str, config: dict[str, Any]) -> int:
        with self.transaction() as db:
            cur = db.execute("INSERT INTO runs (experiment, config, started) VALUES (?, ?, ?)",
                             (experiment, json.dumps(config, sort_keys=True), time.time()))
            assert cur.lastrowid is not None
            return cur.lastrowid

    def count_run(self, run: int, parsed: int, cached: int) -> None:
        with self.transaction() as db:
            db.execute("UPDATE runs SET parsed = parsed + ?, cached = cached + ? WHERE id=?",
                       (parsed, cached, run))

    def finish_run(self, run: int, stats: dict[str, Any]) -> None:
        with self.transaction() as db:
            db.execute("UPDATE runs SET finished=?, stats=? WHERE id=?",
                       (time.time(), json.dumps(stats), run))

    def run_info(self, run: int) -> dict[str, Any]:
        row = self.db.execute("SELECT experiment, config, started, finished, parsed, cached, "
                              "stats FROM runs WHERE id=?", (run,)).fetchone()
        if row is None:
            raise InputError(f"no record of run {run} in the store (damaged?)", self.path)
        config = json.loads(row[1])
        stats = json.loads(row[6]) if row[6] else None
        if not isinstance(config, dict) or not isinstance(stats, dict | None):
            raise ValueError(f"run {run}: its record is not what parsebench writes")
        json.dumps([config, stats], ensure_ascii=False).encode("utf-8")  # lone surrogates
        return {"id": run, "experiment": row[0], "config": config, "started": row[2],
                "finished": row[3], "parsed": row[4], "cached": row[5], "stats": stats}

    def earlier_runs(self, experiment: str, before: int) -> list[dict[str, Any]]:
        """The finished runs of EXPERIMENT before run BEFORE, oldest first."""
        rows = self.db.execute("SELECT id FROM runs WHERE experiment=? AND id<? AND finished "
                               "IS NOT NULL ORDER BY id", (experiment, before)).fetchall()
        out = []
        for r in rows:
            try:
                out.append(self.run_info(r[0]))
            except ValueError:  # an earlier run's record is damaged: it is history only
                self.warnings.append(f"the record of run {r[0]} is damaged; left out")
        return out

    def replace_results(self, run: int, experiment: str,
                        results: Iterable[Scored]) -> None:
        """Write every result of EXPERIMENT at once: the old ones go in the same transaction.
        A result's per-sentence statistics (``stats`` in its value) go to the statistics
        table, the report's pages to theirs; :meth:`results` joins them again."""
        figures, stats, pages = [], [], []
        for p, m, proj, lvl, sig, v in ((r.parser, r.method, r.projection, r.level,
                                         r.signature, plain(r.value)) for r in results):
            if m in PAGES:
                t = json.dumps(v, ensure_ascii=False, allow_nan=False)
                pages.append((experiment, p, m, proj, lvl, t, run, checksum(m, t)))
                continue
            if isinstance(v, dict) and "stats" in v:
                v = dict(v)
                stats += _statistics_rows(experiment, p, m, proj, lvl, sig, run, v.pop("stats"))
            t = json.dumps(v, ensure_ascii=False, allow_nan=False)
            figures.append((experiment, p, m, proj, lvl, sig, t, run, checksum(sig, t)))
        with self.transaction() as db:
            for table in ("results", "statistics", "pages"):
                db.execute(f"DELETE FROM {table} WHERE experiment=?", (experiment,))
            db.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", figures)
            db.executemany("INSERT INTO statistics VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           stats)
            db.executemany("INSERT INTO pages VALUES (?, ?, ?, ?, ?, ?, ?, ?)", pages)

    def experiments(self) -> list[tuple[str, int]]:
        """Experiments with results, each with the run that wrote them, oldest first."""
        return [(r[0], r[1]) for r in self.db.execute(
            "SELECT experiment, max(run) FROM results GROUP BY experiment ORDER BY max(run)")]

    def parsers_of(self, experiment: str) -> list[str]:
        """EXPERIMENT's parsers in the order :meth:`results` first gives them (its
        results, then its pages), without reading their values."""
        seen: dict[str, None] = {}
        for table in ("results", "pages"):
            for (p,) in self.db.execute(f"SELECT parser FROM {table} WHERE experiment=? "
                                        "ORDER BY rowid", (experiment,)):
                seen.setdefault(p)
        return list(seen)

    def results_digest(self, experiment: str) -> str:
        """A digest of EXPERIMENT's results, statistics and pages as stored, from their
        checksums (nothing decoded): what the report computes from them (the paired
        tests) is kept by it."""
        h = hashlib.sha256(experiment.encode())
        for table, keys in (("results", "parser, metric, projection, level"),
                            ("statistics", "parser, metric, projection, level, name"),
                            ("pages", "parser, kind, projection, level")):
            h.update(f"\0{table}".encode())
            for row in self.db.execute(f"SELECT {keys}, checksum FROM {table} WHERE "
                                       "experiment=? ORDER BY rowid", (experiment,)):
                h.update(json.dumps(row).encode())
        return h.hexdigest()[:32]

    def statistics(self, experiment: str) -> dict[tuple[str, str, str, str],
                                                  dict[str, list[list[float]]]]:
        """Per-sentence statistics of EXPERIMENT's results by (parser, metric, projection,
        level), then by name; damaged ones are an error, never a different number."""
        out: dict[tuple[str, str, str, str], dict[str, list[list[float]]]] = {}
        for p, m, proj, lvl, name, sig, cols, rows, c in self.db.execute(
                "SELECT parser, metric, projection, level, name, signature, columns, rows, "
                "checksum FROM statistics WHERE experiment=? ORDER BY rowid", (experiment,)):
            if c != checksum(sig, cols, rows):
                raise InputError(f"the statistics of a result of experiment {experiment!r} "
                                 f"({p}, {m}, {lvl}) were damaged in the store; run the "
                                 "experiment again", self.path)
            out.setdefault((p, m, proj, lvl), {})[name] = json.loads(rows)
        return out

    def results(self, experiment: str) -> Iterator[Scored]:
        """The results of EXPERIMENT, each figure with its statistics (``stats``), then the
        report's pages; one that does not match its checksum is an error: a damaged figure
        is never reported."""
        stats = self.statistics(experiment)
        for p, m, proj, lvl, sig, v, c in self.db.execute(
                "SELECT parser, metric, projection, level, signature, value, checksum FROM "
                "results WHERE experiment=? ORDER BY rowid", (experiment,)):
            if c != checksum(sig, v):
                raise InputError(f"a result of experiment {experiment!r} ({p}, {m}, {lvl}) "
                                 "was damaged in the store; run the experiment again",
                                 self.path)
            value = json.loads(v)
            got = stats.get((p, m, proj, lvl))
            if got is not None and isinstance(value, dict):
                value["stats"] = got
            yield Scored(p, m, proj, lvl, sig, value)
        for p, kind, proj, lvl, v, c in self.db.execute(
                "SELECT parser, kind, projection, level, value, checksum FROM pages WHERE "
                "experiment=? ORDER BY rowid", (experiment,)):
            if c != checksum(kind, v):
                raise InputError(f"the report's {kind} of experiment {experiment!r} ({p}) "
                                 "were damaged in the store; run the experiment again",
                                 self.path)
            yield Scored(p, kind, proj, lvl, "", json.loads(v))


def _statistics_rows(experiment: str, parser: str, metric: str, projection: str, level: str,
                     signature: str, run: int, stats: Any) -> list[tuple[Any, ...]]:
    """Rows of the statistics table for one result's STATS ({name: rows}), each with the
    names of its columns (from the metrics that read them)."""
    from parsebench.metrics.registry import columns_of

    out = []
    for name, rows in sorted(stats.items()):
        cols = json.dumps(columns_of(metric, name))
        r = json.dumps(rows, allow_nan=False)
        out.append((experiment, parser, metric, projection, level, name, signature, cols, r,
                    run, checksum(signature, cols, r)))
    return out


def open_existing(path: str | Path) -> Store:
    """A store that must exist already (for ``parsebench report``)."""
    if not Path(path).is_file():
        raise InputError("no such store", path)
    return Store(path)
