"""Gold aliases read as QA datasets write them: the one step that turns a dataset's alias
into the names a person would accept for it, before any matching.

Datasets built from Wikipedia and trivia sites (Natural Questions, TriviaQA, EVOUNA) write
aliases with the page's conventions, not as anyone answers. `dataset_forms(alias)` adds
the plain names each convention hides:

| alias as written | also accepted | convention |
|---|---|---|
| "Matthew Perry (disambiguation)", "Walloon (people)", "Tailor (sartorius muscle)" | "Matthew Perry", "Walloon", "Tailor" | a **bracketed qualifier** names the page, not the answer |
| "5.97 m (19 ft 7 in)" | "5.97 m", "19 ft 7 in" | a value with its conversion in brackets: both values |
| "Gurkha or Nepalese" | "Gurkha", "Nepalese" | **"X or Y" inside one alias** names two answers |
| "Perry, Matthew" | "Matthew Perry" | an **inverted name** (two comma parts of capitalised words) |
| "Sir Rowland Hill", "Dr. Jane Smith" | "Rowland Hill", "Jane Smith" | a **title** before a name of two or more words |
| "Lagos State", "Celtic F.C.", "Swan River" | "Lagos", "Celtic", "Swan" | a **descriptor** after a capitalised name (state, river, club, company) |
| "Claudia Grace Wells" | "Claudia Wells" | a person's **middle name** dropped (three capitalised words) |
| "Twenty-seven" | "27" | a **number in words** as digits |
| "in the sixth season", "to ensure party discipline" | "the sixth season", "ensure party discipline" | a **preposition leading a span** of three or more words cut from its sentence |
| "Cassini's Division" | "Cassini Division" | a **possessive** inside a name |
| "the physician George Huntington", "Swedish botanist Carl Linnaeus" | "George Huntington", "Carl Linnaeus" | a **description before a name** |
| "Thomas Hobbes in his Leviathan", "Nicholas Breakspear, who was Adrian IV", "Bodega Bay, CA" | "Thomas Hobbes", "Nicholas Breakspear", "Bodega Bay" | a **clause or a place after a name** of two or more words |
| "£5", "€10", "¥300" | "5 pounds", "10 euros", "300 yen" | a **currency sign** as its word (and the reverse) |
| "10â€“12 years", "2.45Â billion" | "10–12 years", "2.45 billion" | **mojibake**: UTF-8 text once decoded as Windows-1252 (ftfy's `fix_encoding`), then read as above |

Titles and descriptors in the other direction (the answer adds "Sir" or "F.C." to an alias
without it) need no form: the alias is then inside the answer. Each form is one more alias;
the matching rules (denials, retractions, lists) apply to it unchanged. Measured on
EVOUNA's human labels (benchmarks/graders_outside.py, docs/measured.md).

Standard library and ftfy (the mojibake repair). Tests: tests/test_answer_spellings.py.
"""

from __future__ import annotations

import re

from rlvr.rewards.vocabulary import TITLES, alternation

_OFFICES = ("saint", "st", "major", "senator", "sen", "judge", "justice", "chief",
            "prime minister")
_BRACKETED = re.compile(r"^(?P<outer>[^()\[\]]+?)\s*[(\[](?P<inner>[^()\[\]]+)[)\]]\s*$")
_OR = re.compile(r"\s+or\s+", re.IGNORECASE)
_CAPITALISED = re.compile(r"^[A-Z\u00c0-\u00de][\w'\u00c0-\u024f.-]*$")
# a dataset's title before a name; unlike an answer's (`qa_normalize.HONORIFIC`) a saint's
# too ("St. Ignatius of Loyola" also names "Ignatius of Loyola")
_TITLE = re.compile(rf"^(?:{alternation(TITLES + _OFFICES)})\.?\s+", re.IGNORECASE)
_DESCRIPTOR = re.compile(
    r"\s+(?:state|province|county|river|island|islands|city|mountains|a\.?f\.?c\.?|f\.?c\.?|"
    r"inc\.?|ltd\.?|plc|company|corporation|corp\.?|co\.)$", re.IGNORECASE)
_CURRENCY = {"\u00a3": "pounds", "\u20ac": "euros", "\u00a5": "yen", "\u20b9": "rupees",
             "$": "dollars"}
_SIGNED = re.compile(r"^(?P<sign>[\u00a3\u20ac\u00a5\u20b9$])\s?(?P<amount>\d[\d,.]*)"
                     r"(?P<scale>\s+(?:thousand|million|billion|trillion))?$")
