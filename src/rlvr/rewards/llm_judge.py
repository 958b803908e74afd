"""`llm_judge`: a reward read from an LLM judge's reply (an OpenAI-compatible endpoint the
user configures; settings, cache and retries: `rlvr.rewards.judge`).

```yaml
reward_funcs:
  - name: llm_judge
    params:
      judge: {base_url: http://127.0.0.1:8000/v1, model: qwen2.5-7b-instruct,
              api_key_env: JUDGE_API_KEY, concurrency: 8}
      scale: [0, 10]        # the reply holds a number from 0 to 10 -> score (n - 0) / 10
```

The template gets {question} (the prompt's last user turn, else the row's `question`),
{response} (the completion) and {gold} (the row's first non-empty `expected_answer`,
`answer`, `aliases`, `final_answer` or `solution`; lists joined by " | "). The reply is
read one of two ways, and the score always lies in [0, 1]:

| params | reply | score | outcome |
|---|---|---|---|
| `scale: [lo, hi]` (default [0, 10]) | a number n and nothing else ("7", "Score: 7/10", "**7**"), lo <= n <= hi (a denominator must be hi) | (n - lo) / (hi - lo) | `judged` |
| `verdicts: {WORD: value, ...}` | exactly one of the words (whole word, any case, repeats allowed, not negated) | its value | `judged` |
| either | prose around the number, a number outside the scale, no verdict word, two different ones or a negated one ("NOT CORRECT") | 0.0 | `judge_unparsed` |
| either | the endpoint refused the request (HTTP 400/413/422) | 0.0 | `judge_error` |
| either | the endpoint failed after its retries (down, timeouts, 5xx) | None | `judge_error` |
| a template with {gold} | the row has no gold answer (nothing is sent) | None | `no_gold` |

Without a `template`, the default prompt asks for what the reply is read as (the scale's
bounds, or the verdict words: `default_template`). An unreadable or refused reply scores the bottom (0.0): the policy's text is in the judge's
prompt, so a policy must never gain by making the judge fail. Only a judge that is down
gives None, left out of the group statistics (an unscorable sample), so it never stops
training. Example (hand-checked): scale [1, 5], reply "Score: 4/5" -> n = 4
-> (4 - 1) / (5 - 1) = 0.75. The reply is read strictly because the policy's text is in the
judge's prompt: the template's `<response>` tags are renamed per response
(`rlvr.rewards.judge.fill_template`), so the text cannot close its block, the
default template tells the judge the text is data, and a reply that is not a bare score or
verdict (a judge talked into prose) scores the bottom.
"""

from __future__ import annotations

import re
from typing import Any

from rlvr.errors import RlvrError
from rlvr.rewards.contract import RewardResult
from rlvr.rewards.registry import register_reward
from rlvr.rewards.judge import (DATA_NOTE, JUDGE_OUTCOMES, JudgeReply, JudgeSettings, charged,
                                get_client, gold_text, judge_settings, last_question, negated)

SCORE_TEMPLATE = (
    "You grade a response to a question against the reference answer.\n\n"
    "Question: {question}\n\nReference answer: {gold}\n\n<response>\n{response}\n</response>"
    "\n\n" + DATA_NOTE + "\n\n"
    "Reply with a single integer from 0 (wrong, or no answer) to 10 (fully correct), "
    "and nothing else.")
GOLD_FIELDS = ("expected_answer", "answer", "aliases", "final_answer", "solution")
_N = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)"
# a reply that is a score and nothing else: "7", "7.5", "Score: 7", "**7/10**", "7 out of 10."
_SCORE_REPLY = re.compile(rf"^[\W_]*?(?:score\W*?)?({_N})(?:\s*(?:/|out of)\s*({_N}))?[\W_]*$",
                          re.IGNORECASE)


def default_template(scale: Any = None, verdicts: dict[str, float] | None = None) -> str:
    """`SCORE_TEMPLATE` asking for what the reply will be read as: a number in `scale`
    (default [0, 10]) or one of the `verdicts` words, so the default prompt and the reader
    never disagree (a [1, 5] scale read from a 0-10 answer would be off by its whole range).
    """
    if verdicts:
        words = ", ".join(str(k).upper() for k in verdicts)
        return SCORE_TEMPLATE.replace(
            "a single integer from 0 (wrong, or no answer) to 10 (fully correct)",
            f"exactly one of these words: {words}")
    if scale is not None:
        low, high = _scale(scale)
        return SCORE_TEMPLATE.replace("from 0 (wrong", f"from {low:g} (wrong").replace(
            "to 10 (fully", f"to {high:g} (fully")
    return SCORE_TEMPLATE


def settings_of(judge: Any, scale: Any = None,
                verdicts: dict[str, float] | None = None) -> JudgeSettings:
    """The checked settings of `llm_judge`'s `judge` mapping (template when it sets none:
    `default_template(scale, verdicts)`)."""
    return judge_settings(judge, default_template=default_template(scale, verdicts),
                          where="reward 'llm_judge' judge")


