"""Other spellings of one gold answer, added to the aliases before matching.

A gold alias names one thing; a response may spell it another way that any reader takes
for the same thing. Each rule here writes such spellings out, so the matching rules
(denials, lists, retractions: `answers.match`, `qa`) apply to them unchanged:

| alias | also matches | rule |
|---|---|---|
| "July 20, 1969" (any order, full or short month name, ordinals) | "20 July 1969", "the 20th of July 1969", "July 20th, 1969", "1969-07-20", "20/07/1969", "07/20/1969", "20.07.1969" | **a full date is the same date in every common format** (`date_spellings`); a slashed date is read day-first and month-first, as both are in use |
| "J. R. R. Tolkien", "J.R.R. Tolkien" | "J.R.R. Tolkien", "J. R. R. Tolkien", "JRR Tolkien" | **initials** with or without spaces and points |
| "Usain Bolt" (two capitalised words) | "U. Bolt" | the first name as its initial |
| "United States of America", "New York City" | "USA", "U.S.A.", "NYC" | **the initials of a name** of three or more capitalised words (minor words skipped), unless they spell a common word ("WHO": `qa` drops the points, so "W.H.O." would match "who") |
| "Scientific and Cultural" | "Scientific & Cultural" | "and" and "&" |
| "Organization", "realise" | "Organisation", "realize" | British and American "-ize"/"-ise" endings |
| "Louis XVI", "13th Amendment" | "Louis the Sixteenth", "Thirteenth Amendment", "Amendment XIII" | **ordinal and regnal numbers** 1-39 in words, digits and Roman numerals (`ordinal_spellings`) |
| "Jane Austen", asked "Who wrote ...?" | "Austen" | the surname alone, only when the question asks for a person (`surname`) |

What is never added: a spelling that drops a word for any other question ("York" for "New
York"), a translation or transliteration, a near-miss letter ("Dostoevsky" for
"Dostoyevsky": "Colombia" and "Columbia" differ by one letter too).

Standard library only. Tests: tests/test_answer_spellings.py.
"""

from __future__ import annotations

import re

from rlvr.rewards.answers.aliases import dataset_forms

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


def dates_in(text: str) -> list[tuple[int, int, tuple[int, int, int]]]:
    """Every full date written in `text` with a month name or in ISO form, as (start, end,
    (year, month, day)), in order ("released on November 8, 2013" gives one)."""
    found = []
    for pattern in _DATES:
        for m in re.finditer(rf"(?<!\w){pattern.pattern}(?!\w)", text, re.IGNORECASE):
            date = full_date(m.group())
            if date is not None and not any(s <= m.start() < e for s, e, _ in found):
                found.append((m.start(), m.end(), date))
    return sorted(found)


def other_date(text: str, year: str, aliases: list[str]) -> str | None:
    """The full date (ISO form) when `year` (a four-digit alias that matched) is written in
    `text` only inside full dates and none of them is a full date among `aliases` ("released
    on November 8, 2013" for "November 27, 2013" / "2013": the response gives another
    date, not the year); None when an alias has no full date, or the year stands alone."""
    if not re.fullmatch(r"\d{4}", year):
        return None
    golds = {full_date(a) for a in aliases} - {None}
    if not golds:
        return None
    dates = dates_in(text)
    inside = [next((d for s, e, d in dates if s <= m.start() < e), None)
              for m in re.finditer(rf"(?<!\d){year}(?!\d)", text)]
    if inside and all(d is not None and d not in golds for d in inside):
        return "{}-{:02d}-{:02d}".format(*inside[0])
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


_MINOR_WORDS = frozenset("of the and for in on at to de du des la le".split())
# common words an acronym may spell: never added without its points ("WHO" for the World
# Health Organization would match "who")
_WORDS = frozenset("""who can was its man men our you she her his him the and for not are but all
any had has how new now old one out see two way use may say did get got let put too own why
yes yet art act age air arm bad bag bar bed big bit box boy bus car cat cup cut day dog ear eat
egg end eye far fat few fly fun gas god gun guy hat hit hot ice job key kid law lay leg lie
lot low map mix net nor oil pay pen pet pig pop red run sad sea set sit six sky son sun tax
tea ten tie top toy try war wet win won that this when what with from have were will more
some like time also than then them they been into only over such just most make made""".split())


def acronym(alias: str) -> str | None:
    """The initials of a name of three or more capitalised words ("United States of America":
    "USA", "New York City": "NYC"); minor words (of, the, and) are skipped. None otherwise."""
    words = [w for w in re.split(r"[\s-]+", alias.strip()) if w]
    main = [w for w in words if w.lower() not in _MINOR_WORDS]
    if len(main) < 3 or not all(re.fullmatch(r"[A-Z][a-z]+", w) for w in main):
        return None  # two words are a person's name as often ("JA" is not Jane Austen)
    return "".join(w[0] for w in main)


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
    initials = acronym(alias)
    if initials and initials.lower() not in _WORDS:  # "WHO" would match "who" (qa drops points)
        forms += [".".join(initials) + ".", initials]
    two = _TWO_NAMES.fullmatch(alias.strip())
    if two and two.group(1) not in "AI":  # "A. Ocean" would read as "ocean" (an article)
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


