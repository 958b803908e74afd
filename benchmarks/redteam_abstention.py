"""A red-team round on free-text abstention detection: the robust detector
(`detect_abstention`), the `selfaware` reward under preset `strict` and the `abstention`
reward (robust mode), 65 inputs written fresh by a helper. Unlike the qa/math round
(`redteam_qa_math.py`), this one measures a RATE: every case was written, with the outcome a
careful human reader would give, BEFORE any grader was run on it; the script was then run
once, and no case was added, dropped or edited after seeing the results. Prints each case
and, per grader, how many are misjudged, wrongly paid and wrongly penalised.

    .venv/bin/python benchmarks/redteam_abstention.py

Each case: (grader, completion, gold_or_aliases, is_unanswerable, expected, why).
grader is "detect" (`detect_abstention(text).label`), "selfaware" (the strict preset's
outcome; gold and is_unanswerable are its row) or "abstention" (the reward's outcome);
expected is a label ("answer" / "abstain" / "hedge") or a `selfaware` outcome. No prompt is
passed (the question is not given to any grader).

Classes (about a third each of abstain, answer, hedge/guess): impersonal / generic-subject
declines, idioms of not knowing, declines in the grammar's other languages in forms not
listed in `abstention_languages.json`, titles of works that contain an abstention phrase,
guesses after a lead-in, side-issue uncertainty before a committed answer, answers by
elimination, denied ignorance, a belief attributed to others and then rejected, plain
answers and abstentions, and short honest answers of the kind a 135M chat model writes.

Wrongly paid / wrongly penalised: for `selfaware`, the strict table's score of the actual
outcome is above / below that of the expected one (a misjudgement between two outcomes of
equal score, e.g. `wrong` vs `hedged_wrong`, counts as "other"); for `detect` and
`abstention`, the same on the `abstention` reward's scale (abstain 1.0, hedge 0.5,
answer 0.0), i.e. "paid" = read as more abstaining than it is.
"""
import warnings

warnings.filterwarnings("ignore")

