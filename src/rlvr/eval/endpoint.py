"""Answers from a model served elsewhere: an OpenAI-compatible completions endpoint (vLLM's
`vllm serve`, the way a model trained on a cluster is usually served).

`EndpointEngine.generate_completions` takes what `rlvr.eval.generate.generate_completions`
takes and returns the same records, so every evaluation path answers through it unchanged.
The prompts are rendered here, with the local tokenizer of `--model` (the served model's
own), and sent as token ids, so the server sees exactly the tokens the in-process engines
see; the request asks for greedy decoding (temperature 0) or seeded sampling, stops at the
end-of-turn token and the task's stop strings, and asks for the generated token ids back
(`return_token_ids`, vLLM's extension), from which the record is built as the other engines
build it (`rlvr.eval.generate._result`). A server that returns no token ids is read from
its text and `finish_reason` instead. Requests run `concurrency` at a time, each retried
on connection errors and 5xx/429 replies with backoff.

Source: the OpenAI completions API (prompt as token arrays, `n`, `seed`, `stop`) and vLLM
0.30's `CompletionRequest` (`stop_token_ids`, `include_stop_str_in_output`,
`skip_special_tokens`, `return_token_ids`).
"""

from __future__ import annotations

import http.client
import json
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Sequence

from rlvr.errors import RlvrError

RETRIES = 3
BACKOFF_S = 1.0
_RETRY_STATUS = {408, 409, 429}


def check_endpoint_url(url: str) -> str:
    """The base URL with no trailing slash (".../v1" kept, added when missing).

    Raises:
        RlvrError: not an http(s) URL with a host.
    """
    parsed = urllib.parse.urlparse(url or "")
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise RlvrError(f"--endpoint must be an http(s) URL such as http://127.0.0.1:8000/v1, "
                        f"got {url!r}")
    base = url.rstrip("/")
    return base if base.endswith("/v1") else base + "/v1"


