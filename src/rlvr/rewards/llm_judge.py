"""`llm_judge`: a reward read from an LLM judge's reply (an OpenAI-compatible endpoint the
user configures; settings, cache and retries: `rlvr.rewards.judge_client`).

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
| `scale: [lo, hi]` (default [0, 10]) | a number n and nothing else ("7", "Score: 7/10", "**7**"), lo <= n <= hi | (n - lo) / (hi - lo) | `judged` |
| `verdicts: {WORD: value, ...}` | exactly one of the words (whole word, any case, repeats allowed) | its value | `judged` |
| either | prose around the number, a number outside the scale, no verdict word or two different ones | None | `judge_unparsed` |
| either | the endpoint failed after its retries | None | `judge_error` |
| a template with {gold} | the row has no gold answer (nothing is sent) | None | `no_gold` |

None scores are left out of the group statistics (an unscorable sample), so a flaky judge
never stops training. Example (hand-checked): scale [1, 5], reply "Score: 4/5" -> n = 4
-> (4 - 1) / (5 - 1) = 0.75. The reply is read strictly because the policy's text is in the
judge's prompt: the default template fences it in `<response>` tags it cannot close
(`rlvr.rewards.judge_client.fence_text`) and tells the judge it is data, and a reply that
is not a bare score or verdict (a judge talked into prose) scores nothing.
"""

from __future__ import annotations

import re
from typing import Any

from rlvr.errors import RlvrError
from rlvr.rewards.base import RewardResult, register_reward
from rlvr.rewards.judge_client import JudgeReply, JudgeSettings, get_client, judge_settings
from rlvr.rewards.judge_decision import DATA_NOTE, JUDGE_OUTCOMES, gold_text, last_question

SCORE_TEMPLATE = (
    "You grade a response to a question against the reference answer.\n\n"
    "Question: {question}\n\nReference answer: {gold}\n\n<response>\n{response}\n</response>"
    "\n\n" + DATA_NOTE + "\n\n"
    "Reply with a single integer from 0 (wrong, or no answer) to 10 (fully correct), "
    "and nothing else.")
GOLD_FIELDS = ("expected_answer", "answer", "aliases", "final_answer", "solution")
_N = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)"
# a reply that is a score and nothing else: "7", "7.5", "Score: 7", "**7/10**", "7 out of 10."
_SCORE_REPLY = re.compile(rf"^[\W_]*?(?:score\W*?)?({_N})(?:\s*(?:/|out of)\s*{_N})?[\W_]*$",
                          re.IGNORECASE)


def settings_of(judge: Any) -> JudgeSettings:
    """The checked settings of `llm_judge`'s `judge` mapping (template: `SCORE_TEMPLATE`)."""
    return judge_settings(judge, default_template=SCORE_TEMPLATE, where="reward 'llm_judge' judge")


def check_llm_judge_params(params: dict[str, Any]) -> None:
    """Refuse missing or bad judge settings, a malformed `scale` or `verdicts`.

    Raises:
        RlvrError: one line naming the setting and the fix.
    """
    settings_of(params.get("judge"))
    scale, verdicts = params.get("scale"), params.get("verdicts")
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
        named = {w.upper() for w in re.findall(r"[A-Za-z_]+", reply) if w.upper() in upper}
        if len(named) != 1:  # none, or two ("not CORRECT but INCORRECT"): ambiguous
            return None, details
        word = named.pop()
        return upper[word], {**details, "verdict": word}
    low, high = _scale(scale if scale is not None else (0, 10))
    found = _SCORE_REPLY.match(reply.strip())
    if found is None:  # prose around a number ("a scale of 0 to 10: 3") is not read
        return None, details
    number = float(found.group(1))
    if not low <= number <= high:
        return None, {**details, "number": number}
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
    settings = settings_of(judge)
    needs_gold = "{gold}" in settings.template
    requests = [(_question(row), text or "", _gold(row)) for text, row in zip(completions, rows)]
    asked = [i for i, r in enumerate(requests) if r[2] or not needs_gold]
    replies = dict(zip(asked, get_client(settings).ask_many([requests[i] for i in asked])))
    results = []
    for i in range(len(requests)):
        reply: JudgeReply | None = replies.get(i)
        if reply is None:
            results.append(RewardResult(None, "no_gold", {"error": "no gold answer for {gold}"}))
        elif reply.text is None:
            results.append(RewardResult(None, "judge_error", {"judge_error": reply.error}))
        else:
            score, details = read_score(reply.text, scale, verdicts)
            results.append(RewardResult(score, "judged" if score is not None
                                        else "judge_unparsed", details))
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
