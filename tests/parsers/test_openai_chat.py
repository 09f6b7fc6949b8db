"""``openai:MODEL`` against a local HTTP server that answers as an OpenAI-compatible chat
endpoint does. No CI can reach a real LLM, so a server in the test stands in for the
endpoint (not for a parser CI could install): well-formed answers, prose and code
fences around the table, missing columns, another number of words, a cycle, a
malformed answer, a refusal, a server error and a timeout, each costing one sentence at
most."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from parsebench.formats.conllu import NO_HEAD, read_conllu
from parsebench.parsers.base import Analysis, Failure, Item, make_adapter, spec_identity
from parsebench.parsers.openai_chat import PROMPT, read_answer

GOLD = {  # the first word of a sentence says how the fake endpoint answers
    "well": [("well", 2, "nsubj"), ("formed", 0, "root"), ("answer", 2, "obj")],
    "prose": [("prose", 0, "root"), ("around", 1, "advmod")],
    "short": [("short", 0, "root"), ("columns", 1, "obj")],
    "extra": [("extra", 0, "root"), ("word", 1, "obj")],
    "cycle": [("cycle", 2, "nsubj"), ("here", 0, "root")],
    "garbage": [("garbage", 0, "root")],
    "refuse": [("refuse", 0, "root")],
    "flaky": [("flaky", 0, "root"), ("server", 1, "obj")],
    "slow": [("slow", 0, "root")],
}


def row(i: int, form: str, head: int, rel: str) -> str:
    return f"{i}\t{form}\t_\tX\t_\t_\t{head}\t{rel}\t_\t_"


def answer_for(words: list[str], calls: dict[str, int]) -> tuple[int, str | None, Any]:
    """(status, content, refusal) of the fake endpoint for WORDS."""
    first = words[0]
    calls[first] = calls.get(first, 0) + 1
    gold = GOLD[first]
    table = "\n".join(row(i, f, h, r) for i, (f, h, r) in enumerate(gold, 1))
    if first == "prose":
        return 200, f"Sure! Here is the parse:\n```conllu\n{table}\n```\nHope it helps.", None
    if first == "short":  # ID FORM HEAD DEPREL
        return 200, "1 short 0 root\n2 columns 1 obj", None
    if first == "extra":  # a word added
        return 200, table + "\n" + row(3, "please", 1, "discourse"), None
    if first == "cycle":
        return 200, row(1, "cycle", 2, "nsubj") + "\n" + row(2, "here", 1, "dep"), None
    if first == "garbage":
        return 200, "I think this sentence is about garbage.", None
    if first == "refuse":
        return 200, None, "I can't help with that."
    if first == "flaky" and calls[first] == 1:
        return 503, None, None
    if first == "slow":
        time.sleep(3)
    return 200, table, None


@pytest.fixture
def endpoint(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    seen: dict[str, Any] = {"calls": {}, "requests": []}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            seen["requests"].append((self.path, self.headers.get("Authorization"), body))
            user = body["messages"][1]["content"]
            words = [line.split("\t")[1] for line in user.splitlines()[1:]]
            status, content, refusal = answer_for(words, seen["calls"])
            if status != 200:
                self.send_response(status)
                self.end_headers()
                return
            out = json.dumps({"id": "x", "object": "chat.completion", "choices": [
                {"index": 0, "finish_reason": "stop", "message": {
                    "role": "assistant", "content": content, "refusal": refusal}}]})
            try:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(out.encode())
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (the timeout case)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    monkeypatch.setenv("OPENAI_BASE_URL", url)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    seen["url"] = url
    yield seen
    server.shutdown()
    server.server_close()


def parse_one(words: list[str], timeout: float = 60.0) -> Analysis | Failure:
    a = make_adapter("openai:tiny-model")
    a.timeout = timeout
    return next(iter(a.parse([Item(0, words, " ".join(words))])))


def words(first: str) -> list[str]:
    return [f for f, _, _ in GOLD[first]]


def test_request_is_an_openai_chat_completion(endpoint: dict[str, Any]) -> None:
    got = parse_one(words("well"))
    assert isinstance(got, Analysis)
    assert got.heads == [2, 0, 2] and got.deprels == ["nsubj", "root", "obj"]
    path, auth, body = endpoint["requests"][0]
    assert path == "/v1/chat/completions" and auth == "Bearer test-key"
    assert body["model"] == "tiny-model" and body["temperature"] == 0
    assert body["messages"][0] == {"role": "system", "content": PROMPT}
    assert body["messages"][1]["content"] == "Words:\n1\twell\n2\tformed\n3\tanswer"


def test_answers_are_read_tolerantly(endpoint: dict[str, Any]) -> None:
    prose = parse_one(words("prose"))
    assert isinstance(prose, Analysis) and prose.heads == [0, 1]
    short = parse_one(words("short"))
    assert isinstance(short, Analysis) and short.heads == [0, 1]
    assert short.deprels == ["root", "obj"] and short.upos == ["_", "_"]
    extra = parse_one(words("extra"))
    assert isinstance(extra, Analysis) and extra.forms == ["extra", "word", "please"]


def test_failures_cost_one_sentence(endpoint: dict[str, Any]) -> None:
    garbage = parse_one(words("garbage"))
    assert isinstance(garbage, Failure) and garbage.reason.startswith("no CoNLL-U rows")
    refusal = parse_one(words("refuse"))
    assert isinstance(refusal, Failure)
    assert refusal.reason == "refusal: I can't help with that."
    flaky = parse_one(words("flaky"))  # 503, then an answer
    assert isinstance(flaky, Analysis) and endpoint["calls"]["flaky"] == 2
    slow = parse_one(words("slow"), timeout=4.0)  # 1 s a try, 3 tries
    assert isinstance(slow, Failure) and slow.reason == "timeout after 1 s (3 tries)"


def test_read_answer_maps_heads_through_the_answers_ids() -> None:
    got = read_answer("3\ta\t_\t_\t_\t_\t5\tdet\n5\tb\t_\t_\t_\t_\t0\troot\n"
                      "7\tc\t_\t_\t_\t_\t9\tdep\n1-2\tab\t_\n")
    assert got is not None and got.heads == [2, 0, NO_HEAD] and got.forms == ["a", "b", "c"]
    assert read_answer("no table here") is None


def test_identity_names_model_endpoint_and_prompt(endpoint: dict[str, Any]) -> None:
    got = spec_identity("openai:tiny-model")
    assert got is not None and got["model"] == "tiny-model"
    assert got["endpoint"] == endpoint["url"] and len(got["prompt"]) == 12


def test_parse_and_score_broken_answers(endpoint: dict[str, Any], tmp_path: Path) -> None:
    """The parse command in its worker processes, then eval deps: the added word by the
    alignment, the cycle by the validity policy, the failures as unattached words."""
    gold = tmp_path / "gold.conllu"
    gold.write_text("".join("\n".join(row(i, f, h, r) for i, (f, h, r) in enumerate(g, 1))
                            + "\n\n" for k, g in GOLD.items() if k != "slow"))
    out = tmp_path / "llm.conllu"
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "parse", str(gold), "-o",
                        str(out), "--parser", "openai:tiny-model"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    parsed = read_conllu(out)
    failed = [s.comment_value("parse_error") for s in parsed
              if s.comment_value("parse_status") == "failed"]
    assert len(failed) == 2 and failed[1] == "refusal: I can't help with that."
    e = subprocess.run([sys.executable, "-m", "parsebench.cli", "eval", "deps", str(gold),
                        str(out), "--align", "words", "--invalid", "zero", "--json"],
                       capture_output=True, text=True)
    assert e.returncode == 0, e.stderr
    d = json.loads(e.stdout)
    assert d["alignment"] == {"matched": 15, "substituted": 0, "deleted": 0, "inserted": 1}
    assert d["validity"]["invalid"] == 1 and d["validity"]["cycles"] == 1
    # 15 gold words: right are well(3) prose(2) short(2) extra(2) flaky(2) = 11; the
    # cycle's 2 (zeroed), garbage's and refuse's 1 each (failed) are not; 16 system words
    assert d["uas"]["recall"] == 11 / 15 and d["uas"]["precision"] == 11 / 16


@pytest.mark.parametrize("url", ["file:///DIR", "", "nonsense", "http://", "ftp://h/v1",
                                 "http://[::1", "http://h:port/v1", "http://h/ v1"])
def test_an_endpoint_that_is_not_http_is_refused_before_the_first_sentence(
        tmp_path: Path, url: str) -> None:
    """Issue 48.15: a file: URL made urllib read DIR/chat/completions as the model's
    answer; an empty or malformed one failed every sentence and exited 0."""
    answer = tmp_path / "chat" / "completions"
    answer.parent.mkdir()
    answer.write_text(json.dumps({"choices": [{"message": {
        "content": "1\ta\t_\tX\t_\t_\t0\troot"}}]}), encoding="utf-8")
    src = tmp_path / "in.txt"
    src.write_text("a\n", encoding="utf-8")
    out = tmp_path / "o.conllu"
    env = {**os.environ, "OPENAI_BASE_URL": url.replace("DIR", str(tmp_path))}
    p = subprocess.run([sys.executable, "-m", "parsebench.cli", "parse", str(src), "-o",
                        str(out), "--parser", "openai:m"], capture_output=True, text=True,
                       env=env)
    assert p.returncode == 2, p.stderr
    assert p.stderr.splitlines() == [
        f"parsebench: OPENAI_BASE_URL {env['OPENAI_BASE_URL']!r}: expected an http:// or "
        "https:// URL, e.g. https://api.openai.com/v1"]
    assert not out.exists()
