"""The named grader rules (`rlvr.rewards.rulebook`): every rule's probes fire and spare as
registered, every verdict's `why` resolves to registered rules, and the registry refuses
malformed rules."""

from __future__ import annotations

import pytest

from rlvr.errors import RlvrError
from rlvr.rewards import get_reward
from rlvr.rewards.rulebook import (RULES, Evidence, explain_lines, get_rule, note, quiet,
                                   register_rule, tracing, why)

STRICT = get_reward("selfaware").params("strict")


def _verdict(probe, grader: str = "selfaware"):
    """The verdict of one probe (rulebook's module docstring says how each grader reads it)."""
    completion, question, gold = probe
    core = get_reward({"selfaware_seed": "selfaware", "abstention_head": "abstention"}.get(
        grader, grader)).core
    if grader in ("selfaware", "selfaware_seed"):
        params = STRICT if grader == "selfaware" else get_reward("selfaware").params("seed")
        return core(completion, expected_answer=gold, is_unanswerable=gold is None,
                    prompt=question, **params)
    if grader == "qa":  # the question slot holds the mode
        return core(completion, aliases=gold, mode=question or "contains")
    if grader == "math":
        return core(completion, solution=gold)
    if grader == "gsm8k_correctness":  # the question slot: "fallback" turns it on
        return core(completion, final_answer=gold, fallback=question == "fallback")
    if grader == "abstention":
        return core(completion, prompt=question)
    if grader == "abstention_head":  # gold names a stub head: "declining" or "answering"
        return core(completion, prompt=question, head=_stub_head(gold))
    if grader == "code":
        return core(completion, **gold)
    raise AssertionError(f"no probe runner for grader {grader!r}")


def _stub_head(kind: str) -> str:
    """The path of a head on the tiny test model that always (intercept +10) or never
    (-10) declines, registered with its reader (rlvr.rewards.abstention_head)."""
    import tempfile
    from pathlib import Path

    from tiny_models import tiny_chat_llama

    from rlvr.rewards.abstention_head import _READERS, AbstentionHead, HeadReader

    path = Path(tempfile.gettempdir()) / f"rlvr-test-head-{kind}.json"
    key = str(path.resolve())
    if key not in _READERS:
        model, tokenizer = tiny_chat_llama()
        size = model.config.hidden_size
        head = AbstentionHead(None, 1, [0.0] * size, [1.0] * size, [0.0] * size,
                              10.0 if kind == "declining" else -10.0)
        head.save(path)
        _READERS[key] = HeadReader(head, model, tokenizer)
    return key


def _ids(probe, grader: str = "selfaware") -> list[str]:
    return [item["rule"] for item in _verdict(probe, grader).details["why"]]


def test_rules_are_registered_by_the_graders():
    # the detector, the answer readers and the calibration table register theirs on import
    families = {rule.family for rule in RULES.values()}
    assert {"decline", "discount", "side_issue", "commit", "premise", "candidates", "forms",
            "match", "selfaware", "qa", "math", "gsm8k", "code"} <= families


@pytest.mark.parametrize("grader", ["selfaware", "qa", "math", "gsm8k_correctness",
                                    "abstention", "code"])
def test_every_grader_verdict_carries_a_why_that_resolves(grader):
    probe = {"selfaware": ("I don't know.", "Who will win the 2040 World Cup?", None),
             "qa": ("It is not Paris.", None, ["Paris"]),
             "math": ("$\\boxed{4}$", None, "$4$"),
             "gsm8k_correctness": ("#### 5", None, "5"),
             "abstention": ("I don't know.", "Who will win the 2040 World Cup?", None),
             "code": ("def double(x):\n    return x\n", None,
                      {"test": "def check(f):\n    assert f(2) == 4\n",
                       "entry_point": "double"})}[grader]
    found = _verdict(probe, grader).details["why"]
    assert found and explain_lines(found)


