"""The `qa` reward's own named rules (`rlvr.rewards.rulebook`): what each of its steps decides,
with probes (completion, mode, aliases; mode None for `contains`) on which it must fire
and must spare. `qa` notes them by these ids; `tests/test_rulebook.py` runs the probes.
"""

from __future__ import annotations

from rlvr.rewards.rulebook import register_rule

_P = ["Paris"]
TWO_TAGS = register_rule(
    "qa.two_answer_tags", "two `<answer>` tags with different contents are two answers: "
    "`listed_candidates`", grader="qa",
    fires=[("<answer>Paris</answer> <answer>Lyon</answer>", None, _P)],
    spares=[("<answer>Paris</answer>", None, _P)])
LITERAL = register_rule(
    "qa.literal_alias", "an alias that normalises to nothing (\"A\", \"The The\") given as "
    "the whole answer, as written", grader="qa",
    fires=[("The The", None, ["The The"])], spares=[("The Who", None, ["The The"])])
CAPITAL = register_rule(
    "qa.capital_name", "a short name as written with its capitals, standing alone in a "
    "sentence (\"my favourite band is The The\")", grader="qa",
    fires=[("My favourite band is The The.", None, ["The The"])],
    spares=[("My favourite band is the the.", None, ["The The"])])
NO_MATCH = register_rule(
    "qa.no_match", "no alias matches the answer; read = the answer as normalised (SQuAD), "
    "value = the aliases as normalised", grader="qa",
    fires=[("Lyon.", None, _P), ("paris, france", "exact", _P)],
    spares=[("Paris.", None, _P)])
EMPTY = register_rule(
    "qa.empty_answer", "nothing is left of the answer after SQuAD normalisation", grader="qa",
    fires=[("!!!", None, _P)], spares=[("Paris!!!", None, _P)])
EXACT = register_rule(
    "qa.exact_match", "exact mode: the normalised answer equals a normalised alias, with "
    "the same name symbols", grader="qa",
    fires=[("The Paris.", "exact", _P)], spares=[("It is Paris.", "exact", _P)])
SAME_NUMBER = register_rule(
    "qa.exact_same_number", "exact mode: the answer and an alias each state one number, of "
    "equal value (\"2.50\" and \"5/2\")", grader="qa",
    fires=[("2.50", "exact", ["5/2"])], spares=[("2.5 or 3", "exact", ["5/2"])])
TITLE_DROPPED = register_rule(
    "qa.exact_title_dropped", "exact mode: a title or rank before a name of two or more "
    "words is dropped (\"Gen. George S. Patton\")", grader="qa",
    fires=[("Gen. George S. Patton", "exact", ["George S. Patton"])],
    spares=[("St. Louis", "exact", ["Louis"])])
FRAME_DROPPED = register_rule(
    "qa.exact_frame_dropped", "exact mode: an answer frame (\"The answer is\", \"It's\") "
    "before the answer is dropped", grader="qa",
    fires=[("The answer is Paris.", "exact", _P)], spares=[("Paris is the answer.", "exact", _P)])
CONTAINS = register_rule(
    "qa.contains", "contains mode: the alias is inside the normalised answer on word "
    "boundaries and, where the answer shows it as written, affirmed", grader="qa",
    fires=[("It is Paris.", None, _P)], spares=[("It is Parisian.", None, _P)])
NEGATED = register_rule(
    "qa.negated_before", "contains mode: a negation word right before the alias (\"not "
    "Paris\") keeps that occurrence from counting", grader="qa",
    fires=[("Not Washington DC.", None, ["Washington, D.C."])],
    spares=[("Maybe Washington DC.", None, ["Washington, D.C."])])
LOOSENED = register_rule(
    "qa.loosened", "nothing matched as written: answer and aliases read again without accents "
    "and hyphens (\"Rio Grande\" for \"Río Grande\")", grader="qa",
    fires=[("Rio Grande", None, ["Río Grande"])], spares=[("Río Grande", None, ["Río Grande"])])
