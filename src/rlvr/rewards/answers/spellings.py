"""Other spellings of one gold answer, added to the aliases before matching.

A gold alias names one thing; a response may spell it another way that any reader takes
for the same thing. Each rule here writes such spellings out, so the matching rules
(denials, lists, retractions: `answers.match`, `qa`) apply to them unchanged:

| alias | also matches | rule |
|---|---|---|
| "July 20, 1969" (any order, full or short month name, ordinals) | "20 July 1969", "the 20th of July 1969", "July 20th, 1969", "1969-07-20", "20/07/1969", "07/20/1969", "20.07.1969" | **a full date is the same date in every common format** (`date_spellings`); a slashed date is read day-first and month-first, as both are in use |
| "J. R. R. Tolkien", "J.R.R. Tolkien" | "J.R.R. Tolkien", "J. R. R. Tolkien", "JRR Tolkien" | **initials** with or without spaces and points |
| "Usain Bolt" (two capitalised words) | "U. Bolt" | the first name as its initial |
| "Scientific and Cultural" | "Scientific & Cultural" | "and" and "&" |
| "Organization", "realise" | "Organisation", "realize" | British and American "-ize"/"-ise" endings |
| "Jane Austen", asked "Who wrote ...?" | "Austen" | the surname alone, only when the question asks for a person (`surname`) |

What is never added: a spelling that drops a word for any other question ("York" for "New
York"), a translation or transliteration, a near-miss letter ("Dostoevsky" for
"Dostoyevsky": "Colombia" and "Columbia" differ by one letter too).

Standard library only. Tests: tests/test_answer_spellings.py.
"""

from __future__ import annotations

import re

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december")
_MONTH_NUMBER = {**{m: i for i, m in enumerate(MONTHS, 1)},
                 **{m[:3]: i for i, m in enumerate(MONTHS, 1)}, "sept": 9}
_MONTH = r"(?P<month>" + "|".join(sorted(_MONTH_NUMBER, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>\d{3,4})"
_DATES = [re.compile(p, re.IGNORECASE) for p in (
    rf"{_MONTH}\s+{_DAY},?\s+{_YEAR}",
    rf"(?:the\s+)?{_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}",
    r"(?P<year>\d{4})-(?P<mm>\d{2})-(?P<dd>\d{2})",
)]


def full_date(alias: str) -> tuple[int, int, int] | None:
    """(year, month, day) when `alias` is one full date written with a month name or in ISO
    form ("July 20, 1969", "20 July 1969", "1969-07-20"), else None (a month and year
    alone, a numeric date with slashes, an impossible day)."""
    text = alias.strip().rstrip(".")
    for pattern in _DATES:
        m = pattern.fullmatch(text)
        if m is None:
            continue
        groups = m.groupdict()
        month = _MONTH_NUMBER[groups["month"].lower()] if groups.get("month") else int(groups["mm"])
        day = int(groups.get("day") or groups["dd"])
        if 1 <= month <= 12 and 1 <= day <= 31:
            return int(groups["year"]), month, day
    return None


def _ordinal(day: int) -> str:
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def date_spellings(alias: str) -> list[str]:
    """The common spellings of the full date `alias` names ([] when it names none)."""
    found = full_date(alias)
    if found is None:
        return []
    year, month, day = found
    name, short = MONTHS[month - 1].capitalize(), MONTHS[month - 1][:3].capitalize()
    forms = []
    for m in (name, short):
        for d in (str(day), _ordinal(day)):
            forms += [f"{m} {d}, {year}", f"{m} {d} {year}", f"{d} {m} {year}",
                      f"{d} of {m} {year}", f"the {d} of {m} {year}", f"{d} {m}, {year}"]
    forms += [f"{year}-{month:02d}-{day:02d}", f"{day:02d}/{month:02d}/{year}",
              f"{day}/{month}/{year}", f"{month:02d}/{day:02d}/{year}", f"{month}/{day}/{year}",
              f"{day:02d}.{month:02d}.{year}", f"{day}.{month}.{year}"]
    return forms


_INITIALS = re.compile(r"(?<![^\W\d_])((?:[A-Z]\.\s?){2,})(?=\s*[A-Z][a-z])")
_TWO_NAMES = re.compile(r"([A-Z])[a-z]{2,}\s+([A-Z][a-z]+(?:-[A-Z][a-z]+)?)")


def name_spellings(alias: str) -> list[str]:
    """Spellings of a name's initials ("J. R. R. Tolkien": "J.R.R. Tolkien", "JRR
    Tolkien"), of a two-word name with its first name as an initial ("Usain Bolt": "U.
    Bolt"), "and" as "&" and back, and the other "-ize"/"-ise" ending."""
    forms = []
    m = _INITIALS.search(alias)
    if m:
        letters = re.findall(r"[A-Z]", m.group(1))
        for joined in (". ".join(letters) + ". ", ".".join(letters) + ". ", "".join(letters) + " ",
                       " ".join(letters) + " "):
            forms.append(alias[:m.start()] + joined + alias[m.end():].lstrip())
    two = _TWO_NAMES.fullmatch(alias.strip())
    if two:
        forms += [f"{two.group(1)}. {two.group(2)}", f"{two.group(1)} {two.group(2)}"]
    forms = [alias, *forms]
    for spell in (_ampersand, _ize_ise):  # each rule on every form so far: they combine
        forms += [other for form in forms if (other := spell(form)) != form]
    return [f for f in dict.fromkeys(forms) if f != alias]


def _ampersand(text: str) -> str:
    if "&" in text:
        return re.sub(r"\s*&\s*", " and ", text)
    return text.replace(" and ", " & ")


def _ize_ise(text: str) -> str:
    return re.sub(r"(?<=[a-z]{3})i([sz])(ation|ations|e|es|ed|ing)\b",
                  lambda e: "i" + ("z" if e.group(1) == "s" else "s") + e.group(2), text)


# the question asks for a person: "Who wrote ...?", "Which author ...?"
_WHO = re.compile(r"\W*(?:who|whom|whose|which (?:person|author|writer|painter|composer|scientist|"
                  r"president|king|queen|emperor|artist|poet|inventor|explorer|player))\b",
                  re.IGNORECASE)
_NOT_SURNAMES = frozenset("jr jr. sr sr. ii iii iv the of and von van der de da".split())


def surname(alias: str, question: str) -> str | None:
    """The last word of a person's name of two to four words ("Jane Austen": "Austen"),
    when `question` asks for a person (`_WHO`: "Who wrote ...?"): a reader takes the
    surname alone for the person. None for other questions ("New York" for "Which city?"
    is never "York"), one-word aliases, and last words such as "Jr." or shorter than 4."""
    words = alias.split()
    if not _WHO.match(question or "") or not 2 <= len(words) <= 4:
        return None
    last = words[-1]
    if len(last) < 4 or last.lower() in _NOT_SURNAMES or not re.fullmatch(r"[^\W\d_][\w'-]*", last):
        return None
    return last


def spellings(aliases: list[str], question: str = "") -> list[str]:
    """`aliases` followed by the other spellings of each (dates, initials, "&", -ize/-ise,
    and the surname alone when `question` asks for a person), without repeats; the aliases
    keep their order and come first."""
    out = list(aliases)
    for alias in aliases:
        if isinstance(alias, str):
            out += date_spellings(alias) + name_spellings(alias)
            last = surname(alias, question)
            out += [last] if last else []
    return list(dict.fromkeys(out))