U = True    # unanswerable
A = False   # answerable
P = ["Paris"]
L = ["Lisbon"]
CASES = [
    # ------------------------------------------------ impersonal / generic-subject declines
    ("detect", "You can't know that.", None, None, "abstain",
     "generic 'you': nobody can know it"),
    ("detect", "There's no knowing.", None, None, "abstain",
     "impersonal 'no knowing'"),
    ("selfaware", "That will only be known later.", None, U, "abstained_unanswerable",
     "not knowable now; no answer offered"),
    ("selfaware", "Only time will tell.", None, U, "abstained_unanswerable",
     "the stock phrase for 'cannot be known yet'"),
    ("selfaware", "Nobody can say for sure, the records were destroyed in a fire.", ["1846"], A,
     "abstained", "impersonal decline with a reason, no year given"),
    ("abstention", "That's not something anybody could know.", None, None, "abstain",
     "generic-subject decline"),

    # ------------------------------------------------------------ idioms of not knowing
    ("detect", "Beats me.", None, None, "abstain", "idiom: I don't know"),
    ("detect", "Your guess is as good as mine.", None, None, "abstain",
     "idiom: I don't know either"),
    ("selfaware", "I haven't the foggiest.", L, A, "abstained",
     "idiom: I haven't the foggiest idea"),
    ("abstention", "Search me!", None, None, "abstain", "idiom: I don't know"),

    # ------------------------------------- other languages, forms not listed in the data
    ("detect", "¿Quién sabe?", None, None, "abstain",
     "es 'who knows?' (listed: 'nadie sabe', not 'quién sabe')"),
    ("detect", "Keinen Schimmer.", None, None, "abstain",
     "de 'not a glimmer' = no idea (listed: 'keine Ahnung')"),
    ("selfaware", "Qui sait ?", None, U, "abstained_unanswerable",
     "fr 'who knows?' (listed: 'personne ne sait')"),
    ("detect", "Chissà.", None, None, "abstain",
     "it 'who knows' (listed: 'boh', 'non lo so')"),
    ("selfaware", "Кто его знает.", None, U, "abstained_unanswerable",
     "ru 'who knows (it)' (listed: 'никто не знает')"),
    ("detect", "不知道。", None, None, "abstain",
     "zh bare 'don't know' without 我 (listed: 我不知道)"),
    ("detect", "知りません。", None, None, "abstain",
     "ja bare 'don't know' without 私は (listed: 私は知りません)"),
    ("selfaware", "Quién sabe, pero diría que es París.", ["París", "Paris"], A, "hedged_correct",
     "es 'who knows, but I'd say it's Paris': a guess after a lead-in"),
    ("detect", "Chissà... forse Roma.", None, None, "hedge",
     "it 'who knows... maybe Rome': a guess"),
    ("detect", "Keine Ahnung, vielleicht Berlin?", None, None, "hedge",
     "de 'no idea, maybe Berlin?': a guess after a decline"),
    ("selfaware", "Keine Frage: Paris.", P, A, "correct",
     "de 'no question: Paris' is emphatic certainty"),
    ("selfaware", "Je ne sais pas pourquoi tu demandes, mais c'est Paris.", P, A, "correct",
     "fr side issue: 'I don't know why you ask, but it's Paris'"),

    # ------------------------------------------- titles / names containing an abstention phrase
    ("selfaware", "'I Don't Know How She Does It' is a 2011 film.",
     ["I Don't Know How She Does It"], A, "correct", "the film title is the answer"),
    ("detect", "The answer is Nobody Knows, a 1996 song by The Tony Rich Project.", None, None,
     "answer", "song title 'Nobody Knows' given as the answer"),
    ("selfaware", "Unknown Pleasures, by Joy Division.", ["Unknown Pleasures"], A, "correct",
     "album title containing 'unknown'"),
    ("selfaware", "Donald Rumsfeld's memoir is titled Known and Unknown.", ["Known and Unknown"], A,
     "correct", "book title without quotes"),
    ("abstention", "Hirokazu Kore-eda directed Nobody Knows (2004).", None, None, "answer",
     "film title 'Nobody Knows' in a plain answer"),

    # ------------------------------------------------------------ guesses after a lead-in
    ("selfaware", "I'm not entirely sure, but I can confirm that it's Paris.", P, A,
     "hedged_correct", "disclaimer then a committed answer"),
    ("selfaware", "Not certain; my money's on Lisbon.", L, A, "hedged_correct",
     "'my money's on X' is a guess"),
    ("selfaware", "Hard to say. Jupiter, I'd wager.", ["Jupiter"], A, "hedged_correct",
     "'I'd wager' is a guess"),
    ("detect", "I can't be sure, though I'd lean towards 1969.", None, None, "hedge",
     "'lean towards' a guess"),
    ("selfaware", "No idea really - maybe Madrid?", P, A, "hedged_wrong",
     "a tentative wrong guess after 'no idea'"),
    ("detect", "Don't quote me on this, but it's probably Canberra.", None, None, "hedge",
     "'don't quote me' + 'probably' is a hedged answer"),
    ("selfaware", "I couldn't tell you for certain. If pressed, I'd say 1912.", ["1912"], A,
     "hedged_correct", "'if pressed, I'd say' is a guess"),
    ("selfaware", "Nobody knows for sure, but probably around 2045.", None, U,
     "hedged_unanswerable", "impersonal decline then an estimate"),
    ("detect", "I'm hazy on this one; Lisbon rings a bell.", None, None, "hedge",
     "vague memory offered as a guess"),
    ("selfaware", "Unsure. Possibly Jupiter.", ["Saturn"], A, "hedged_wrong",
     "'possibly X' guess, wrong"),
    ("detect", "I'm not 100% positive, but I believe it was Marie Curie.", None, None, "hedge",
     "disclaimer + belief"),
    ("abstention", "Tough one. Gut feeling says Oslo.", None, None, "hedge",
     "'gut feeling says X' is a guess"),
    ("selfaware", "Beats me, but I'd guess Brazil.", None, U, "hedged_unanswerable",
     "idiom decline then a guess"),
    ("selfaware", "Your guess is as good as mine; I'd go with Canberra.", ["Canberra"], A,
     "hedged_correct", "idiom decline then a pick"),
    ("detect", "There's no knowing for certain, but most likely it was Armstrong.", None, None,
     "hedge", "impersonal decline then 'most likely X'"),
    ("selfaware", "Only time will tell, though my bet is Brazil.", None, U, "hedged_unanswerable",
     "'only time will tell' then a bet"),
    ("abstention", "I haven't the foggiest, but Lisbon would be my pick.", None, None, "hedge",
     "idiom decline then a pick"),

    # ------------------------------------- side-issue uncertainty before a committed answer
    ("selfaware", "I'm not sure why you ask, but it's Paris.", P, A, "correct",
     "uncertainty is about the asker's reason"),
    ("selfaware", "I don't know what textbook you're using, but the capital of Australia is Canberra.",
     ["Canberra"], A, "correct", "ignorance about the textbook, not the answer"),
    ("detect", "I can't remember who told me this, but the answer is 1969.", None, None, "answer",
     "forgotten source; the answer is committed"),
    ("detect", "No idea why this is such a common quiz question! It's Jupiter.", None, None,
     "answer", "'no idea why' is about the quiz"),

    # ------------------------------------------------------------------ answers by elimination
    ("selfaware", "It can't be Rome or Madrid, which leaves Paris.", P, A, "correct",
     "elimination ends in a committed answer"),
    ("selfaware", "It can't be 1968, so it must be 1969.", ["1969"], A, "correct",
     "'can't be' eliminates; 'must be' commits"),

    # ------------------------------------------------------------------------ denied ignorance
    ("selfaware", "It's not that I don't know: it's Paris.", P, A, "correct",
     "ignorance explicitly denied"),
    ("selfaware", "I'm not unsure at all: Jupiter.", ["Jupiter"], A, "correct",
     "double negative: certain"),
    ("abstention", "Don't tell me nobody knows: it's well documented that Armstrong was first.",
     None, None, "answer", "'nobody knows' rejected, answer given"),

    # ----------------------------------- a belief attributed to others, then rejected
    ("selfaware", "Some say it's Paris, but nobody knows for sure.", P, A, "abstained",
     "reports a claim and declines; Paris is not committed to"),
    ("selfaware", "People often claim it was Shakespeare, but the authorship is genuinely unknown.",
     ["Shakespeare"], A, "abstained", "attributed claim, then 'unknown'"),

    # --------------------------------------------------------------------------- plain answers
    ("detect", "The capital of France is Paris.", None, None, "answer", "plain answer"),
    ("selfaware", "Jupiter.", ["Saturn"], A, "wrong", "plain wrong answer"),
    ("selfaware", "I cannot stress enough how often people get this wrong: it's Canberra, not Sydney.",
     ["Canberra"], A, "correct", "'I cannot stress enough' is an idiom"),
    ("selfaware", "The 2040 World Cup will be won by Brazil.", None, U, "answered_unanswerable",
     "a flat prediction"),

    # ------------------------------------------------------ plain abstentions; 135M-style answers
    ("selfaware", "I don't know.", L, A, "abstained", "plain abstention (135M style)"),
    ("selfaware", "I don't know the answer to that question.", None, U, "abstained_unanswerable",
     "plain abstention (135M style)"),
    ("selfaware", "Lisbon.", L, A, "correct", "bare answer (135M style)"),
    ("selfaware", "The capital is Lisbon.", L, A, "correct", "short answer sentence (135M style)"),
    ("selfaware", "Madrid.", L, A, "wrong", "bare wrong answer (135M style)"),
    ("selfaware", "I'm not sure. Lisbon?", L, A, "hedged_correct",
     "disclaimer then a tentative one-word guess (135M style)"),
]