def check_llm_judge_params(params: dict[str, Any]) -> None:
    """Refuse missing or bad judge settings, a malformed `scale` or `verdicts`.

    Raises:
        RlvrError: one line naming the setting and the fix.
    """
    scale, verdicts = params.get("scale"), params.get("verdicts")
    settings_of(params.get("judge"), scale if scale is not None and not verdicts else None)
    if scale is not None:
        _scale(scale)
    if verdicts is not None:
        ok = isinstance(verdicts, dict) and verdicts and all(
            isinstance(k, str) and re.fullmatch(r"[A-Za-z_]+", k)
            and isinstance(v, (int, float)) and not isinstance(v, bool) and 0.0 <= v <= 1.0
            for k, v in verdicts.items())
        if not ok:
            raise RlvrError("reward 'llm_judge' verdicts must map words to scores in [0, 1], "
                            f"such as {{CORRECT: 1.0, INCORRECT: 0.0}}, got {verdicts!r}")
        if scale is not None:
            raise RlvrError("reward 'llm_judge' takes scale or verdicts, not both")


def _scale(scale: Any) -> tuple[float, float]:
    from rlvr.rewards.user import score_range_of

    return score_range_of("llm_judge", scale, "scale")


def read_score(reply: str, scale: Any = None, verdicts: dict[str, float] | None = None,
               ) -> tuple[float | None, dict[str, Any]]:
    """The score in a judge's reply (module docstring's table), or None when it has none.

    Returns:
        (score, details): details hold `judge_reply` and the `verdict` or `number` read.
    """
    details: dict[str, Any] = {"judge_reply": reply[:200]}
    if verdicts:
        upper = {k.upper(): float(v) for k, v in verdicts.items()}
        words = [w.upper() for w in re.findall(r"[A-Za-z_]+", reply)]
        named = {w for w in words if w in upper}
        if len(named) != 1 or negated(words, set(upper)):  # none, two, or "NOT CORRECT"
            return None, details
        word = named.pop()
        return upper[word], {**details, "verdict": word}
    low, high = _scale(scale if scale is not None else (0, 10))
    found = _SCORE_REPLY.match(reply.strip())
    if found is None:  # prose around a number ("a scale of 0 to 10: 3") is not read
        return None, details
    number = float(found.group(1))
    if not low <= number <= high or (found.group(2) is not None
                                     and float(found.group(2)) != high):
        return None, {**details, "number": number}  # outside the scale, or "4/5" on 0..10
    return (number - low) / (high - low), {**details, "number": number}


def _question(row: dict[str, Any]) -> str:
    prompt = row.get("prompt")
    return last_question(prompt) if prompt is not None else str(row.get("question") or "")


def _gold(row: dict[str, Any]) -> str:
    for name in GOLD_FIELDS:
        if row.get(name) not in (None, "", []):
            return gold_text(row[name])
    return ""


def llm_judge_batch(completions: list[str], rows: list[dict[str, Any]], *,
                    judge: dict[str, Any] | None = None, scale: Any = None,
                    verdicts: dict[str, float] | None = None) -> list[RewardResult]:
    """Judge a batch: the requests are sent concurrently (`JudgeClient.ask_many`, cached),
    each reply read by `read_score`. Raises: RlvrError for bad settings only."""
    settings = settings_of(judge, scale, verdicts)
    needs_gold = "gold" in get_client(settings).placeholders
    requests = [(_question(row), text or "", _gold(row)) for text, row in zip(completions, rows)]
    asked = [i for i, r in enumerate(requests) if r[2] or not needs_gold]
    replies = dict(zip(asked, get_client(settings).ask_many([requests[i] for i in asked])))
    results = []
    for i in range(len(requests)):
        reply: JudgeReply | None = replies.get(i)
        if reply is None:
            results.append(RewardResult(None, "no_gold", {"error": "no gold answer for {gold}"}))
        elif reply.text is None:  # the scale's bottom when the request itself was refused
            results.append(charged(RewardResult(None, "judge_error", {
                "judge_error": reply.error, "judge_fault": reply.fault}), 0.0))
        else:
            score, details = read_score(reply.text, scale, verdicts)
            results.append(RewardResult(score, "judged", details) if score is not None else
                           charged(RewardResult(None, "judge_unparsed", details), 0.0))
    return results


@register_reward("llm_judge", fields=(), optional_fields=("prompt", "question") + GOLD_FIELDS,
                 score_range=(0.0, 1.0), batch_core=llm_judge_batch,
                 outcomes=("judged", "no_gold") + JUDGE_OUTCOMES)
def llm_judge_reward(completion: str, *, prompt: Any = None, question: Any = None,
                     expected_answer: Any = None, answer: Any = None, aliases: Any = None,
                     final_answer: Any = None, solution: Any = None,
                     judge: dict[str, Any] | None = None, scale: Any = None,
                     verdicts: dict[str, float] | None = None) -> RewardResult:
    """Score one response with the LLM judge (module docstring): `llm_judge_batch` on one
    row. The row fields fill the template; `judge`, `scale` and `verdicts` are params."""
    row = {"prompt": prompt, "question": question, "expected_answer": expected_answer,
           "answer": answer, "aliases": aliases, "final_answer": final_answer,
           "solution": solution}
    return llm_judge_batch([completion], [row], judge=judge, scale=scale, verdicts=verdicts)[0]


llm_judge_reward.param_check = check_llm_judge_params
