"""Reading and comparing answers: the readers every grader shares, one rule each, in one place.

A reward decides what a verdict is worth; how an answer is read out of a response, and
whether two answers are the same, is decided here, so that two rewards never read one text
two ways (DESIGN: "no second answer parser anywhere"). Standard library only at import;
the math readers import math-verify and SymPy on first use.

| module | reads |
|---|---|
| `numbers` | whole-value numbers ("3/4", "1,234.56", "3 million", "2\\u00bd") and their comparison |
| `folding` | the folded text every free-text and field reader reads (NFKC, quotes, look-alikes) |
| `boxes` | balanced `\\boxed{}` / `\\fbox{}` |
| `fields` | answer fields (`\\boxed{}`, `Answer:` lines) and the structured formats' abstention value |
| `match` | whether free text gives a gold answer (numbers by value, quantities, denials) |
| `words` | word boundaries: where an alias occurs as a word of its own |
| `candidates` | whether an answer is offered among other candidates (lists, loops, "or") |
| `spellings` | other spellings of one gold (dates, initials, acronyms, ordinals) |
| `shapes` | JSON, answer tags and tables read as the text they stand for |
| `forms` | spellings the matcher must not tell apart; an answer retracted or only asked |
| `denial` | a gold answer named only to be denied ("not Paris", "Paris is wrong") |
| `math_forms` | value-keeping rewrites of math presentation forms (Unicode digits, colour, ...) |
| `math_kinds` | what kind a math answer is, and which tokens a reading may drop |
| `math_reading` | one math-verify match read as an answer: LaTeX, plain formulas, plain lists and intervals |
| `math_compare` | whether two math readings are the same answer (math-verify underneath) |
| `reasoning` | the final answer after a reasoning block (`<think>...</think>`), the text every reward reads |
| `units`, `math_units` | units of measure after a math answer, and the `math` reward's unit steps |
| `math_retraction` | when the work after a `math` or `####` answer takes it back |

This module is the package's only entry point for the rest of rlvr: no module outside the
package imports one of its modules (`tests/test_rulebook.py` checks it). `__all__` is what
the rewards read: the calibration and `qa` readers, the `math` reward's reading, unit and
retraction steps, and the corrections `gsm8k` applies after its `####` line.
"""

from rlvr.rewards.answers.boxes import boxed_values
from rlvr.rewards.answers.bare_lists import bare_list
from rlvr.rewards.answers.candidates import degenerate_list, lists_candidates
from rlvr.rewards.answers.denial import denied
from rlvr.rewards.answers.fields import (
    ABSTAIN_VALUE,
    ANSWER_FORMATS,
    answer_line_values,
    check_format,
    field_items,
    in_field,
    normalise_content,
    normalise_value,
    read_field,
)
from rlvr.rewards.answers.folding import drop_stroked, fold, unstrike
from rlvr.rewards.answers.forms import (asked_only, in_digits, loosen, retracted, stated, unglue,
                                        word_number, word_numbers)
from rlvr.rewards.answers.match import AnswerMatch, match_answer
from rlvr.rewards.answers.math_compare import (
    REL_TOL,
    MathAnswer,
    alarm_limit,
    is_undefined,
    math_lib,
    same_answer,
    timed,
)
from rlvr.rewards.answers.math_forms import answer_flaw, spell_infinite_intervals
from rlvr.rewards.answers.math_kinds import (
    UNIT_WORDS,
    RewriteError,
    approx_disagrees,
    base_digits,
    chain_disagrees,
    final_markers,
    has_base,
    in_math,
    kind_of,
    listed_value,
    negated_before,
    other_candidates,
    rewrite_math,
)
from rlvr.rewards.answers.math_reading import (FORMULA, LONGEST, first_parsed, latex_answer,
                                               one_value, plain_answer, structure_answer)
from rlvr.rewards.answers.math_retraction import (corrected, negated_marker, taken_back,
                                                  withdrawn)
from rlvr.rewards.answers.math_units import in_gold_unit, scalar_value, unit_after
from rlvr.rewards.answers.numbers import (
    STRUCK,
    as_number,
    iter_numbers,
    numbers_equal,
    in_number_run,
    numbers_in,
    offers_alternative,
    plain_number,
    read_whole,
    retracts,
)
from rlvr.rewards.answers.reasoning import (
    DEFAULT_REASONING_TAGS,
    final_answer,
    final_answers,
    reasoning_tags,
)
from rlvr.rewards.answers.reasoning import PARAM as REASONING_PARAM
from rlvr.rewards.answers.shapes import json_answer, plain_shape
from rlvr.rewards.answers.spellings import dates_in, full_date, other_date, spellings
from rlvr.rewards.answers.units import two_unit_values
from rlvr.rewards.answers.words import contains_word, mark_words, word_starts

__all__ = [
    # numbers
    "STRUCK", "as_number", "in_number_run", "iter_numbers", "numbers_equal", "numbers_in",
    "offers_alternative", "plain_number", "read_whole", "retracts",
    # text folding, shapes, boxes and fields
    "fold", "unstrike", "drop_stroked", "plain_shape", "json_answer", "boxed_values",
    "ABSTAIN_VALUE", "ANSWER_FORMATS", "answer_line_values", "check_format", "field_items",
    "in_field", "normalise_content", "normalise_value", "read_field",
    # gold answers in free text
    "AnswerMatch", "match_answer", "contains_word", "mark_words", "word_starts",
    "bare_list", "degenerate_list", "lists_candidates", "loosen", "unglue", "spellings", "dates_in",
    "full_date", "other_date", "in_digits", "denied", "stated", "asked_only", "retracted",
    "word_number", "word_numbers", "two_unit_values",
    # math answers (the `math` reward)
    "REL_TOL", "MathAnswer", "alarm_limit", "is_undefined", "math_lib", "same_answer", "timed",
    "answer_flaw", "spell_infinite_intervals", "UNIT_WORDS", "RewriteError",
    "approx_disagrees", "base_digits", "has_base", "chain_disagrees", "final_markers",
    "in_math", "kind_of", "listed_value", "negated_before", "other_candidates", "rewrite_math",
    "FORMULA", "LONGEST", "first_parsed", "latex_answer", "one_value", "plain_answer",
    "structure_answer", "corrected", "negated_marker", "taken_back", "withdrawn",
    "in_gold_unit", "scalar_value", "unit_after",
    # the final answer after a reasoning block (what every reward reads)
    "DEFAULT_REASONING_TAGS", "REASONING_PARAM", "final_answer", "final_answers",
    "reasoning_tags",
]