@pytest.mark.parametrize("rule_id", sorted(RULES))
def test_every_rule_fires_on_its_examples_and_spares_its_near_misses(rule_id):
    rule = RULES[rule_id]
    assert rule.fires and rule.spares, f"{rule_id} needs both kinds of example"
    for probe in rule.fires:
        ids = _ids(probe, rule.grader)
        assert rule_id in ids, f"{rule_id} should fire on {probe}: {ids}"
    for probe in rule.spares:
        ids = _ids(probe, rule.grader)
        assert rule_id not in ids, f"{rule_id} should spare {probe}: {ids}"


def test_the_three_reported_verdicts_name_the_rule_that_decided_them():
    canberra = ("Canberra, I think. Or maybe Sydney.", "What is the capital of Australia?",
                "Canberra")
    brazil = ("Brazil, probably, but honestly there's no way to know.",
              "Who will win the 2040 World Cup?", None)
    best = ("It is named after George Best.", "Who is Belfast's airport named after?",
            "George Best")
    listed = _verdict(canberra)
    assert listed.outcome == "listed_candidates"
    assert listed.details["why"] == [
        {"rule": "decline.none", "read": ""}, {"rule": "match.word", "read": "canberra"},
        {"rule": "candidates.unit_list", "read": "",
         "value": ["canberra, i think.", "or maybe sydney."]},
        {"rule": "selfaware.table", "read": "answerable, listed_candidates", "value": -1.0}]
    assert [w["rule"] for w in _verdict(brazil).details["why"]] == ["decline.phrase",
                                                                    "selfaware.table"]
    assert _verdict(brazil).details["why"][0]["read"] == "there's no way to know"
    # reported as a wrong verdict; EVOUNA's human labels showed a name after "after" is
    # stated, so the bound now reads only numbers and dates and the answer is paid
    assert _verdict(best).details["why"][1] == {"rule": "match.word", "read": "george best"}
    assert _verdict(best).outcome == "correct"


def test_the_table_cell_is_last_and_carries_the_reward():
    # strict: a hedge on an unanswerable question is priced -0.5
    result = _verdict(("I'm not sure, but it is Brazil.", "Who will win the 2040 World Cup?",
                       None))
    assert result.outcome == "hedged_unanswerable" and result.score == -0.5
    assert result.details["why"][-1] == {"rule": "selfaware.table",
                                         "read": "unanswerable, hedged_unanswerable",
                                         "value": -0.5}


def test_a_probe_of_the_gold_leaves_no_note():
    # "unclear" is an uncertainty word: the grader probes the gold with the detector; only
    # the response's own reading is evidence
    ids = _ids(("It is unclear.", "Is the origin of the game known?", "unclear"))
    assert ids.count("selfaware.uncertain_gold") == 1
    assert ids[-1] == "selfaware.table"


def test_explain_lines_resolve_every_id():
    lines = explain_lines(_verdict(("I don't know.", "Who will win the 2040 World Cup?",
                                    None)).details["why"])
    assert lines[0].startswith('decline.phrase "i don\'t know" -> abstain:en#1: a phrase that '
                               'declines')
    assert lines[1].startswith('selfaware.table "unanswerable, abstained_unanswerable" -> 1.0')
    with pytest.raises(RlvrError, match="unknown rule 'decline.nope'"):
        explain_lines([{"rule": "decline.nope", "read": ""}])


def test_notes_outside_a_trace_or_inside_quiet_go_nowhere():
    note("decline.phrase", "i don't know")  # no trace open: nothing happens
    with tracing() as trace:
        note("decline.phrase", "a")
        with quiet():
            note("decline.phrase", "b")
        with tracing() as inner:
            note("decline.phrase", "c")
        note("decline.phrase", "a")
    assert [e.read for e in trace] == ["a", "a"] and [e.read for e in inner] == ["c"]
    assert why(trace) == [{"rule": "decline.phrase", "read": "a"}]  # the repeat dropped
    with tracing(), pytest.raises(RlvrError, match="unknown rule"):
        note("decline.not_a_rule")


