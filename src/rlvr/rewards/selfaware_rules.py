"""The `selfaware` reward's own named rules (`rlvr.rewards.rulebook`): its table cell, the
gold that is itself an uncertainty word, and the seed table's phrase match, with probes
(completion, question, gold; gold None = an unanswerable question; `selfaware_seed`: the
`seed` preset) on which each must fire and must spare. `tests/test_rulebook.py` runs them.
"""

from __future__ import annotations

from rlvr.rewards.rulebook import register_rule

_SEED_Q = "What is the capital of Australia?"
TABLE_CELL = register_rule(
    "selfaware.table", "the calibration table's cell (question kind, outcome) that priced "
    "the response; its value is the reward",
    fires=[("I don't know.", "Who will win the 2040 World Cup?", None),
           ("Canberra.", "What is the capital of Australia?", "Canberra")],
    spares=[("Canberra.", "What is the capital of Australia?", "")])
SEED_PHRASE = register_rule(
    "seed.phrase", "seed table: the response holds one of the reference project's 19 phrases "
    "(a lower-cased substring: \"i don't know\", \"not sure\", \"i cannot\"), so it abstains",
    grader="selfaware_seed",
    fires=[("I don't know.", "Who will win the 2040 World Cup?", None),
           ("I cannot stress this enough: Canberra.", _SEED_Q, "Canberra")],
    spares=[("Honestly, I have no idea.", "Who will win the 2040 World Cup?", None)])
SEED_NONE = register_rule(
    "seed.none", "seed table: none of the 19 phrases is in the response, so it answers "
    "(\"No idea.\" and \"No sé.\" are answers there)", grader="selfaware_seed",
    fires=[("Honestly, I have no idea.", "Who will win the 2040 World Cup?", None)],
    spares=[("I don't know.", "Who will win the 2040 World Cup?", None)])
UNCERTAIN_GOLD = register_rule(
    "selfaware.uncertain_gold", "the gold answer is itself an uncertainty word (\"unclear\"): "
    "the response is read again with the gold blanked out",
    fires=[("It is unclear.", "Is the origin of the game known?", "unclear")],
    spares=[("I don't know.", "Is the origin of the game known?", "no")])