NUMBERS_OFFERED = register_rule(
    "qa.numbers_offered", "contains mode: a numeric alias offered with another number as its "
    "alternative (\"4 or 5\", \"eight or nine\", \"it might have been 40\", a run \"1 2 3 4 "
    "5\"); a range, \"or more\" and a percent of the same quantity are no alternative",
    grader="qa",
    fires=[("4 or 5", None, ["4"]), ("3 4 5 6 7", None, ["5"]), ("eight or nine", None, ["8"])],
    spares=[("In 1990, 5 people.", None, ["5"]), ("It was built 1994-1998.", None, ["1998"]),
            ("0.05 or 5%", None, ["5%"])])
FINER_DATE = register_rule(
    "qa.exact_finer_date", "exact mode: one full date whose year is a bare-year gold (\"26 June "
    "1997\" for \"1997\") gives it", grader="qa",
    fires=[("26 June 1997", "exact", ["1997"])],
    spares=[("26 June 1998", "exact", ["1997"]), ("1997 or 1998", "exact", ["1997"])])
FULL_NAME = register_rule(
    "qa.exact_full_name", "exact mode: a first name before a one-word surname gold (\"Elvis "
    "Presley\" for \"Presley\") gives it", grader="qa",
    fires=[("Elvis Presley", "exact", ["Presley"])],
    spares=[("Presley Smith", "exact", ["Presley"]), ("Elvis Presley Jr", "exact", ["Presley"]),
            ("Gen. Patton", "exact", ["Patton"])])
BARE_LIST = register_rule(
    "qa.bare_list", "contains mode: a response that is nothing but a list of short items "
    "(behind at most a frame such as \"I think it's either\"), the alias and a rival among "
    "them, offers them all (`answers.bare_lists`); a list inside prose is paid",
    grader="qa",
    fires=[("Paris, London, Berlin, Madrid, Rome", None, ["Rome"]),
           ("I think it's either Mercury or Venus.", None, ["Mercury"]),
           ("Between 1939 and 1945.", None, ["1945"])],
    spares=[("Paris, France", None, ["Paris"]),
            ("The Central Powers included Germany, Austria-Hungary and Bulgaria.", None,
             ["Germany"]),
            ("Solidus, or slash.", None, ["Solidus"])])
ALIAS_FORM = register_rule(
    "qa.alias_form", "the answer matched another form of a gold alias: a name the dataset's "
    "writing hides (`answers.aliases`: qualifier, \"X or Y\", inverted name, title, "
    "descriptor, middle name, number in words, currency sign, leading preposition, "
    "possessive) or another spelling (`answers.spellings`: dates, initials, ordinals)",
    grader="qa",
    fires=[("Claudia Wells played her.", None, ["Claudia Grace Wells"]),
           ("It was Matthew Perry.", None, ["Perry, Matthew"])],
    spares=[("Claudia Grace Wells played her.", None, ["Claudia Grace Wells"])])
WORDS_NEAR = register_rule(
    "qa.words_near", "contains mode, nothing matched as written: every content word of an "
    "alias of two or more (numbers 1-10 in words or as ordinals read as digits), in any "
    "order, within the alias's length plus four words of one sentence without a negation "
    "(\"started in 1881 and completed in 1885\" for \"between 1881 and 1885\")",
    grader="qa",
    fires=[("It began in 1881 and was completed in 1885.", None, ["between 1881 and 1885"]),
           ("She turns in the season 4 finale.", None, ["season four"])],
    spares=[("It was not started in 1881 or finished in 1885.", None,
             ["between 1881 and 1885"]),
            ("Season 2 ended. Episode four aired later.", None, ["season four"])])
OTHER_DATE = register_rule(
    "qa.other_date", "contains mode: a year alias written only inside a full date that is "
    "none of the gold's full dates (\"released on November 8, 2013\" for \"November 27, "
    "2013\" / \"2013\") is the wrong date", grader="qa",
    fires=[("It came out on November 8, 2013.", None, ["November 27, 2013", "2013"])],
    spares=[("It came out in 2013.", None, ["November 27, 2013", "2013"]),
            ("It came out on November 8, 2013.", None, ["2013"])])
TABLE = register_rule(
    "qa.table", "the `qa` reward's value for the outcome (1.0 for a gold alias given, else "
    "0.0); read = the outcome", grader="qa",
    fires=[("It is Paris.", None, ["Paris"]), ("Lyon.", None, ["Paris"])],
    spares=[("Paris.", None, [""])])