_ORDINALS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
             "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth").split()
_TENS_ORD = {20: ("twentieth", "twenty"), 30: ("thirtieth", "thirty")}
_ROMAN = re.compile(r"(?<![\w.])(X{0,3})(IX|IV|V?I{0,3})(?![\w.])")
_ORDINAL_NUMBER = re.compile(r"(?<![\w.])(\d{1,2})(?:st|nd|rd|th)(?![\w])", re.IGNORECASE)


def _ordinal_word(n: int) -> str | None:
    if 1 <= n <= 19:
        return _ORDINALS[n - 1]
    if n in _TENS_ORD:
        return _TENS_ORD[n][0]
    if 21 <= n <= 39:
        return f"{_TENS_ORD[n // 10 * 10][1]}-{_ORDINALS[n % 10 - 1]}"
    return None


def _roman(n: int) -> str:
    return "X" * (n // 10) + ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"][n % 10]


def ordinal_spellings(alias: str) -> list[str]:
    """A regnal or ordinal number in its other forms, 1-39: "Louis XVI" -> "Louis the
    Sixteenth", "Louis 16th"; "13th Amendment" -> "Thirteenth Amendment", "Amendment XIII",
    "XIII Amendment", "Amendment 13"."""
    forms = []
    for m in _ROMAN.finditer(alias):
        if not m.group(0) or m.start() == 0:
            continue  # a Roman numeral after a name only ("Louis XVI", not "I")
        n = 10 * len(m.group(1)) + {"": 0, "I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6,
                                    "VII": 7, "VIII": 8, "IX": 9}[m.group(2)]
        word = _ordinal_word(n)
        if word and n >= 2:
            head, tail = alias[:m.start()].rstrip(), alias[m.end():]
            forms += [f"{head} the {word.capitalize()}{tail}", f"{head} {_ordinal(n)}{tail}",
                      f"{head} {n}{tail}"]
    m = _ORDINAL_NUMBER.search(alias)
    if m:
        n = int(m.group(1))
        word = _ordinal_word(n)
        rest = (alias[:m.start()] + alias[m.end():]).strip()
        if word and rest:
            forms += [alias[:m.start()] + word.capitalize() + alias[m.end():],
                      f"{rest} {_roman(n)}", f"{_roman(n)} {rest}", f"{rest} {n}"]
    return forms


# the words of place names written short: "Mt. Everest", "St. Louis", "Ft. Worth"
_ABBREVIATED = {"mount": "Mt", "saint": "St", "fort": "Ft", "mountains": "Mts"}
_ABBREVIATION = re.compile(r"(?<![^\W\d_])(Mount|Saint|Fort|Mountains)(?=\s+[A-Z])", re.IGNORECASE)
_WHOLE = {short: word.capitalize() for word, short in _ABBREVIATED.items()}  # "Mt" -> "Mount"
_SHORT = re.compile(r"(?<![^\W\d_])(Mt|St|Ft|Mts)\.?(?=\s+[A-Z])")


def abbreviation_spellings(alias: str) -> list[str]:
    """A place name with its title word written short or whole: "Mount Everest" ->
    "Mt Everest", "Mt. Everest"; "St. Louis" -> "Saint Louis" (only before a capitalised
    name, so "Mount" in "amount" or a lone "Fort" is left alone)."""
    out = []
    if _ABBREVIATION.search(alias):
        for dot in ("", "."):
            out.append(_ABBREVIATION.sub(lambda m: _ABBREVIATED[m.group(1).lower()] + dot, alias))
    if _SHORT.search(alias):
        out.append(_SHORT.sub(lambda m: _WHOLE[m.group(1)], alias))
    return [o for o in out if o != alias]


def spellings(aliases: list[str], question: str = "") -> list[str]:
    """`aliases` followed by the names a dataset's conventions hide (`answers.aliases`:
    qualifiers, "X or Y", inverted names, titles, descriptors, middle names, numbers in
    words, currency signs) and the other spellings of each (dates, initials, "&", -ize/-ise,
    "Mt."/"Mount" and the other short title words of places, and the surname alone when
    `question` asks for a person), without repeats; the aliases keep their order and come
    first."""
    out = list(aliases)
    for alias in aliases:  # the names a dataset's conventions hide (`answers.aliases`)
        out += dataset_forms(alias) if isinstance(alias, str) else []
    for alias in list(dict.fromkeys(out)):
        if isinstance(alias, str):
            out += date_spellings(alias) + name_spellings(alias) + ordinal_spellings(alias) \
                + abbreviation_spellings(alias)
            last = surname(alias, question)
            out += [last] if last else []
    return list(dict.fromkeys(out))
