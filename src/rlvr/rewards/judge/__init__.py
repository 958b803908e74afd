"""An LLM judge as a grader: behind the `llm_judge` reward and the `decision: judge` path of
the calibration rewards (`selfaware`, `abstention`).

One entry point for the rest of rlvr:

- `client`: the judge's settings (`judge_settings`), the prompt it is sent (`fill_template`,
  with the fence around the policy's response), the HTTP client with retries and
  concurrency (`get_client`) and the reply cache;
- `decision`: the answer / abstain / hedge decision read from a judge's reply
  (`judge_decision`, `read_decision`), how a judge failure is scored (`charged`) and the
  batch prefetch of the calibration rewards (`prefetch_judgements`, `judged_batch`).

Standard library only.
"""

from rlvr.rewards.judge.client import (
    RESPONSE_TAGS,
    JudgeClient,
    JudgeReply,
    JudgeSettings,
    fence_text,
    fenced_tag,
    fill_template,
    get_client,
    judge_settings,
)
from rlvr.rewards.judge.decision import (
    DATA_NOTE,
    DECISION_TEMPLATE,
    DECISIONS,
    GRADED_TEMPLATE,
    JUDGE_OUTCOMES,
    JudgeDecision,
    charged,
    check_decision_params,
    gold_text,
    judge_decision,
    judged_batch,
    judged_match,
    last_question,
    negated,
    prefetch_judgements,
    read_decision,
)

__all__ = ["RESPONSE_TAGS", "JudgeClient", "JudgeReply", "JudgeSettings", "fence_text",
           "fenced_tag", "fill_template", "get_client", "judge_settings", "DATA_NOTE",
           "DECISION_TEMPLATE", "DECISIONS", "GRADED_TEMPLATE", "JUDGE_OUTCOMES", "JudgeDecision",
           "charged", "check_decision_params", "gold_text", "judge_decision", "judged_batch",
           "judged_match", "last_question", "negated", "prefetch_judgements", "read_decision"]
