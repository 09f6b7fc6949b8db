"""The common part of the parsers run as a program kept running (the Java parsers, and
TurboParser's binaries): finding Java and a jar, reading a spec's options, and one
process that answers many sentences.

A JVM takes seconds to start and a parser model seconds more to load, so a Java
parser is not run once a batch: a small bridge program of ours
(``parsers/java/*.java``, compiled once into the cache folder, else run by Java's
single-file source launcher, Java 11 or later) loads the model once and answers
one sentence at a time over a pipe. The JVM is a child of the pool's worker, in its
process group: a hang is ended by the pool's timeout, which kills the worker and the
JVM with it; a JVM that dies on a sentence costs that sentence (a :class:`Failure`
with its exit code and last line of standard error) and is started again before the
next, under the pool's load timeout (:meth:`JavaAdapter.reload`), so the next
sentence keeps its own timeout.

TurboParser and TweeboParser need no bridge: told to read ``/dev/stdin`` and write
``/dev/stdout``, their own test loop reads a sentence, parses it and writes it
(flushed a line at a time) before it reads the next, so the program itself is the
bridge; its readiness is its answer to a one-word sentence (``probe``).

Specs: ``NAME:MODEL[,KEY=VALUE...]``; the keys each adapter knows (``jar``,
``tagger``) are its options, so a model path may hold commas but not ``,jar=``.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import threading
from collections import deque
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from parsebench.common.errors import InputError
from parsebench.common.installed import cache_folder
from parsebench.parsers.base import Adapter, Analysis, Failure, Item, Outcome, file_digest

JAVA_HINT = ("install a Java runtime, 11 or later (Debian: apt-get install "
             "default-jre-headless; scripts/system-deps.sh does it)")
SOURCES = Path(__file__).resolve().parent / "java"
"""The bridge programs, one a parser."""


def java_command() -> str:
    """The ``java`` to run: ``$JAVA_HOME/bin/java``, else the one on PATH."""
    home = os.environ.get("JAVA_HOME")
    if home and os.access(Path(home) / "bin" / "java", os.X_OK):
        return str(Path(home) / "bin" / "java")
    found = shutil.which("java")
    if found is None:
        raise InputError(f"Java is missing (no java on PATH): {JAVA_HINT}")
    return found


def bridge_command(java: str, jar: str, bridge: str) -> list[str]:
    """The command that starts BRIDGE (a file of :data:`SOURCES`) against JAR: its
    classes compiled once into the cache folder (``bridges/``) by the ``javac`` beside
    JAVA, keyed by the source, the jar and the compiler, since the single-file source
    launcher compiles the bridge again at every start (0.9 s of CPU a JVM, measured
    with MaltParser); the launcher where no ``javac`` is at hand (a JRE) or it fails."""
    source = SOURCES / bridge
    javac = Path(java).with_name("javac")
    if not os.access(javac, os.X_OK):
        return [java, "-cp", jar, str(source)]
    try:
        st = os.stat(jar)
        key = hashlib.sha256(b"\0".join([
            source.read_bytes(), os.path.realpath(jar).encode(),
            f"{st.st_size}:{st.st_mtime_ns}".encode(), str(javac.resolve()).encode()])
        ).hexdigest()[:24]
        classes = cache_folder("bridges") / key
        if not classes.is_dir():
            classes.parent.mkdir(parents=True, exist_ok=True)
            tmp = tempfile.mkdtemp(dir=classes.parent)
            try:  # compiled aside and renamed: a folder there is always complete
                subprocess.run([str(javac), "-nowarn", "-cp", jar, "-d", tmp, str(source)],
                               check=True, capture_output=True, timeout=120)
                with contextlib.suppress(OSError):  # another process got there first
                    os.rename(tmp, classes)
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
    except (OSError, subprocess.SubprocessError):
        return [java, "-cp", jar, str(source)]
    return [java, "-cp", f"{jar}{os.pathsep}{classes}", source.stem]


def split_options(name: str, arg: str | None, keys: tuple[str, ...], usage: str
                  ) -> tuple[str, dict[str, str]]:
    """``MODEL,key=value,...`` -> MODEL and its options; unknown keys are refused."""
    if not arg or not arg.strip():
        raise InputError(f"{name} needs a model: {usage}")
    parts = re.split(r",(?=[a-z_]+=)", arg)
    model, options = parts[0], {}
    for p in parts[1:]:
        key, _, value = p.partition("=")
        if key not in keys:
            raise InputError(f"{name}: unknown option {key!r} (known: {', '.join(keys)}); "
                             f"{usage}")
        options[key] = value
    if not model:
        raise InputError(f"{name} needs a model: {usage}")
    return model, options


def find_jar(option: str | None, env: str, what: str, where: str,
             training: bool = False) -> str:
    """The parser's jar: the spec's ``jar=``, else the environment variable ENV; a
    missing one is named with where to get it."""
    return find_program(option, env, what, where, "jar", training)


def find_program(option: str | None, env: str, what: str, where: str, key: str = "jar",
                 training: bool = False) -> str:
    """The parser's program (its jar, or its binary when KEY is ``binary``): OPTION (the
    spec's ``KEY=``, or ``train --KEY``), else the environment variable ENV; a missing one
    is named with how to give it (TRAINING: to ``train``) and where to get it."""
    path = option or os.environ.get(env)
    noun = f"{what} jar" if key == "jar" else what
    if not path:
        how = f"give train --{key} PATH" if training else \
            f"add ,{key}=PATH to the parser spec"
        raise InputError(f"{noun} not found: set {env}=PATH/TO/{key.upper()} or {how} "
                         f"({where})")
    if not os.path.isfile(path):
        given = f"--{key}" if training else "the spec"
        raise InputError(f"{noun} not found at {path} (from "
                         f"{given if option else env}; {where})")
    if key == "binary" and not os.access(path, os.X_OK):
        raise InputError(f"{what} at {path} is not executable (chmod +x it)")
    return os.path.abspath(path)


def cell(value: str) -> str:
    """A column's value with no tab and not empty (either would shift the columns)."""
    value = value.replace("\t", " ").strip()
    return value or "_"


