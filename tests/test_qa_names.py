"""The `qa` reward (`rlvr.rewards.qa`): normalisation never merges different names, `exact`
mode drops only an answer frame, emphasis, a title and a unit after a number, and
`contains` mode pays only an alias the response affirms: a table of rows, then properties
that generate each class (name symbols, aliases that normalise to nothing, one-letter
aliases, denied / asked / taken-back occurrences, an alias named only inside a denied
longer alias, answer frames and emphasis)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import FEW
from rlvr.rewards.qa import qa_reward

ROWS = [
    # (completion, aliases, mode, outcome)
    ("C++", ["C"], "exact", "wrong"),  # SQuAD: both "c"
    ("C", ["C#"], "exact", "wrong"),
    ("C#", ["C#"], "exact", "correct"),
    ("F#", ["F#", "F sharp"], "exact", "correct"),
    ("A", ["A"], "exact", "correct"),  # the letter (vitamin A): SQuAD made the alias empty
    ("a.", ["A"], "exact", "correct"),
    ("an", ["A"], "exact", "wrong"),  # an article that ends the text is kept: not "A"
    ("The The", ["The The"], "exact", "correct"),  # the band
    ("The", ["The The"], "exact", "wrong"),
    ("It's vitamin E.", ["Vitamin A", "A"], "contains", "wrong"),  # "vitamin a" kept whole
    ("Hepatitis", ["Hepatitis A"], "exact", "wrong"),
    ("It was Plan B all along.", ["Plan A"], "contains", "wrong"),
    ("It is Vitamin A.", ["Vitamin A"], "contains", "correct"),
    ("\uff23\uff03", ["C#"], "exact", "correct"),  # full-width forms fold
    ("C\u266f", ["C#"], "exact", "correct"),  # the music sharp sign is "#"
    # a response that is nothing but the list is refused; a list a person writes inside an
    # answer is paid (on EVOUNA's human labels refusing those cost far more right answers
    # than wrong ones: benchmarks/graders_outside.py); a loop is refused
    ("It is either Paris or Lyon.", ["Paris"], "contains", "listed_candidates"),
    ("The city is either Paris or Lyon, depending on the census year.", ["Paris"], "contains",
     "correct"),
    ("Paris Lyon Paris Lyon Paris Lyon", ["Paris"], "contains", "listed_candidates"),
    ("I would say it is a mystery", ["A"], "contains", "wrong"),  # a stray article
    ("It's vitamin C++", ["C"], "contains", "wrong"),
    ("C", ["C"], "contains", "correct"),
    ("Is it Paris?", ["Paris"], "contains", "wrong"),  # only asked about
    ("Paris is wrong; it is Lyon.", ["Paris"], "contains", "wrong"),  # denied after it
    ("Paris. Wait, no: Lyon.", ["Paris"], "contains", "wrong"),  # taken back
    ("I doubt it's Paris.", ["Paris"], "contains", "wrong"),
    ("It is Paris.", ["Paris"], "contains", "correct"),
    ("Is it Paris? Yes, it is Paris.", ["Paris"], "contains", "correct"),  # asked, then given
    ("It is St Louis", ["St. Louis"], "contains", "correct"),  # punctuation variant
    ("M*A*S*H", ["M*A*S*H", "MASH"], "exact", "correct"),
]


@pytest.mark.parametrize("completion, aliases, mode, outcome", ROWS)
def test_rows(completion, aliases, mode, outcome):
    assert qa_reward(completion, aliases=aliases, mode=mode).outcome == outcome


names = st.text(alphabet="bcdfghjklmnpqrstvwxyz", min_size=2, max_size=8).map(str.capitalize)
marks = st.sampled_from(["++", "#", "*", "&", "+"])


@settings(max_examples=60, deadline=None)
@given(name=names, mark=marks, mode=st.sampled_from(["exact", "contains"]))
def test_a_name_symbol_makes_another_name(name, mark, mode):
    assert qa_reward(name + mark, aliases=[name], mode=mode).outcome == "wrong"
    assert qa_reward(name, aliases=[name + mark], mode=mode).outcome == "wrong"
    assert qa_reward(name + mark, aliases=[name + mark], mode=mode).outcome == "correct"


@settings(max_examples=40, deadline=None)
@given(letter=st.sampled_from("bcdefghjklmnopqrstuvwxyz"), filler=names)
def test_a_one_letter_alias_is_only_the_whole_answer(letter, filler):
    alias = letter.upper()
    assert qa_reward(alias, aliases=[alias], mode="contains").outcome == "correct"
    sentence = f"{filler} {letter} {filler.lower()}"
    assert qa_reward(sentence, aliases=[alias], mode="contains").outcome == "wrong"


NOT_GIVEN = ["Is it {a}?", "Could it be {a}?", "{a} is wrong.", "{a} is incorrect; I don't know.",
             "I doubt it's {a}.", "It is not {a}.", "{a}. Wait, no, that's wrong.",
             "Many people think it's {a}, but it's Zzyx.",
             "It couldn't possibly be {a}, given the clue.",  # an -ly adverb as filler
             "{a} can be ruled out; the answer is Zzyx.",  # a modal copula
             "{a} is out of the question.", "{a} is a common wrong answer here."]
GIVEN = ["It is {a}.", "The answer is {a}.", "{a}", "I think it's {a}.",
         "Is it {a}? Yes, it is {a}.", "It is certainly {a}.", "It is not only {a}.",
         "{a} could be right, and it is."]


@settings(max_examples=60, deadline=None)
@given(alias=names, template=st.sampled_from(NOT_GIVEN))
def test_contains_pays_no_alias_that_is_denied_asked_or_taken_back(alias, template):
    result = qa_reward(template.format(a=alias), aliases=[alias], mode="contains")
    assert result.outcome == "wrong", (template, alias)


@settings(max_examples=40, deadline=None)
@given(alias=names, template=st.sampled_from(GIVEN))
def test_contains_pays_an_affirmed_alias(alias, template):
    assert qa_reward(template.format(a=alias), aliases=[alias],
                     mode="contains").outcome == "correct"


NUMBER_WORDS = {2: "two", 3: "three", 8: "eight", 12: "twelve", 21: "twenty-one", 40: "forty"}


@settings(max_examples=40, deadline=None)
@given(value=st.sampled_from(sorted(NUMBER_WORDS)), other=st.sampled_from(sorted(NUMBER_WORDS)))
def test_contains_reads_number_words_and_their_lists(value, other):
    word = NUMBER_WORDS[value]
    assert qa_reward(f"I count {word} of them.", aliases=[str(value)],
                     mode="contains").outcome == "correct"
    assert qa_reward(f"Not {word}.", aliases=[str(value)], mode="contains").outcome == "wrong"
    if other != value:
        listed = qa_reward(f"Either {word} or {NUMBER_WORDS[other]}.", aliases=[str(value)],
                           mode="contains")
        assert listed.outcome == "listed_candidates"


@settings(max_examples=40, deadline=None)
@given(letter=st.sampled_from("BCDEFGHJKLMNOPQRSTUVWXYZ"),
       frame=st.sampled_from(["The answer is {x}.", "It is vitamin {x}, found in fruit.",
                              "Option {x} is correct", "I'd say {x}."]))
def test_a_capital_letter_standing_alone_in_a_sentence_is_the_alias(letter, frame):
    text = frame.format(x=letter)
    assert qa_reward(text, aliases=[letter], mode="contains").outcome == "correct", text
    # never a letter inside another name, and never one denied, asked or taken back
    for other in (f"I love {letter}++.", f"It is {letter}#.", f"The {letter}.S. is big.",
                  f"It is not {letter}.", f"Is it {letter}?", f"{letter}. Wait, no: A.",
                  f"The answer is {letter.lower()}."):
        assert qa_reward(other, aliases=[letter], mode="contains").score == 0.0, other


@settings(max_examples=20, deadline=None)
@given(frame=st.sampled_from(["My favourite band is {x}.", "It was {x}, the English band.",
                              "I think the answer is {x}."]))
def test_a_name_made_of_articles_counts_as_written(frame):
    assert qa_reward(frame.format(x="The The"), aliases=["The The"], mode="contains").score == 1.0
    # as written only: a lower-case "the the" is a typo, "A" before a word is the article
    assert qa_reward(frame.format(x="the the"), aliases=["The The"], mode="contains").score == 0.0
    assert qa_reward("A dog is the answer.", aliases=["A"], mode="contains").score == 0.0
    assert qa_reward("The answer is A.", aliases=["A"], mode="contains").score == 1.0


@settings(max_examples=40, deadline=None)
@given(alias=st.sampled_from(["Madrid", "Canberra", "Ottawa"]), other=st.sampled_from(["Barcelona", "Sydney", "Toronto"]),
       frame=st.sampled_from(["{o}. Wait, no, it's {a}.", "{o}. Hmm, no: {a}.", "{o}. Oops, sorry, {a}.",
                              "{o}. Actually, no, it's {a}, the capital."]))
def test_an_interjection_before_the_correction_is_no_candidate(alias, other, frame):
    text = frame.format(a=alias, o=other)
    assert qa_reward(text, aliases=[alias], mode="contains").outcome == "correct", text
    assert qa_reward(text, aliases=[other], mode="contains").score == 0.0, text


@settings(max_examples=40, deadline=None)
@given(value=st.integers(2, 10**6), frame=st.sampled_from([
    "Roughly {v} people, though I'm not sure; it might have been {w}.",
    "It is {v}. The answer could also be {w}.", "{v}, but it may well have been {w}."]))
def test_another_value_offered_as_a_possibility_is_a_list(value, frame):
    text = frame.format(v=f"{value:,}", w=f"{value // 10 or 1:,}" if value // 10 != value else "1")
    assert qa_reward(text, aliases=[str(value)], mode="contains").outcome == "listed_candidates", text


@settings(max_examples=30, deadline=None)
@given(title=st.sampled_from(["Gen.", "General", "Dr.", "President", "Sir", "Capt."]),
       name=st.sampled_from(["George S. Patton", "Martin Luther King", "Isaac Newton"]))
def test_a_title_before_a_name_may_be_dropped_in_exact_mode(title, name):
    assert qa_reward(f"{title} {name}", aliases=[name], mode="exact").score == 1.0
    # never a one-word remainder: "St. Louis" is not "Louis", "Dr. Who" not "Who"
    last = name.split()[-1]
    assert qa_reward(f"{title} {last}", aliases=[last], mode="exact").score == 0.0
    assert qa_reward("St. Louis", aliases=["Louis"], mode="exact").score == 0.0


@settings(max_examples=30, deadline=None)
@given(pair=st.sampled_from([("Río Grande", "Rio Grande"), ("São Paulo", "Sao Paulo"),
                             ("Zürich", "Zurich"), ("Kraków", "Krakow")]),
       mode=st.sampled_from(["exact", "contains"]), flip=st.booleans())
def test_accents_on_latin_letters_either_way(pair, mode, flip):
    said, alias = pair if not flip else pair[::-1]
    text = said if mode == "exact" else f"It is {said}."
    assert qa_reward(text, aliases=[alias], mode=mode).score == 1.0, (text, alias)
    if mode == "contains":
        assert qa_reward(f"It is not {said}.", aliases=[alias], mode=mode).score == 0.0


NAMES = st.sampled_from([("Charles", "Darwin"), ("Marie", "Curie"), ("Ada", "Lovelace"),
                         ("Alan", "Turing"), ("Jane", "Austen")])


@FEW
@given(NAMES, st.sampled_from(["I doubt it was {n}", "It was not {n}", "It certainly wasn't {n}"]))
def test_a_denied_long_alias_does_not_give_the_short_one(name, frame):
    first, last = name
    text = frame.format(n=f"{first} {last}") + "; honestly, I have no idea."
    assert qa_reward(text, aliases=[f"{first} {last}", last], mode="contains").score == 0.0
    assert qa_reward(f"It was {first} {last}.", aliases=[f"{first} {last}", last],
                     mode="contains").score == 1.0


CITIES = st.sampled_from(["Canberra", "Tokyo", "Ottawa", "Nairobi", "Lima"])


@FEW
@given(CITIES)
def test_exact_mode_drops_an_answer_frame_and_emphasis_only(city):
    for written in (f"The answer is {city}.", f"Answer: {city}", f"It's {city}.", f"**{city}**",
                    f"*{city}*"):
        assert qa_reward(written, aliases=[city]).score == 1.0
    for written in (f"The answer is not {city}.", f"The answer is {city} or Oslo.",
                    f"**{city}** or Oslo"):
        assert qa_reward(written, aliases=[city]).score == 0.0


@pytest.mark.parametrize("text,gold,score", [
    ("<answer>100 °C</answer>", "100", 1.0),
    ("<answer>100 degrees</answer>", "100", 1.0),
    ("<answer>about 100</answer>", "100", 0.0),
    ("<answer>100 or 200</answer>", "100", 0.0),
])
def test_exact_mode_reads_a_unit_after_a_number(text, gold, score):
    assert qa_reward(text, aliases=[gold]).score == score


# ---------------------------------------------------------------- classes EVOUNA's labels showed
@pytest.mark.parametrize("text,aliases,score", [
    # a name after a preposition is stated; a number after one is a bound
    ("The Americas were named after Amerigo Vespucci.", ["Amerigo Vespucci"], 1.0),
    ("Spain and the UK are in dispute over Gibraltar.", ["Gibraltar"], 1.0),
    ("Sometime after 1969.", ["1969"], 0.0),
    ("It was bigger than the Cane Corso.", ["Cane Corso"], 0.0),  # the standard compared
    # glued words and footnote numbers of retrieval answers
    ("The voice of Sulley is provided byJohn Goodman1.", ["John Goodman"], 1.0),
    ("The EPA was created by President Richard Nixon123.", ["Richard Nixon"], 1.0),
    # a plural of the alias's last word, never of a number
    ("It has a layer of mashed potatoes on top.", ["mashed potato"], 1.0),
    ("It happened in the 1990s.", ["1990"], 0.0),
    # every content word near one another in one sentence, never under a negation
    ("It was started in 1881 and completed in 1885.", ["between 1881 and 1885"], 1.0),
    ("It was not started in 1881, nor finished in 1885.", ["between 1881 and 1885"], 0.0),
    # a year inside another full date than the gold's is a wrong date
    ("It was released on November 8, 2013.", ["November 27, 2013", "2013"], 0.0),
    ("It was released in 2013.", ["November 27, 2013", "2013"], 1.0),
    # lists a person writes are paid; alternatives of a number and loops are not
    ("Germany, Austria-Hungary, the Ottoman Empire and Bulgaria.", ["Germany"], 1.0),
    ("It is 4 or 5.", ["4"], 0.0),
    ("eight or nine", ["8"], 0.0),
    ("It is 0.05 or 5%.", ["5%"], 1.0),  # one quantity written twice
])
def test_classes_from_outside_labels(text, aliases, score):
    assert qa_reward(text, aliases=aliases, mode="contains").score == score, text
