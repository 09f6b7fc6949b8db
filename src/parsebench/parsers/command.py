"""Any external parser: ``command:"CMD ARGS"`` (CoNLL-U in) or ``command-text:"CMD"`` (text in).

The command reads a batch on standard input (CoNLL-U with ID and FORM filled,
or one sentence a line with words separated by spaces) and writes CoNLL-U or
bracketed trees, one per sentence, on standard output. A batch that fails
(non-zero exit, wrong number of sentences or words) is re-run sentence by
sentence, so a crash costs only the sentence that caused it; the pool's
timeout covers hangs. The command runs in its own process group, killed with
its worker.
"""

from __future__ import annotations

import shlex
import subprocess
from collections.abc import Iterator, Sequence

from parsebench.errors import InputError
from parsebench.formats.brackets import parse_tree, split_trees
from parsebench.formats.conllu import parse_conllu
from parsebench.parsers.base import Adapter, Analysis, Failure, Item, Outcome


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

    def _input(self, batch: Sequence[Item]) -> str:
        out = []
        for item in batch:
            out.append(f"# sent_id = {item.index + 1}\n# text = {item.text}\n")
            out.extend(f"{i}\t{w}\t_\t_\t_\t_\t_\t_\t_\t_\n" for i, w in enumerate(item.words, 1))
            out.append("\n")
        return "".join(out)

    def _run(self, batch: Sequence[Item]) -> list[Outcome] | str:
        try:
            p = subprocess.run(self.argv, input=self._input(batch), capture_output=True,
                               text=True)
        except OSError as exc:
            return f"cannot run {self.argv[0]}: {exc.strerror}"
        if p.returncode != 0:
            last = (p.stderr.strip().splitlines() or [""])[-1][:200]
            return f"exit status {p.returncode}" + (f": {last}" if last else "")
        try:
            outcomes = self._read(p.stdout)
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
                out.append(Analysis(tree=" ".join(str(tree).split()), forms=tree.words()))
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
