"""An LLM as a dependency parser: ``openai:MODEL``, any OpenAI-compatible chat endpoint.

The endpoint is ``$OPENAI_BASE_URL`` (default ``https://api.openai.com/v1``; a local
server such as vLLM's or llama.cpp's works the same; anything but an http or https URL
is refused before the first sentence) and the key ``$OPENAI_API_KEY``
(sent when set). Each sentence is one request to ``/chat/completions`` with
:data:`PROMPT` as the system message and the numbered words as the user message,
temperature 0; the standard library makes the request (no SDK needed).

LLMs answer loosely, so the answer is read tolerantly (:func:`read_answer`): prose
around the table and code fences are skipped, rows are the lines that start with a
word number, columns are split on tabs (else on runs of spaces), a row of 4 columns is
read as ID FORM HEAD DEPREL and missing columns are ``_``, range and empty-node rows are
dropped, and heads are mapped through the answer's own ids (a head that names no row
becomes ``_``). An answer with other words than those given keeps its own words: score
it with ``eval deps --align words``, and its invalid trees with ``--invalid``. A
request that times out or fails with 429 or 5xx is tried again (``RETRIES`` times,
each within a third of the sentence's time); a refusal, an answer without rows or any
other failure costs that sentence only (``# parse_status = failed`` with the reason).
Answers are cached in the store like every parse: the identity is the model, the
endpoint and the prompt's digest.

Not run against a real model here: the machine it was written on reaches no model
endpoint; the tests run it against a local HTTP server that answers as such an
endpoint does, well-formed and malformed answers, a timeout and a refusal included.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator, Sequence
from typing import Any

from parsebench.common.errors import InputError
from parsebench.formats.conllu import NO_HEAD
from parsebench.parsers.base import Adapter, Analysis, Failure, Item, Outcome

PROMPT = (
    "You are a dependency parser for Universal Dependencies. Annotate the given words "
    "in CoNLL-U: one line per word, in the given order, with the 10 tab-separated "
    "columns ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC. ID is the word's number "
    "as given; HEAD is the ID of the word's head, 0 for the root; exactly one word has "
    "HEAD 0, and the heads form a tree. DEPREL is a Universal Dependencies relation. Do "
    "not change, split, merge, add or drop words. Answer with the CoNLL-U lines only."
)
"""The system message: what the model is asked for."""
DEFAULT_BASE_URL = "https://api.openai.com/v1"
RETRIES = 2
"""How often a request that timed out or failed with 429 or 5xx is tried again."""


def user_message(words: Sequence[str]) -> str:
    """The user message: the words, one a line, numbered from 1."""
    return "Words:\n" + "\n".join(f"{i}\t{w}" for i, w in enumerate(words, 1))


_ROW = re.compile(r"^\s*\d+(?:[-.]\d+)?(?:\t|\s+)\S")


def read_answer(text: str) -> Analysis | None:
    """The analysis in an LLM's answer TEXT, read tolerantly (see the module); None when
    it holds no row."""
    rows: list[list[str]] = []
    for line in text.split("\n"):  # as the readers split lines: a word may hold U+2028
        if not _ROW.match(line):
            continue
        cols = [c.strip() for c in line.strip().split("\t")] if "\t" in line.strip() \
            else line.split()
        if "-" in cols[0] or "." in cols[0]:
            continue  # a multiword token's range or an empty node
        if len(cols) == 4:
            cols = [cols[0], cols[1], "_", "_", "_", "_", cols[2], cols[3]]
        if len(cols) < 7:
            cols += ["_"] * (7 - len(cols))
        cols = (cols + ["_"] * 10)[:10]
        rows.append([c or "_" for c in cols])
    if not rows:
        return None
    position: dict[str, int] = {}
    for k, cols in enumerate(rows, 1):
        position.setdefault(cols[0], k)
    heads = []
    for cols in rows:
        h = cols[6]
        heads.append(0 if h == "0" else position.get(h, NO_HEAD))
    return Analysis(forms=[c[1] for c in rows], lemmas=[c[2] for c in rows],
                    upos=[c[3] for c in rows], xpos=[c[4] for c in rows],
                    feats=[c[5] for c in rows], heads=heads, deprels=[c[7] for c in rows])


class OpenAIChat(Adapter):
    """``openai:MODEL``: an OpenAI-compatible chat endpoint asked for CoNLL-U."""

    name = "openai"
    kind = "deps"

    def __init__(self, arg: str | None) -> None:
        super().__init__(arg)
        if not arg:
            raise InputError("openai needs a model name: openai:MODEL (endpoint from "
                             "$OPENAI_BASE_URL, key from $OPENAI_API_KEY)")
        self.model = arg
        self.base_url = _base_url()
        self.key = os.environ.get("OPENAI_API_KEY")

    @classmethod
    def spec_identity(cls, arg: str | None) -> dict[str, str] | None:
        if not arg:
            return None
        return {"adapter": cls.name, "model": arg, "endpoint": _base_url(),
                "prompt": hashlib.sha256(PROMPT.encode()).hexdigest()[:12]}

    @classmethod
    def check_input(cls, arg: str | None, items: Sequence[Item]) -> None:
        _base_url()  # a bad endpoint is refused before any worker starts

    def parse(self, batch: Sequence[Item], tokenize: bool = False) -> Iterator[Outcome]:
        for item in batch:
            yield self._one(item.words)

    def _one(self, words: list[str]) -> Outcome:
        if not words:
            return Failure("no words")
        body = json.dumps({"model": self.model, "temperature": 0, "messages": [
            {"role": "system", "content": PROMPT},
            {"role": "user", "content": user_message(words)}]}).encode()
        headers = {"Content-Type": "application/json"}
        if self.key:
            headers["Authorization"] = f"Bearer {self.key}"
        wait = max(1.0, self.timeout / (RETRIES + 2))  # room for the pauses between
        last = "no answer"
        for attempt in range(RETRIES + 1):
            if attempt:
                time.sleep(min(2.0 ** attempt / 4, wait / 4))
            request = urllib.request.Request(f"{self.base_url}/chat/completions", body,
                                             headers, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=wait) as response:
                    answer = json.loads(response.read().decode("utf-8"))
            except urllib.error.HTTPError as exc:
                last = f"HTTP {exc.code} {exc.reason}"
                if exc.code == 429 or exc.code >= 500:
                    continue
                return Failure(last)
            except TimeoutError:
                last = f"timeout after {wait:g} s"
                continue
            except urllib.error.URLError as exc:
                if isinstance(exc.reason, TimeoutError):
                    last = f"timeout after {wait:g} s"
                    continue
                last = f"endpoint unreachable: {exc.reason}"
                continue
            except (ValueError, UnicodeDecodeError):
                return Failure("the endpoint's answer is not JSON")
            return _outcome(answer)
        return Failure(f"{last} ({RETRIES + 1} tries)")


def _outcome(answer: Any) -> Outcome:
    """The analysis in a chat completion ANSWER, or why there is none."""
    try:
        message = answer["choices"][0]["message"]
    except (KeyError, IndexError, TypeError):
        return Failure("the endpoint's answer has no message")
    if not isinstance(message, dict):
        return Failure("the endpoint's answer has no message")
    if message.get("refusal"):
        return Failure("refusal: " + " ".join(str(message["refusal"]).split())[:200])
    content = message.get("content")
    if not isinstance(content, str):
        return Failure("the endpoint's answer has no text")
    got = read_answer(content)
    if got is None:
        return Failure("no CoNLL-U rows in the answer: " + " ".join(content.split())[:200])
    return got


def _base_url() -> str:
    """``$OPENAI_BASE_URL``, an http or https URL: urllib would read a ``file:`` URL's
    ``chat/completions`` file as the model's answer, and an empty or malformed one
    fails every sentence; both are refused before the first sentence."""
    url = os.environ.get("OPENAI_BASE_URL", DEFAULT_BASE_URL)
    try:
        parts = urllib.parse.urlsplit(url)
        web = parts.scheme.lower() in ("http", "https") and bool(parts.hostname)
        parts.port  # noqa: B018 (read for its check)
    except ValueError:  # an unbalanced IPv6 bracket, a port that is not a number
        web = False
    if not web or any(c.isspace() for c in url):
        raise InputError(f"OPENAI_BASE_URL {url!r}: expected an http:// or https:// URL, "
                         f"e.g. {DEFAULT_BASE_URL}")
    return url.rstrip("/")