def root_label(head: int, deprel: str) -> str:
    """MaltParser's default root label as UD names it."""
    return "root" if head == 0 and deprel == "ROOT" else deprel


def read_answer(lines: list[str], n: int, unattached: bool = False) -> Analysis | Failure:
    """The bridge's ``HEAD<TAB>DEPREL`` lines for a sentence of N words. UNATTACHED: a
    head of -1 (TweeboParser's word left out of the tree) is kept as no head (``_``)."""
    from parsebench.formats.conllu import NO_HEAD

    if len(lines) != n:
        return Failure(f"wrong token count: {len(lines)} words out for {n}")
    heads, deprels = [], []
    for line in lines:
        head, _, deprel = line.partition("\t")
        try:
            h = int(head)
        except ValueError:
            return Failure(f"unreadable answer line {line[:80]!r}")
        if unattached and h == -1:
            heads.append(NO_HEAD)
            deprels.append(deprel or "_")
            continue
        if not 0 <= h <= n:
            return Failure(f"head {h} out of range for {n} words")
        heads.append(h)
        deprels.append(root_label(h, deprel or "_"))
    return Analysis(heads=heads, deprels=deprels)


class JavaBridge:
    """One bridge program running in a JVM (or a parser that speaks the same protocol):
    ``ask`` sends a sentence's lines and gets its answer lines back; the process is
    (re)started on demand. A program that writes no ``ready`` line is ready when it has
    answered PROBE, a sentence's lines."""

    def __init__(self, what: str, argv: list[str], cwd: str | None = None,
                 probe: list[str] | None = None, runtime: str = "Java") -> None:
        self.what, self.argv, self.cwd, self.probe = what, argv, cwd, probe
        self.runtime = runtime
        """What runs the parser, as messages name it (``Java exited ...``)."""
        self.proc: subprocess.Popen[bytes] | None = None
        self.err_tail: deque[str] = deque(maxlen=20)

    def start(self) -> None:
        """Start the JVM and wait for its model; a model or jar Java cannot load is an
        InputError with Java's own one-line reason."""
        self.close()
        self.err_tail.clear()
        try:
            proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, cwd=self.cwd)
        except OSError as exc:
            hint = JAVA_HINT if self.runtime == "Java" else "see the README"
            raise InputError(f"{self.what}: cannot run {self.argv[0]}: {exc.strerror}; "
                             f"{hint}") from None
        assert proc.stderr is not None
        threading.Thread(target=self._drain, args=(proc.stderr,), daemon=True).start()
        self.proc = proc
        if self.probe is not None:
            answer = self._send(self.probe)
            if answer is not None and len(answer) == len(self.probe):
                return
            first = None
        else:
            first = self._line()
        if first == "ready":
            return
        self.close()
        if first is not None and first.startswith("fatal\t"):
            raise InputError(f"{self.what}: {first[6:]}"[:400])
        last = self._last_error()
        if "class" in last and ("UnsupportedClassVersion" in last or "main class" in last):
            last += f" ({JAVA_HINT})"
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(1)
        raise InputError(f"{self.what}: {self.runtime} exited while starting (exit code "
                         f"{proc.returncode}){': ' + last if last else ''}"[:400])

    def _drain(self, stream: object) -> None:
        for raw in iter(stream.readline, b""):  # type: ignore[attr-defined]
            text = raw.decode("utf-8", "replace").strip()
            if text:
                self.err_tail.append(text)

    def _last_error(self) -> str:
        """The last line of standard error that says something (Java's exception line,
        a failed check of TurboParser's)."""
        lines = list(self.err_tail)
        for line in reversed(lines):
            if "Exception" in line or "Error" in line or "Check failed" in line:
                return line[:300]
        return lines[-1][:300] if lines else ""

    def _send(self, rows: list[str]) -> list[str] | None:
        """ROWS sent, the answer's lines read up to the empty line; None when the
        program ended first."""
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(("".join(r + "\n" for r in rows) + "\n").encode("utf-8"))
            self.proc.stdin.flush()
        except (BrokenPipeError, ConnectionResetError):
            return None
        answer: list[str] = []
        while (line := self._line()) is not None and line != "":
            answer.append(line)
        return None if line is None else answer

    def _line(self) -> str | None:
        assert self.proc is not None and self.proc.stdout is not None
        raw = self.proc.stdout.readline()
        if not raw:
            return None
        return raw.decode("utf-8").rstrip("\n")

    def ask(self, rows: list[str]) -> list[str] | str:
        """The answer lines to one sentence's ROWS, or why there is none (the JVM died or
        the bridge reported an error: the sentence fails, the next one goes on)."""
        if self.proc is None or self.proc.poll() is not None:
            try:  # started once already, so a failure now is this sentence's, not the run's
                self.start()
            except InputError as exc:
                return f"{self.runtime} did not start again: {exc.message}"
        assert self.proc is not None
        answer = self._send(rows)
        if answer is None:
            code = self.proc.wait()
            # the JVM's last words on stderr may lag its exit by a moment
            threading.Event().wait(0.05)
            last = self._last_error()
            self.proc = None
            return f"{self.runtime} exited (exit code {code}){': ' + last if last else ''}"
        if len(answer) == 1 and answer[0].startswith("error\t"):
            return f"error: {answer[0][6:]}"
        return answer

    def close(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        with contextlib.suppress(OSError):
            assert proc.stdin is not None
            proc.stdin.close()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


class JavaAdapter(Adapter):
    """What the parsers behind a kept program share (MaltParser, Yara, MSTParser, Mate,
    TurboParser, TweeboParser): a spec ``NAME:MODEL,tagger=T.udpipe[,jar=JAR][,...]``,
    an identity from the program, the model, the tagger, the bridge program and the
    settings that change the parse, and a parse that tags the words, asks the bridge
    and keeps the tagger's columns. A subclass starts its bridge (``self.bridge``) and
    says how a sentence is sent (:meth:`rows`)."""

    kind = "deps"
    OPTIONS: tuple[str, ...] = ("jar", "tagger")
    USAGE = ""
    JAR_ENV = ""
    WHAT = ""
    """The parser's name in messages."""
    WHERE = ""
    """Where its jar comes from, for the message when it is missing."""
    BRIDGE = ""
    """The bridge program's file under :data:`SOURCES` ("" for a parser that is its
    own bridge)."""
    bridge: JavaBridge
    tagger: Any
    """Gives the words' tags (:class:`parsebench.parsers.tagging.UDPipeTagger`)."""

    @classmethod
    def program(cls, opts: dict[str, str], training: bool = False) -> str:
        """The jar (or binary) the spec's options name, else the environment's
        (TRAINING: as ``train`` is given it, for the message when it is missing)."""
        return find_jar(opts.get("jar"), cls.JAR_ENV, cls.WHAT, cls.WHERE, training)

    @classmethod
    def settings(cls, model: str, opts: dict[str, str]) -> dict[str, str]:
        """The options besides the model that change the parse (MSTParser's order)."""
        return {}

    @classmethod
    def spec_identity(cls, arg: str | None) -> dict[str, str] | None:
        try:
            model, opts = split_options(cls.name, arg, cls.OPTIONS, cls.USAGE)
            program = cls.program(opts)
            if not opts.get("tagger"):
                return None
            got = {"adapter": cls.name, "jar": file_digest(program),
                   "model": file_digest(model),
                   "tagger": "udpipe " + file_digest(opts["tagger"])}
            if cls.BRIDGE:
                got["bridge"] = file_digest(SOURCES / cls.BRIDGE)
            return {**got, **cls.settings(model, opts)}
        except InputError:
            return None  # the worker says what is wrong, in its own words

    def identity(self) -> dict[str, str]:
        got = type(self).spec_identity(self.arg)
        assert got is not None  # the adapter loaded, so the spec is whole
        return got

    def rows(self, words: Sequence[str], tags: Any) -> list[str]:
        """A sentence as the bridge reads it, from its words and the tagger's columns."""
        raise NotImplementedError

    def answer(self, lines: list[str], n: int) -> Analysis | Failure:
        """The parse of N words from the bridge's answer lines (``HEAD<TAB>DEPREL``)."""
        return read_answer(lines, n)

    def needs_reload(self) -> bool:
        return self.bridge.proc is None or self.bridge.proc.poll() is not None

    def reload(self) -> None:
        with contextlib.suppress(InputError):  # the next sentence's ask says why
            self.bridge.start()

    def parse(self, batch: Sequence[Item], tokenize: bool = False) -> Iterator[Outcome]:
        for item in batch:
            if not item.words:
                yield Failure("empty sentence")
                continue
            tags = self.tagger.tag(item.words)
            got = self.bridge.ask(self.rows(item.words, tags))
            if isinstance(got, str):
                yield Failure(got)
                continue
            out = self.answer(got, len(item.words))
            if isinstance(out, Analysis):
                out.upos, out.xpos, out.feats = tags.upos, tags.xpos, tags.feats
                out.lemmas = tags.lemmas
            yield out