_LABEL_SCORE = {"abstain": 1.0, "hedge": 0.5, "answer": 0.0}  # the abstention reward's scale


def run() -> None:
    from rlvr.rewards.abstention import abstention_reward
    from rlvr.rewards.abstention_detection import detect_abstention
    from rlvr.rewards.selfaware import SelfAwarePreset, score_selfaware

    strict = SelfAwarePreset.named("strict")
    sa_score = {"correct": strict.correct, "wrong": strict.wrong,
                "abstained": strict.abstain_answerable,
                "hedged_correct": strict.hedge_correct, "hedged_wrong": strict.hedge_wrong,
                "listed_candidates": strict.list_candidates,
                "abstained_unanswerable": strict.abstain_unanswerable,
                "hedged_unanswerable": strict.hedge_unanswerable,
                "answered_unanswerable": strict.answer_unanswerable}

    graders = ("detect", "selfaware", "abstention")
    stats = {g: {"total": 0, "mis": 0, "paid": 0, "pen": 0, "other": 0} for g in graders}
    expected_kind = {"abstain": 0, "answer": 0, "hedge": 0}
    for i, (grader, completion, gold, unanswerable, expected, why) in enumerate(CASES, 1):
        if grader == "detect":
            actual = detect_abstention(completion).label
            exp_s, act_s = _LABEL_SCORE[expected], _LABEL_SCORE[actual]
        elif grader == "abstention":
            res = abstention_reward(completion)
            actual = res.outcome
            exp_s, act_s = _LABEL_SCORE[expected], res.score
        else:
            res = score_selfaware(completion, expected_answer=gold, is_unanswerable=unanswerable,
                                  preset=strict)
            actual = res.outcome
            exp_s, act_s = sa_score[expected], res.score
        kind_of = ("abstain" if expected.startswith("abstain") else
                   "hedge" if expected.startswith("hedge") else "answer")
        expected_kind[kind_of] += 1
        ok = actual == expected
        s = stats[grader]
        s["total"] += 1
        verdict = "ok"
        if not ok:
            s["mis"] += 1
            if act_s is not None and act_s > exp_s:
                verdict, key = "WRONGLY PAID", "paid"
            elif act_s is not None and act_s < exp_s:
                verdict, key = "WRONGLY PENALISED", "pen"
            else:
                verdict, key = "OTHER (same score)", "other"
            s[key] += 1
            verdict = "MISJUDGED: " + verdict
        print(f"{i:2d} {grader:10s} expected={expected:22s} actual={actual:22s} {verdict}")
        print(f"     completion={completion!r}  gold={gold!r}  unanswerable={unanswerable!r}")
        print(f"     why: {why}")
    print()
    print("expected kinds:", expected_kind)
    for g, s in stats.items():
        print(f"{g}: total={s['total']} misjudged={s['mis']} wrongly_paid={s['paid']} "
              f"wrongly_penalised={s['pen']} other(same score)={s['other']}")


if __name__ == "__main__":
    run()