_WORDED = re.compile(r"^(?P<amount>\d[\d,.]*(?:\s+(?:thousand|million|billion|trillion))?)\s+"
                     r"(?P<word>pounds?|euros?|yen|rupees?|dollars?)$", re.IGNORECASE)
_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
          "fourteen fifteen sixteen seventeen eighteen nineteen").split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
# words of an institution's or a thing's name, never a person's: "Senate Republican
# Conference" keeps its middle word
_INSTITUTION = {"senate", "house", "party", "conference", "caucus", "council", "committee",
                "university", "church", "street", "road", "bridge", "park", "hall", "museum",
                "theatre", "theater", "republic", "kingdom", "empire", "company", "association",
                "society", "league", "cup", "award", "prize", "act", "war", "battle", "day",
                "bank", "court", "station", "airport", "hotel", "hospital", "school", "college",
                "club", "band", "group", "team", "records", "show", "river", "lake", "mount",
                "island", "city", "state", "county", "north", "south", "east", "west", "new",
                "united", "national", "royal", "general", "grand"}
_TRAILING = re.compile(r"^(.+?)(?:,\s*(?:who|which|where)\b.*|\s+in (?:his|her|their)\b.*|"
                       r",\s*(?:[A-Z]{2}|[A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,2})\.?)$")
_LEADS = {"in", "on", "at", "during", "to", "by", "from", "since", "until", "around"}
_MINOR = {"of", "the", "and", "de", "la", "le", "von", "van", "der", "da", "di", "du", "del"}


def dataset_forms(alias: str) -> list[str]:
    """The names a dataset's `alias` stands for besides itself (module table), without
    repeats and never the alias itself; [] when no convention applies.

    Args:
        alias: one gold alias as the dataset wrote it.
    Returns:
        the added forms, in the table's order; each is read again once (a bracketed
        qualifier on an inverted name: "Perry, Matthew (actor)" gives "Perry, Matthew"
        and "Matthew Perry").
    """
    alias = alias.strip()
    repaired = alias
    if not alias.isascii():  # mojibake: the alias as it was written before it
        from ftfy import fix_encoding  # imported on need (about 0.2 s)

        repaired = fix_encoding(alias)
    out: list[str] = []
    for base in dict.fromkeys((alias, repaired)):
        for form in [base] + _structural(base):
            out += [form] + _names(form)
    return [f for f in dict.fromkeys(out) if f and f != alias]


def _structural(alias: str) -> list[str]:
    """The names inside an alias's layout: a bracketed qualifier dropped, "X or Y" split,
    an inverted name turned (each read once more, "Perry, Matthew (actor)")."""
    out = []
    bracketed = _BRACKETED.match(alias)
    if bracketed:
        outer, inner = bracketed.group("outer").strip(), bracketed.group("inner").strip()
        out.append(outer)
        if any(c.isdigit() for c in outer) and any(c.isdigit() for c in inner):
            out.append(inner)  # "5.97 m (19 ft 7 in)": the same value converted
    parts = _OR.split(alias)
    if len(parts) == 2 and all(p.strip() for p in parts):
        out += [p.strip(" ,.") for p in parts]
    out += _inverted(alias)
    again = [f for form in out for f in ([form] + _inverted(form)) if f != alias]
    return list(dict.fromkeys(again))


def _names(alias: str) -> list[str]:
    """The shorter names of one alias: a title, a descriptor or a middle name dropped, a
    number in words as digits, a currency sign as its word."""
    return _untitled(alias) + _undescribed(alias) + _no_middle(alias) + _digits(alias) \
        + _currency(alias) + _unled(alias) + _unpossessed(alias) + _named_tail(alias) \
        + _head(alias)


def _named_tail(alias: str) -> list[str]:
    """"the physician George Huntington", "Swedish botanist Carl Linnaeus" -> the name of two
    or more capitalised words after the last lower-case word that describes it."""
    words = _words(alias)
    lower = [i for i, w in enumerate(words) if w[:1].islower() and w.lower() not in _MINOR]
    if "," in alias or not lower or len(words) - lower[-1] - 1 < 2 or lower[-1] > 2:
        return []  # a description of at most three words, no clause ("..., who was X")
    tail = words[lower[-1] + 1:]
    return [" ".join(tail)] if _is_name(tail) else []