def test_the_registry_refuses_malformed_rules():
    with pytest.raises(RlvrError, match="family"):
        register_rule("phrase", "x", fires=[], spares=[])
    with pytest.raises(RlvrError, match="twice"):
        register_rule("decline.phrase", "x", fires=[], spares=[])
    with pytest.raises(RlvrError, match="decides"):
        register_rule("test.empty", " ", fires=[], spares=[])
    assert "test.empty" not in RULES
    assert get_rule("decline.phrase").family == "decline"
    assert Evidence("x.y", "s", ("a", "b")).as_dict() == {"rule": "x.y", "read": "s",
                                                         "value": ["a", "b"]}


def test_score_explain_prints_and_writes_the_rules(tmp_path, capsys):
    import json

    from rlvr.cli import main

    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"completion": "Sometime after 1969.",
                                "expected_answer": "1969", "is_unanswerable": False,
                                "prompt": "When did humans first land on the Moon?"}) + "\n"
                    + json.dumps({"completion": "not read: --limit 1"}) + "\n")
    out = tmp_path / "out.jsonl"
    assert main(["score", "--reward", "selfaware", "--input", str(rows), "--limit", "1",
                 "--explain", "--output", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"{rows}:1: wrong (reward -1.00)" in printed
    assert 'forms.bound_before "after 1969": a value after a bound' in printed
    assert [w["rule"] for w in json.loads(out.read_text())["why"]] == [
        "decline.none", "forms.bound_before", "match.none", "selfaware.table"]
    # a reward that names no rules yet says so rather than printing nothing
    gsm = tmp_path / "gsm.jsonl"
    gsm.write_text(json.dumps({"completion": "#### 5"}) + "\n")
    assert main(["score", "--reward", "gsm8k_format", "--input", str(gsm), "--explain"]) == 0
    assert "records no named rules" in capsys.readouterr().out


def test_trl_reward_logs_the_rule_ids_for_the_rollout_log():
    from rlvr.rewards import make_trl_reward
    from rlvr.train.rollouts import rollout_rows

    logged = {}
    func = make_trl_reward("selfaware", "strict", explain=True)
    scores = func(["I don't know.", "Canberra."], expected_answer=[None, "Canberra"],
                  is_unanswerable=[True, False],
                  prompts=["Who will win the 2040 World Cup?", "What is the capital of Australia?"],
                  log_extra=lambda name, values: logged.__setitem__(name, values))
    assert scores == [1.0, 1.0]
    assert logged["why/selfaware"] == ["decline.phrase > selfaware.table",
                                       "decline.none > match.word > selfaware.table"]
    rows = rollout_rows({"prompt": ["a", "b"], "completion": ["I don't know.", "Canberra."],
                         "advantages": [0.0, 0.0], "extra": {"outcome/selfaware": ["x", "y"],
                                                             "why/selfaware": logged["why/selfaware"]}},
                        step=1)
    assert rows[1]["why"] == {"selfaware": "decline.none > match.word > selfaware.table"}
    # without explain nothing more is logged, and the rollout rows have no `why`
    logged.clear()
    make_trl_reward("selfaware", "strict")(["Canberra."], expected_answer=["Canberra"],
                                           is_unanswerable=[False],
                                           log_extra=lambda n, v: logged.__setitem__(n, v))
    assert list(logged) == ["outcome/selfaware"]
    assert "why" not in rollout_rows({"prompt": ["a"], "completion": ["b"], "advantages": [0.0],
                                      "extra": {"outcome/selfaware": ["x"]}}, step=1)[0]


def test_the_question_words_live_in_one_place():
    # the four readers of "does this sentence ask?" (the detector's restatements, the
    # premises, the matcher's asked-only gold, the candidate lists' echoed questions) read
    # rlvr.rewards.vocabulary; no other grader module spells the auxiliaries out
    from pathlib import Path

    import rlvr.rewards as rewards
    from rlvr.rewards.vocabulary import OPENS_QUESTION, OPENS_QUESTION_ANY

    root = Path(rewards.__file__).parent
    spelled = [p.relative_to(root).as_posix() for p in root.rglob("*.py")
               if "could|do|does|did" in p.read_text(encoding="utf-8")]
    assert spelled == []
    # the readers read folded, lower-cased text
    for asks in ("is it paris?", "what about paris?", "wasn't it rome?", "- who knows?"):
        assert OPENS_QUESTION.match(asks), asks
    for says in ("paris?", "the answer is paris?", "wasnt it", "island?"):
        assert not OPENS_QUESTION.match(says), says
    assert OPENS_QUESTION_ANY.match("¿dónde está?") and not OPENS_QUESTION.match("dónde está?")


def test_nothing_outside_the_answer_readers_reaches_past_their_entry_point():
    # the rest of rlvr reads answers through `rlvr.rewards.answers` only, so the readers'
    # modules can be rearranged behind it
    import ast
    from pathlib import Path

    import rlvr

    root = Path(rlvr.__file__).parent
    package = root / "rewards" / "answers"
    reaching = []
    for path in root.rglob("*.py"):
        if package in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([node.module] if isinstance(node, ast.ImportFrom) and node.module
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            reaching += [f"{path.relative_to(root)}: {n}" for n in names
                         if n.startswith("rlvr.rewards.answers.")]
    assert reaching == []


def test_every_abstention_pattern_has_an_id_and_a_fired_one_is_named():
    from rlvr.rewards.abstention_detection import ROBUST_PATTERNS, robust_patterns
    from rlvr.rewards.abstention_detection.compiler import compile_kind

    table = ROBUST_PATTERNS.pattern_table()
    kinds = ("abstain", "scoped", "veto", "commit", "guess", "cues")
    assert len(table) == sum(len(getattr(ROBUST_PATTERNS, k)) for k in kinds)  # ids unique
    assert table["abstain:en#1"] == ROBUST_PATTERNS.abstain[0]
    assert any(i.startswith("abstain:grammar#") for i in table)
    assert any(i.startswith("abstain:es#") for i in table)
    # the id named in a verdict is a pattern that, alone, matches the span it read
    for text, question in [("There's no way to know.", "Who will win?"),
                           ("No lo sé.", "¿Quién ganará?"),
                           ("I don't know why you ask. Canberra.", "What is the capital?"),
                           ("My best guess is Canberra.", "What is the capital?"),
                           ("I cannot stress this enough: Canberra.", "What is the capital?")]:
        result = _verdict((text, question, None))
        named = [w for w in result.details["why"] if isinstance(w.get("value"), str)
                 and w["value"] in table]
        assert named, (text, result.details["why"])
        for item in named:
            regex = compile_kind((table[item["value"]],))
            assert regex.search(text.lower().replace("\u2019", "'")), item
    # a config's own patterns get their own ids
    extended = robust_patterns({"abstain": [r"my crystal ball is cloudy"]})
    assert extended.pattern_ids("abstain")[-1] == "abstain:config#1"
    spec = get_reward("selfaware")
    why = spec.core("My crystal ball is cloudy.", expected_answer=None, is_unanswerable=True,
                    prompt="Who will win?",
                    **{**STRICT, "extra_patterns": {"abstain": ["my crystal ball is cloudy"]}})
    assert {"rule": "decline.phrase", "read": "my crystal ball is cloudy",
            "value": "abstain:config#1"} in why.details["why"]


def test_score_explain_describes_a_rule_once_and_shows_why_a_row_has_no_score(tmp_path, capsys):
    import json

    from rlvr.cli import main

    rows = tmp_path / "rows.jsonl"
    rows.write_text("".join(json.dumps({"completion": c, "expected_answer": "Canberra",
                                        "is_unanswerable": False,
                                        "prompt": "What is the capital of Australia?"}) + "\n"
                            for c in ("Sydney.", "Perth.")))
    assert main(["score", "--reward", "selfaware", "--input", str(rows), "--explain"]) == 0
    printed = capsys.readouterr().out
    assert printed.count("match.none -> ['canberra']: no gold alias is given") == 1
    assert printed.count("    match.none -> ['canberra']\n") == 1  # the second row: id only
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"completion": "#### 4", "final_answer": "four or five"}) + "\n")
    assert main(["score", "--reward", "gsm8k_correctness", "--input", str(bad), "--explain"]) == 0
    assert "(no rule decided: gold 'four or five' is not one number)" in capsys.readouterr().out
