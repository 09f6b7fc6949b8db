"""What the fuzz tests damage and run: seed inputs a format, their mutations, a command
run bounded in time."""

from __future__ import annotations

import contextlib
import io
import random
import sys

from conftest import DATA, FIXTURES

from parsebench.cli import main

TOML = f'''name = "fz"
[corpus]
path = "{FIXTURES / 'typos.conllu'}"
limit = 5
[noise]
rates = [0.1, 0.2]
replicates = 2
[[parsers]]
name = "p"
spec = "precomputed:{FIXTURES / 'typos.conllu'}"
timeout = 5
[metrics]
rows = ["head+deprel"]
'''

INSERTS = [b"\t", b"(", b")", b"\xc2\xb2", b"\xc2\xb9", b"\x00", b"99999999999999999999",
           b"-1", b"_", b"\n\n", b"#", b"1-2", b"1.1", b"=", b"|||", b"\xff\xfe", b" ",
           b"\r\n", b"A" * 5000, b"\xe2\x80\x8b", b"(X " * 3000 + b"(Y w)" + b")" * 3000]


SEEDS: dict[str, bytes] = {
    "conllu": (DATA / "lin-key.conllu").read_bytes(),
    "answer": (DATA / "lin-answer.conllu").read_bytes(),
    "typos": (FIXTURES / "typos.conllu").read_bytes(),
    "trees": (DATA / "demo-gold.mrg").read_bytes(),
    "test-trees": (DATA / "demo-test.mrg").read_bytes(),
    "rules": (DATA / "demo-rules.txt").read_bytes(),
    "prm": b"DEBUG 0\nMAX_ERROR 10\nCUTOFF_LEN 40\nLABELED 1\nDELETE_LABEL TOP\n"
           b"DELETE_LABEL -NONE-\nDELETE_LABEL ,\nEQ_LABEL ADVP PRT\nQUOTE_LABEL ''\n",
    "pharaoh": b"0-0 1-1 2-2 3-3\n0-0 1-1 2-2 3-3 4-4 5-5\n",
    "m2": b"S I cant sleep tonite\nA 1 2|||R:SPELL|||can't|||REQUIRED|||-NONE-|||0\n\n"
          b"S The dog sat on the mat\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n",
    "labels": b"nsubj subj\nobj dobj\n",
    "text": b"the cat sat on the mat\nI cant sleep tonite\n\nshe recieved a letter\n",
    "toml": TOML.encode(),
}


def mutate(data: bytes, rng: random.Random) -> bytes:
    lines = data.split(b"\n")
    op = rng.randrange(11)
    if op == 0 and data:
        b = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        return bytes(b)
    if op == 1 and len(lines) > 1:
        del lines[rng.randrange(len(lines))]
    elif op == 2:
        k = rng.randrange(len(lines))
        lines.insert(k, lines[k])
    elif op == 3 and len(lines) > 1:
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == 4:
        return data[:rng.randrange(len(data) + 1)]
    elif op in (5, 6, 7):
        at = rng.randrange(len(data) + 1)
        return data[:at] + rng.choice(INSERTS) + data[at:]
    elif op == 8:
        return b""
    elif op == 9:
        return data.replace(b"\n", b"\r\n")
    else:
        k = rng.randrange(len(lines))
        parts = lines[k].split(b"\t")
        if len(parts) > 1:
            parts[rng.randrange(len(parts))] = rng.choice(INSERTS)
            lines[k] = b"\t".join(parts)
        else:
            lines[k] = lines[k] + rng.choice(INSERTS)
    return b"\n".join(lines)


def run(args: list[str]) -> tuple[int, str, str]:
    """The console script as a user runs it (sys.argv), in this process."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.argv
    sys.argv = ["parsebench", *args]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main()
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
        finally:
            sys.argv = saved
    return code, out.getvalue(), err.getvalue()