def _head(alias: str) -> list[str]:
    """"Thomas Hobbes in his Leviathan", "Nicholas Breakspear, who was Adrian IV",
    "Bodega Bay, CA", "Dodger Stadium, Los Angeles" -> the capitalised name before a
    relative clause, an "in his/her/their" phrase or a place after a comma."""
    m = _TRAILING.match(alias)
    if m and len(_words(m.group(1))) >= 2 and _is_name(_words(m.group(1))):
        return [m.group(1)]
    return []


def _unled(alias: str) -> list[str]:
    """"in the sixth season" -> "the sixth season", "to ensure party discipline" -> "ensure
    party discipline": a preposition that leads an alias of three or more words (a span cut
    from its sentence) dropped."""
    words = _words(alias)
    if len(words) >= 3 and words[0].lower() in _LEADS:
        return [" ".join(words[1:])]
    return []


def _unpossessed(alias: str) -> list[str]:
    """"Cassini's Division" -> "Cassini Division": a possessive inside a name of two or more
    words written without it."""
    rest = re.sub(r"(?<=\w)['\u2019]s\b(?=\s)", "", alias)
    return [rest] if rest != alias else []


def _words(name: str) -> list[str]:
    return name.split()


def _is_name(words: list[str]) -> bool:
    """Capitalised words (minor words such as "of" allowed inside), no digits."""
    return bool(words) and all(_CAPITALISED.match(w) or (0 < i < len(words) - 1 and w in _MINOR)
                               for i, w in enumerate(words)) \
        and not any(c.isdigit() for w in words for c in w)


def _inverted(alias: str) -> list[str]:
    """"Perry, Matthew" -> "Matthew Perry": two comma parts of one to three capitalised
    words each."""
    parts = [p.strip() for p in alias.split(",")]
    if len(parts) == 2 and all(1 <= len(_words(p)) <= 3 and _is_name(_words(p)) for p in parts):
        return [f"{parts[1]} {parts[0]}"]
    return []


def _untitled(alias: str) -> list[str]:
    """"Sir Rowland Hill" -> "Rowland Hill": a title before a name of two or more words."""
    rest = _TITLE.sub("", alias, count=1)
    return [rest] if rest != alias and len(_words(rest)) >= 2 and _is_name(_words(rest)) else []


def _undescribed(alias: str) -> list[str]:
    """"Lagos State" -> "Lagos": a descriptor after a capitalised name."""
    rest = _DESCRIPTOR.sub("", alias)
    return [rest] if rest != alias and _is_name(_words(rest)) else []


def _no_middle(alias: str) -> list[str]:
    """"Claudia Grace Wells" -> "Claudia Wells": three capitalised words, none minor and
    none a word of an institution's name ("Senate Republican Conference")."""
    words = _words(alias)
    if not words or _TITLE.match(alias) or _DESCRIPTOR.search(alias) \
            or not any(c.islower() for c in words[0]):
        return []  # "CA Bodega Bay": no given name first
    if len(words) == 3 and _is_name(words) \
            and not any(w.lower() in _MINOR | _INSTITUTION for w in words) \
            and all(len(w.strip(".")) > 1 for w in (words[0], words[2])):
        return [f"{words[0]} {words[2]}"]
    return []


def _digits(alias: str) -> list[str]:
    """"Twenty-seven" -> "27": a whole number under a hundred written in words."""
    words = re.split(r"[\s-]+", alias.strip().lower())
    if len(words) == 1 and words[0] in _UNITS:
        return [str(_UNITS.index(words[0]))]
    if words and words[0] in _TENS and (len(words) == 1 or (
            len(words) == 2 and words[1] in _UNITS[1:10])):
        return [str(20 + 10 * _TENS.index(words[0]) + (
            _UNITS.index(words[1]) if len(words) == 2 else 0))]
    return []


def _currency(alias: str) -> list[str]:
    """"£5" <-> "5 pounds": a currency sign as its word, and the word as its sign."""
    signed = _SIGNED.match(alias.strip())
    if signed:
        scale = signed.group("scale") or ""
        return [f"{signed.group('amount')}{scale} {_CURRENCY[signed.group('sign')]}"]
    worded = _WORDED.match(alias.strip())
    if worded:
        word = worded.group("word").lower().rstrip("s") + "s"
        sign = next((s for s, w in _CURRENCY.items() if w == word or (w == "yen" == word[:-1])),
                    None)
        return [f"{sign}{worded.group('amount')}"] if sign else []
    return []
