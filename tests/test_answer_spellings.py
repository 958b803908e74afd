"""Other spellings of one gold (`rlvr.rewards.answers.spellings`): a table of rows through
`selfaware` and `qa`, then properties: every common format of a full date matches its gold
and no other date does, initials match however they are spaced, and a spelling never
survives a denial; the short title words of places ("Mt.", "St.", "Ft.") are the words
they stand for."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rlvr.rewards.answers.spellings import date_spellings, full_date, name_spellings
from rlvr.rewards.qa import qa_reward
from rlvr.rewards.selfaware import STRICT_PRESET, selfaware_reward


def sa(text, gold):
    return selfaware_reward(text, expected_answer=gold, is_unanswerable=False, **STRICT_PRESET).outcome


ROWS = [
    # (response, gold aliases, selfaware outcome)
    ("It landed on the 20th of July 1969.", ["July 20, 1969"], "correct"),
    ("20/07/1969.", ["July 20, 1969"], "correct"),
    ("07/20/1969", ["20 July 1969"], "correct"),
    ("Adopted on 1776-07-04.", ["July 4, 1776"], "correct"),
    ("July 21, 1969.", ["July 20, 1969"], "wrong"),
    ("It was not July 20, 1969.", ["July 20, 1969"], "wrong"),
    ("J.R.R. Tolkien.", ["J. R. R. Tolkien"], "correct"),
    ("JRR Tolkien wrote it.", ["J. R. R. Tolkien"], "correct"),
    ("U. Bolt, 9.58 s, Berlin 2009.", ["Usain Bolt"], "correct"),
    ("Scientific & Cultural Organisation", ["Scientific and Cultural Organization"], "correct"),
    ("Columbia.", ["Colombia"], "wrong"),  # one letter apart: never a spelling
]


@pytest.mark.parametrize("text, gold, outcome", ROWS)
def test_rows(text, gold, outcome):
    assert sa(text, gold) == outcome


def test_what_is_a_full_date():
    assert full_date("July 20, 1969") == (1969, 7, 20)
    assert full_date("the 4th of July 1776") == (1776, 7, 4)
    assert full_date("1969-07-20") == (1969, 7, 20)
    assert full_date("July 1969") is None  # no day
    assert full_date("20/07/1969") is None  # a slashed gold is ambiguous: not expanded
    assert full_date("July 32, 1969") is None


dates = st.dates(min_value=datetime.date(1000, 1, 1), max_value=datetime.date(2099, 12, 31))


@settings(max_examples=60, deadline=None)
@given(dates, st.data())
def test_every_spelling_of_a_date_matches_it_and_no_other_date_does(day, data):
    gold = day.strftime("%B ") + f"{day.day}, {day.year}"
    spelling = data.draw(st.sampled_from(date_spellings(gold)))
    assert sa(f"It happened on {spelling}.", [gold]) == "correct", spelling
    assert qa_reward(f"It happened on {spelling}.", aliases=[gold], mode="contains").score == 1.0
    other = day + datetime.timedelta(days=data.draw(st.sampled_from([1, -1, 366])))
    if other.year >= 1000 and other.year <= 2099:
        other_text = other.strftime("%Y-%m-%d")
        assert sa(f"It happened on {other_text}.", [gold]) != "correct", (gold, other_text)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from("ABCDEGHJKLMNPRST"), min_size=2, max_size=3),
       st.sampled_from(["Tolkien", "Rowling", "Wells"]), st.data())
def test_initials_match_however_they_are_spaced(letters, surname, data):
    gold = ". ".join(letters) + ". " + surname
    spelling = data.draw(st.sampled_from(name_spellings(gold)))
    assert sa(spelling + ".", [gold]) == "correct", spelling
    assert qa_reward(spelling, aliases=[gold], mode="exact").score == 1.0, spelling
    assert sa(f"It was not {spelling}.", [gold]) != "correct", spelling


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 99999), st.sampled_from([("km", "metres", 1000), ("kg", "grams", 1000),
                                               ("hours", "minutes", 60)]))
def test_a_quantity_in_another_unit_of_its_dimension_matches(amount, units):
    big, small, factor = units
    gold = f"{amount / 1000:g} {big}" if factor == 1000 else f"{amount} {big}"
    same = amount if factor == 1000 else amount * 60
    assert sa(f"{same:,} {small}.", [gold]) == "correct", (gold, same)
    assert sa(f"{same + 1:,} {small}.", [gold]) != "correct", (gold, same + 1)
    assert sa(f"It is not {same:,} {small}.", [gold]) != "correct"


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([("Jane Austen", "Austen"), ("Neil Armstrong", "Armstrong"),
                        ("Marie Curie", "Curie"), ("Leonardo da Vinci", "Vinci")]),
       st.sampled_from(["Who wrote it?", "Who was first?", "Which scientist found it?"]))
def test_a_surname_alone_answers_a_question_about_a_person(pair, question):
    gold, last = pair
    def outcome(text, q):
        return selfaware_reward(text, expected_answer=[gold], is_unanswerable=False, prompt=q,
                                **STRICT_PRESET).outcome
    assert outcome(f"{last}.", question) == "correct"
    assert outcome(f"It was not {last}.", question) != "correct"
    # another kind of question: a dropped word is never another spelling ("York")
    assert outcome(f"{last}.", "Which city is it?") != "correct"


def test_the_seed_table_reads_the_aliases_as_given():
    from rlvr.rewards.selfaware import PRESETS
    seed = selfaware_reward("20/07/1969", expected_answer=["July 20, 1969"], is_unanswerable=False,
                            **PRESETS["seed"])
    assert seed.outcome != "correct"  # the reference project's matcher: no spellings


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["Jane Austen", "Neil Armstrong", "Marie Curie"]),
       st.sampled_from(["It was definitely not {g}; it was Charlotte Bronte.",
                        "I don't think it was {g}.", "{g} is wrong.", "Was it {g}? No."]))
def test_a_denied_full_name_never_pays_through_a_shorter_spelling(gold, frame):
    text = frame.format(g=gold)
    r = selfaware_reward(text, expected_answer=[gold], is_unanswerable=False,
                         prompt="Who was it?", **STRICT_PRESET)
    assert r.outcome not in ("correct", "hedged_correct"), text


@settings(max_examples=40, deadline=None)
@given(st.integers(1100, 2099).filter(lambda y: y % 100 >= 10))
def test_a_year_said_as_two_numbers(year):
    from rlvr.rewards.answers.forms import word_numbers

    teens = ("ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen "
             "nineteen").split()
    tens = {2: "twenty", 3: "thirty", 4: "forty", 5: "fifty", 6: "sixty", 7: "seventy",
            8: "eighty", 9: "ninety"}
    units = "_ one two three four five six seven eight nine".split()
    century = "twenty" if year // 100 == 20 else teens[year // 100 - 10]
    rest = year % 100
    spoken = teens[rest - 10] if rest < 20 else tens[rest // 10] + (
        "-" + units[rest % 10] if rest % 10 else "")
    text = f"It ended in {century} {spoken}."
    assert [w[0] for w in word_numbers(text.lower())] == [year], text
    assert sa(text, [str(year)]) == "correct", text
    assert sa(text, [str(year + 1)]) != "correct", text


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 39), st.sampled_from(["Louis", "Henry", "Pope Pius"]), st.data())
def test_a_regnal_number_in_each_form(n, name, data):
    from rlvr.rewards.answers.spellings import _roman, ordinal_spellings

    gold = f"{name} {_roman(n)}"
    spelling = data.draw(st.sampled_from(ordinal_spellings(gold)))
    assert sa(f"It was {spelling}.", [gold]) == "correct", (gold, spelling)
    other = f"{name} {_roman(n + 1)}"
    assert sa(f"It was {other}.", [gold]) != "correct"


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["The USA.", "It is in the U.S.A.", "That would be NYC."]))
def test_initials_of_a_long_name(text):
    gold = ["New York City"] if "NYC" in text else ["United States of America"]
    assert sa(text, gold) == "correct"
    assert qa_reward(text, aliases=gold, mode="contains").score == 1.0
    # never a common word ("WHO") nor a two-word name ("JA" for Jane Austen)
    assert qa_reward("Who knows?", aliases=["World Health Organization"], mode="contains").score == 0
    assert qa_reward("It was JA.", aliases=["Jane Austen"], mode="contains").score == 0


@pytest.mark.parametrize("written,gold", [("Mt. Everest", "Mount Everest"),
                                          ("Mt Everest", "Mount Everest"),
                                          ("Saint Louis", "St. Louis"),
                                          ("Ft. Worth", "Fort Worth")])
def test_short_title_words_of_places(written, gold):
    assert qa_reward(f"<answer>{written}</answer>", aliases=[gold]).score == 1.0
    assert qa_reward("<answer>Mt. Fuji</answer>", aliases=[gold]).score == 0.0


# ---------------------------------------------------------------- aliases as datasets write them
@pytest.mark.parametrize("alias,adds,never", [
    ("Matthew Perry (disambiguation)", ["Matthew Perry"], ["disambiguation"]),
    ("Walloon (people)", ["Walloon"], ["people"]),
    ("5.97 m (19 ft 7 in)", ["5.97 m", "19 ft 7 in"], []),
    ("Gurkha or Nepalese", ["Gurkha", "Nepalese"], []),
    ("Perry, Matthew", ["Matthew Perry"], ["Perry"]),
    ("Perry, Matthew (actor)", ["Perry, Matthew", "Matthew Perry"], ["actor"]),
    ("Sir Rowland Hill", ["Rowland Hill"], ["Sir Hill", "Hill"]),
    ("Lagos State", ["Lagos"], []),
    ("Celtic F.C.", ["Celtic"], []),
    ("Claudia Grace Wells", ["Claudia Wells"], ["Wells"]),
    ("Senate Republican Conference", [], ["Senate Conference"]),  # an institution's name
    ("New York City", ["New York"], ["New City", "New"]),
    ("Twenty-seven", ["27"], []),
    ("seventy-four", ["74"], []),
    ("\u00a35", ["5 pounds"], []),
    ("10 euros", ["\u20ac10"], []),
    ("in the sixth season", ["the sixth season"], []),
    ("in 1997", [], ["1997"]),  # two words: the year alone is no span cut from a sentence
    ("Cassini's Division", ["Cassini Division"], []),
    ("the physician George Huntington", ["George Huntington"], ["physician"]),
    ("Swedish botanist Carl Linnaeus", ["Carl Linnaeus"], ["Linnaeus"]),
    ("Thomas Hobbes in his Leviathan", ["Thomas Hobbes"], ["Leviathan"]),
    ("Nicholas Breakspear, who was Adrian IV", ["Nicholas Breakspear"], ["Adrian IV"]),
    ("Bodega Bay, CA", ["Bodega Bay"], ["CA Bay", "CA"]),
    ("the Gospel of Matthew", [], ["Matthew"]),  # "of" joins one name
    ("Paris", [], []),
    # mojibake: "\u2013" (en dash) written as UTF-8 and read as Windows-1252 is "\u00e2\u20ac\u201c";
    # the repaired alias is read again ("\u00c2\u00a3" is a mojibake "\u00a3", so 5 pounds too)
    ("Median 10\u00e2\u20ac\u201c12 years", ["Median 10\u201312 years"], []),
    ("\u00c2\u00a35", ["\u00a35", "5 pounds"], []),
])
def test_dataset_forms(alias, adds, never):
    """Each convention adds the plain name it hides, and nothing that names something else
    (worked out by hand from the convention's table in `answers.aliases`)."""
    from rlvr.rewards.answers.aliases import dataset_forms
    forms = dataset_forms(alias)
    assert all(a in forms for a in adds), forms
    assert not any(n in forms for n in never), forms
    assert alias not in forms


@pytest.mark.parametrize("text,aliases", [
    ("The character was played by Claudia Wells.", ["Claudia Grace Wells"]),
    ("Matthew Perry played Chandler.", ["Perry, Matthew"]),
    ("It is carried by Gurkha soldiers.", ["Gurkha or Nepalese"]),
    ("The richest state is Lagos.", ["Lagos State"]),
    ("Ernest Rutherford ran the lab.", ["Sir Ernest Rutherford"]),
    ("It formed around 2.45\u00a0billion years ago.", ["around 2.45\u00c2\u00a0billion years ago"]),
])
def test_a_dataset_alias_is_read_as_people_answer(text, aliases):
    result = qa_reward(text, aliases=aliases, mode="contains")
    assert result.score == 1.0
    assert "qa.alias_form" in [w["rule"] for w in result.details["why"]]


@pytest.mark.parametrize("text,aliases,score", [
    ("26 June 1997", ["1997"], 1.0),      # a finer date: people accept it
    ("26 June 1998", ["1997"], 0.0),
    ("Elvis Presley", ["Presley"], 1.0),  # a first name before the surname gold
    ("Presley Smith", ["Presley"], 0.0),
    ("Carl Linnaeus", ["Swedish botanist Carl Linnaeus"], 1.0),
])
def test_exact_mode_reads_finer_answers(text, aliases, score):
    assert qa_reward(text, aliases=aliases, mode="exact").score == score, text
