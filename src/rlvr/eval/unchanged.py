"""Runs that did not change the model are reported as such, never as trained.

Three signs, checked after training, each enough on its own:
- 0 optimizer steps: nothing was updated (`rlvr train` then exits with code 3);
- every LoRA B matrix of the adapter is exactly 0: a LoRA layer adds B A x (Hu et al.
  2021, eq. 3), and PEFT initialises B to 0, so such an adapter is the base model exactly
  (seen when every reward of the kept step was 0);
- the trained model's greedy answers equal the base model's on every held-out question.
The report's `meta.untrained` holds the reason (null for a run that changed the model), the
run's verdict is `unchanged` with that reason (`mark_untrained`), and the log and the
console say it in one line. The knowledge
verdict would often say `unchanged` anyway (every paired difference 0); the reason here
says why, and a task run's report, which has no such verdict, gets the same line.
"""

from __future__ import annotations

from typing import Any, Sequence


def identical_answers(base: Sequence[dict[str, Any]], trained: Sequence[dict[str, Any]]
                      ) -> dict[str, int]:
    """How many held-out answers are the same text before and after training.

    Args:
        base, trained: scored records with `id`, optional `sample`, and `completion`.
    Returns:
        {"n": records compared (same id and sample on both sides), "identical": how many
        have equal completions}.
    """
    trained_by_key = {(r["id"], r.get("sample", 0)): r.get("completion") for r in trained}
    pairs = [(r.get("completion"), trained_by_key[(r["id"], r.get("sample", 0))])
             for r in base if (r["id"], r.get("sample", 0)) in trained_by_key]
    return {"n": len(pairs), "identical": sum(1 for a, b in pairs if a == b)}


def lora_is_identity(model) -> bool | None:
    """True when the model has LoRA B matrices and every one is exactly 0 (the adapter adds
    nothing); False when one is not; None when it has no LoRA weights (not a PEFT model)."""
    found = False
    for name, tensor in model.state_dict().items():
        if "lora_B" in name:
            found = True
            if bool(tensor.detach().abs().max() > 0):
                return False
    return True if found else None


def untrained_reason(steps: int | None, identity: bool | None,
                     answers: dict[str, int] | None = None) -> str | None:
    """The first sign (module docstring) that training changed nothing, as a sentence, or
    None when there is none.

    Args:
        steps: optimizer steps taken; identity: `lora_is_identity`; answers:
            `identical_answers` (None when the run was not evaluated).
    """
    if steps == 0:
        return "training took 0 optimizer steps, so the adapter is the base model"
    if identity:
        return ("every LoRA B matrix of the adapter is 0, so it adds nothing: the trained "
                "model is the base model exactly")
    if answers and answers["n"] and answers["identical"] == answers["n"]:
        return (f"the trained model's answers equal the base model's on all {answers['n']} "
                "held-out answers")
    return None


def untrained(steps: int | None, model, base: Sequence[dict[str, Any]] | None = None,
              trained: Sequence[dict[str, Any]] | None = None) -> str | None:
    """The run's `meta.untrained`: `untrained_reason` of its optimizer steps, its adapter
    (`lora_is_identity` of the trained PEFT `model`) and, when evaluated, its base and
    trained held-out records (`identical_answers`). The one call the main job makes."""
    answers = identical_answers(base, trained) if base is not None and trained is not None \
        else None
    return untrained_reason(steps, lora_is_identity(model), answers)


def mark_untrained(report: dict[str, Any], reason: str) -> dict[str, Any]:
    """Replace the knowledge verdict of `report` (in place, when it has one) by `unchanged`
    with `reason`; an `undetermined` verdict (no known or no unknown question) stays, with
    both reasons. `meta.untrained` carries the reason itself. Answers equal to the base
    model's give every paired difference 0, so `judge_training` already says `unchanged`
    (or `undetermined`) for such a run: this makes the reason say why, and `rlvr compare`,
    which recomputes verdicts from the answers, gets the same word."""
    knowledge = report.get("knowledge")
    if knowledge and knowledge.get("verdict"):
        verdict = knowledge["verdict"]
        if verdict["verdict"] == "undetermined":  # not measurable either: both reasons
            knowledge["verdict"] = {**verdict, "reason": f"{reason}; {verdict['reason']}"}
        else:
            knowledge["verdict"] = {**verdict, "verdict": "unchanged", "collapsed": False,
                                    "reason": reason}
    return report