class EndpointEngine:
    """Generation through an OpenAI-compatible server (module docstring).

    Args:
        url: the server's base URL (`check_endpoint_url`).
        model: the served model's name; None = the first one `GET /v1/models` lists.
        concurrency: requests in flight. timeout_s: seconds per request.
    Raises:
        RlvrError: the server cannot be reached or lists no model (at the first use).
    """

    def __init__(self, url: str, model: str | None = None, concurrency: int = 8,
                 timeout_s: float = 300.0):
        self.url = check_endpoint_url(url)
        self._model = model
        self.concurrency = max(1, concurrency)
        self.timeout_s = timeout_s

    @property
    def model(self) -> str:
        """The served model's name (asked once from `/v1/models` when not given)."""
        if self._model is None:
            listing = self._call("GET", "/models")
            data = listing.get("data")
            names = [m["id"] for m in data if isinstance(m, dict) and isinstance(
                m.get("id"), str) and m["id"]] if isinstance(data, list) else []
            if not names:
                raise RlvrError(f"{self.url}/models lists no model; pass --endpoint-model")
            self._model = names[0]
        return self._model

    def eval(self) -> "EndpointEngine":
        """No-op (the engines' interface: `model.eval()`)."""
        return self

    def _call(self, method: str, path: str, body: dict | None = None) -> dict[str, Any]:
        data = None if body is None else json.dumps(body).encode("utf-8")
        reason = ""
        for attempt in range(RETRIES + 1):
            if attempt:
                time.sleep(BACKOFF_S * 2 ** (attempt - 1))
            request = urllib.request.Request(self.url + path, data=data, method=method,
                                             headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
                    raw = response.read()
            except urllib.error.HTTPError as exc:
                detail = exc.read().decode("utf-8", "replace")[:300]
                reason = f"HTTP {exc.code} {exc.reason}: {detail}"
                if exc.code < 500 and exc.code not in _RETRY_STATUS:
                    break  # a request the server refuses: asking again cannot help
                continue
            except (urllib.error.URLError, TimeoutError, ConnectionError, OSError,
                    http.client.HTTPException) as exc:
                reason = f"{type(exc).__name__}: {getattr(exc, 'reason', exc)}"
                continue
            try:
                reply = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                raise RlvrError(f"endpoint {self.url}{path} replied with no JSON "
                                f"({raw[:80]!r}); is it an OpenAI-compatible server?") from None
            if not isinstance(reply, dict):
                raise RlvrError(f"endpoint {self.url}{path} replied with a JSON "
                                f"{type(reply).__name__}, not an object")
            return reply
        raise RlvrError(f"endpoint {self.url}{path} failed after {attempt + 1} attempt(s): "
                        f"{reason}")

    def generate_completions(self, tokenizer, prompts: Sequence[Any], max_new_tokens: int,
                             batch_size: int = 16, desc: str = "generating",
                             progress: bool = True, stop: Sequence[str] = (),
                             num_samples: int = 1, temperature: float = 0.0,
                             top_p: float = 1.0, seed: int = 0) -> list[dict[str, Any]]:
        """Answer every prompt through the server; arguments and records as
        `rlvr.eval.generate.generate_completions` (`batch_size` is not used: `concurrency`
        requests are in flight).

        Raises:
            ValueError: num_samples > 1 with greedy decoding.
            RlvrError: a request failed after its retries (the reason, one line).
        """
        from tqdm.auto import tqdm

        from rlvr.eval.generate import _result, cut_at_stop, render_prompts

        if num_samples > 1 and temperature <= 0:
            raise ValueError("num_samples > 1 needs sampling: set a temperature > 0")
        texts = render_prompts(tokenizer, prompts)
        eos = tokenizer.eos_token_id
        common = {"model": self.model, "max_tokens": max_new_tokens, "n": num_samples,
                  "temperature": float(temperature), "stop": list(stop),
                  "stop_token_ids": [eos] if eos is not None else [],
                  "include_stop_str_in_output": True, "skip_special_tokens": True,
                  "return_token_ids": True}
        if temperature > 0:
            common["top_p"] = top_p

        def ask(index: int) -> list[dict[str, Any]]:
            ids = tokenizer(texts[index], add_special_tokens=False)["input_ids"]
            body = {**common, "prompt": ids}
            if temperature > 0:
                body["seed"] = seed + index
            reply = self._call("POST", "/completions", body)
            choices = _choices(reply, num_samples, self.url)
            records = []
            for k, choice in enumerate(choices):
                tokens = choice.get("token_ids")
                if tokens is not None:
                    records.append(_result(tokenizer, list(tokens), stop, max_new_tokens, k))
                    continue
                text, _ = cut_at_stop(choice["text"], stop)
                records.append({"completion": text.strip(), "sample": k,
                                "num_tokens": None,
                                "truncated": choice.get("finish_reason") == "length"})
            return records

        bar = tqdm(total=len(texts), desc=desc, disable=not progress, unit="q")
        with ThreadPoolExecutor(max_workers=self.concurrency,
                                thread_name_prefix="endpoint") as pool:
            futures = [pool.submit(ask, i) for i in range(len(texts))]
            out = []
            for future in futures:
                out.extend(future.result())
                bar.update(1)
        bar.close()
        return out

    def close(self) -> None:
        """Nothing to free (the server keeps running)."""


def _choices(reply: dict[str, Any], n: int, url: str) -> list[dict[str, Any]]:
    """The `n` choices of a completions reply, in index order, each with generated token
    ids (a list of ints) or a text.

    Raises:
        RlvrError: a reply without `n` such choices (one line: what is wrong with it); an
            answer read as empty would be scored as the model's silence.
    """
    choices = reply.get("choices")
    if not isinstance(choices, list) or len(choices) != n:
        count = len(choices) if isinstance(choices, list) else "no"
        raise RlvrError(f"endpoint {url}/completions replied with {count} choices for n={n}; "
                        "is it an OpenAI-compatible completions server?")
    for choice in choices:
        tokens = choice.get("token_ids") if isinstance(choice, dict) else None
        if not isinstance(choice, dict) or not (
                (isinstance(tokens, list) and all(isinstance(t, int) and not isinstance(t, bool)
                                                  and t >= 0 for t in tokens))
                or (tokens is None and isinstance(choice.get("text"), str))):
            raise RlvrError(f"endpoint {url}/completions replied with a choice that has "
                            f"neither token ids nor a text: {str(choice)[:120]}")
    return sorted(choices, key=lambda c: c.get("index", 0) if isinstance(
        c.get("index"), int) else 0)
