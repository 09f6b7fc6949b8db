"""Any external parser: ``command:"CMD ARGS"`` (CoNLL-U in) or ``command-text:"CMD"`` (text in).

The command reads a batch on standard input (CoNLL-U with ID and FORM filled,
or one sentence a line with words separated by spaces) and writes CoNLL-U or
bracketed trees, one per sentence, on standard output. A batch that fails
(non-zero exit, wrong number of sentences or words) is re-run sentence by
sentence, so a crash costs only the sentence that caused it; the pool's
timeout covers hangs. The command runs in its worker's process group, so a
timeout, or parsebench ending, kills it with the worker; what it writes is capped.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import subprocess
import threading
from collections.abc import Iterator, Sequence

from parsebench.common.errors import InputError
from parsebench.formats.brackets import parse_tree, split_trees, unescape_word
from parsebench.formats.conllu import parse_conllu
from parsebench.parsers.base import Adapter, Analysis, Failure, Item, Outcome

MAX_OUTPUT = 64 * 2**20
"""Bytes of output read from a command for one batch, at the least..."""
OUTPUT_PER_INPUT = 1000
"""...or this many times its input: a parse is a few times longer than its words, so
more is a command writing without end (memory grew 1.7 GB in 2 s before the cap)."""


def _capped(proc: subprocess.Popen[bytes], data: bytes, limit: int
            ) -> tuple[bytes, bytes, bool]:
    """Feed DATA to PROC and read its output, but no more than LIMIT bytes of stdout
    (and the last 64 kB of stderr): past the limit the command is killed."""
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    err_tail = bytearray()

    def feed() -> None:
        with contextlib.suppress(OSError):  # the command may exit without reading it all
            assert proc.stdin is not None
            proc.stdin.write(data)
            proc.stdin.close()

    def drain_stderr() -> None:
        assert proc.stderr is not None
        while chunk := os.read(proc.stderr.fileno(), 65536):
            err_tail.extend(chunk)
            del err_tail[:-65536]

    threads = [threading.Thread(target=feed, daemon=True),
               threading.Thread(target=drain_stderr, daemon=True)]
    for t in threads:
        t.start()
    out = bytearray()
    too_much = False
    while chunk := os.read(proc.stdout.fileno(), 1 << 20):
        out.extend(chunk)
        if len(out) > limit:
            too_much = True
            proc.kill()
            break
    proc.stdout.close()
    proc.wait()
    for t in threads:
        t.join(5)
    return bytes(out), bytes(err_tail), too_much


class Command(Adapter):
    name = "command"
    kind = "deps"
    streaming = False

    def __init__(self, arg: str | None) -> None:
        super().__init__(arg)
        if not arg or not arg.strip():
            raise InputError(f"{self.name} needs a command: {self.name}:\"CMD ARGS\"")
        self.argv = shlex.split(arg)

    def identity(self) -> dict[str, str]:
        return {"adapter": self.name, "command": " ".join(self.argv)}

    @classmethod
    def spec_identity(cls, arg: str | None) -> dict[str, str] | None:
        if not arg or not arg.strip():
            return None
        return {"adapter": cls.name, "command": " ".join(shlex.split(arg))}

    def _input(self, batch: Sequence[Item]) -> str:
        out = []
        for item in batch:
            out.append(f"# sent_id = {item.index + 1}\n# text = {item.text}\n")
            out.extend(f"{i}\t{w}\t_\t_\t_\t_\t_\t_\t_\t_\n" for i, w in enumerate(item.words, 1))
            out.append("\n")
        return "".join(out)

    def _run(self, batch: Sequence[Item]) -> list[Outcome] | str:
        data = self._input(batch).encode()
        try:
            proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE)
        except OSError as exc:
            return f"cannot run {self.argv[0]}: {exc.strerror}"
        limit = max(MAX_OUTPUT, OUTPUT_PER_INPUT * len(data))
        out, err, too_much = _capped(proc, data, limit)
        if too_much:
            return f"output too large (over {limit // 2**20} MB)"
        if proc.returncode != 0:
            text = err.decode(errors="replace")
            last = (text.strip().splitlines() or [""])[-1][:200]
            return f"exit status {proc.returncode}" + (f": {last}" if last else "")
        try:
            outcomes = self._read(out.decode(errors="replace"))
        except InputError as exc:
            return f"unreadable output: {exc.message}"
        if len(outcomes) != len(batch):
            return f"{len(outcomes)} sentences out for {len(batch)} in"
        checked: list[Outcome] = []
        for item, o in zip(batch, outcomes, strict=True):
            n = len(o.forms or []) if isinstance(o, Analysis) else 0
            checked.append(o if n == len(item.words) else
                           Failure(f"wrong token count: {n} words out for {len(item.words)}"))
        return checked

    @staticmethod
    def _read(text: str) -> list[Outcome]:
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        first = next((ln.lstrip() for ln in lines if ln.strip()), "")
        if first.startswith("("):
            out: list[Outcome] = []
            for t in split_trees(lines, "<command output>"):
                if not t.text.strip():
                    continue
                tree = parse_tree(t.text, "<command output>", t.line)
                out.append(Analysis(tree=" ".join(str(tree).split()),
                                    forms=[unescape_word(w) for w in tree.words()]))
            return out
        return [Analysis(forms=s.forms, heads=s.heads,
                         deprels=s.deprels, upos=s.upos, xpos=s.xpos, lemmas=s.lemmas,
                         feats=s.feats)
                for s in parse_conllu(lines, "<command output>")]

    def parse(self, batch: Sequence[Item], tokenize: bool = False) -> Iterator[Outcome]:
        result = self._run(batch)
        if isinstance(result, list):
            yield from result
            return
        if len(batch) == 1:
            yield Failure(result)
            return
        for item in batch:
            one = self._run([item])
            yield one[0] if isinstance(one, list) else Failure(one)


class CommandText(Command):
    name = "command-text"

    def _input(self, batch: Sequence[Item]) -> str:
        return "".join(" ".join(item.words) + "\n" for item in batch)
