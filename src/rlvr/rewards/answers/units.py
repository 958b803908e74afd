"""Units of measure after a math answer: read, then compared, never dropped.

math-verify's unit rule strips unit words after a number (`5\\text{ cm}` is 5), and a
plain-text number is read without the words after it, so an answer in centimetres was
paid against a gold in metres, kilometres against metres, hours against minutes. Here the
unit right after an answer is read into a `Unit` (its dimension, its size in the
dimension's base unit as an exact fraction, and a power for areas and volumes), and the
`math` reward compares a response with a gold that states a unit as follows:

- both state known units of one dimension: the response's value is converted into the
  gold's unit exactly (150 cm against 1.5 m is 1.5 m) and compared as usual;
- both state known units of different dimensions (cm against hours), or of one dimension at
  different powers (cm against cm^2): `wrong`; so is a converted value that is not a single
  number (a tuple in other units);
- either states no unit, or a word that is not a known unit (`5 apples`): the values are
  compared as before (a GSM8K gold is a bare number; its unit is in the question).

Volumes in litres are cubic lengths (1 l = 1 dm^3, so 5 ml is 5 cm^3). Hectares and acres are areas. A
compound unit (`km/h`, `metres per second`) is a kind of its own: it matches only the same
compound, never a length or a time. A unit in brackets (`70 (kg)`) counts, and so does a
dollar sign before the number (`\\$5`, "$5": dollars). A unit is one of
`UNITS` (SI prefixes of the metre, gram, litre and second that are in
common use, imperial lengths and masses, time up to weeks, money in dollars and cents),
under its symbol or its name, singular or plural, in text, `\\text{}`, `\\mathrm{}` or
`\\,`-spaced LaTeX, optionally squared or cubed (`m^2`, `\\text{cm}^3`, `square metres`,
`cubic feet`, `sq ft`). Months and years (their length varies) are not read: such answers
compare as before. A single letter is a unit only after
a number (`5 m` is five metres; `m` alone is not read): `m` is the metre (minutes are `min`),
`s` the second, `h` the hour, `g` the gram, `l`/`L` the litre.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction


@dataclass(frozen=True)
class Unit:
    """A unit: `dimension` ("length", "mass", "volume", "time", "money"), `size` (in the
    dimension's base unit: metre, gram, litre, second, dollar; exact), `power` (1, 2 for
    areas, 3 for volumes of lengths) and `name` (as canonical text, e.g. "cm^2")."""

    dimension: str
    size: Fraction
    power: int
    name: str
    written: str = field(default="", compare=False)  # the word as written (`kg`, `ounces`)


_BASE = {
    # length, in metres
    "mm": ("length", Fraction(1, 1000), "millimeter millimetre"),
    "cm": ("length", Fraction(1, 100), "centimeter centimetre"),
    "dm": ("length", Fraction(1, 10), "decimeter decimetre"),
    "m": ("length", Fraction(1), "meter metre"),
    "km": ("length", Fraction(1000), "kilometer kilometre"),
    "inch": ("length", Fraction(254, 10000), "inches"),  # not "in": "5 in total"
    "ft": ("length", Fraction(3048, 10000), "foot feet"),
    "yd": ("length", Fraction(9144, 10000), "yard"),
    "mi": ("length", Fraction(1609344, 1000), "mile"),
    # mass, in grams
    "mg": ("mass", Fraction(1, 1000), "milligram"),
    "g": ("mass", Fraction(1), "gram gm"),
    "kg": ("mass", Fraction(1000), "kilogram kilo"),
    # "pound" is also money (GBP); as a unit here it is a mass, so it converts only
    # against a mass gold, and against a bare gold the values compare as before
    "lb": ("mass", Fraction(45359237, 100000), "lbs pound"),
    "tonne": ("mass", Fraction(10 ** 6), "tonnes"),  # not "ton": short, long or metric
    "oz": ("mass", Fraction(45359237, 1600000), "ounce"),
    # volume, in litres
    "ml": ("volume", Fraction(1, 1000), "milliliter millilitre"),
    "cl": ("volume", Fraction(1, 100), "centiliter centilitre"),
    "l": ("volume", Fraction(1), "liter litre"),
    # time, in seconds
    "ms": ("time", Fraction(1, 1000), "millisecond"),
    "s": ("time", Fraction(1), "second sec secs"),
    "min": ("time", Fraction(60), "minute mins"),
    "h": ("time", Fraction(3600), "hour hr hrs"),
    "day": ("time", Fraction(86400), "days"),
    "week": ("time", Fraction(604800), "wk weeks"),
    # money, in dollars
    "dollar": ("money", Fraction(1), "usd"),
    "cent": ("money", Fraction(1, 100), "cents"),
}

UNITS: dict[str, tuple[str, Fraction]] = {symbol: (dimension, size)
                                          for symbol, (dimension, size, _) in _BASE.items()}
_CANONICAL = {word: symbol for symbol, (_, _, names) in _BASE.items()
              for word in (symbol, *names.split())}
WORDS = frozenset(_CANONICAL)  # every unit word read here (math_kinds.UNIT_WORDS has them)
_LETTERS = frozenset("msghl")  # single letters read as units only right after a number

_LATEX = re.compile(r"\\(?:text|mathrm|textrm|rm|operatorname|mbox)\s*")
_SPACING = re.compile(r"\\[,;:! ]|~|\\quad|\\qquad")
_AREAS = {"ha": Fraction(10000), "hectare": Fraction(10000), "hectares": Fraction(10000),
          "acre": Fraction(40468564224, 10 ** 7), "acres": Fraction(40468564224, 10 ** 7)}
_TAIL = re.compile(
    r"\s*\(?\s*(?P<pre>square|sq\.?|cubic|cu\.?)?\s*(?P<word>[A-Za-z]+)\.?"
    r"(?:\s*\^\s*\{?\s*(?P<power>[23])\s*\}?|(?P<sup>[\u00b2\u00b3]))?"
    r"(?P<after>\s*/|\s+per\b|[\^A-Za-z0-9])?")


def _canonical(word: str) -> str | None:
    lower = word.lower()
    if lower in _CANONICAL:
        return _CANONICAL[lower]
    for suffix in ("es", "s"):
        if lower.endswith(suffix) and lower[:-len(suffix)] in _CANONICAL \
                and len(lower) > 2:
            return _CANONICAL[lower[:-len(suffix)]]
    return None


def clean_latex(text: str) -> str:
    """`text` with LaTeX text commands, braces and spacing commands removed
    (`\\text{ cm}^{2}` -> ` cm^2`)."""
    text = _SPACING.sub(" ", _LATEX.sub("", text))
    text = re.sub(r"\^\s*\{\s*([23])\s*\}", r"^\1", text)
    return text.replace("{", " ").replace("}", " ")


def read_unit(after: str) -> Unit | None:
    """The unit that `after` (the text right after a number) starts with, or None.

    Args:
        after: text following the number, plain or LaTeX (`" cm."`, `"\\text{ km}"`,
            `"\\,\\mathrm{m}^2"`, `" square feet"`).
    Returns:
        a `Unit`, or None: no word, a word that is not in `UNITS`, a compound unit (`km/h`,
        `per hour`, `m s`), months or years.
    """
    text = clean_latex(after)
    m = _TAIL.match(text)
    if m is None:
        return None
    written = m.group("word").lower()
    if m.group("after"):
        if m.group("after").strip() in ("/", "per") and _canonical(written) is not None:
            rest = re.match(r"\s*(?:/|per\b)\s*([A-Za-z]+)", text[m.start("after"):])
            if rest is not None:  # km/h, metres per second: its own kind, never a length
                name = f"{_canonical(written)}/{_canonical(rest.group(1)) or rest.group(1).lower()}"
                return Unit("compound " + name, Fraction(1), 1, name, written)
        return None
    if written in _AREAS and not m.group("pre") and not (m.group("power") or m.group("sup")):
        return Unit("length", _AREAS[written], 2, written.rstrip("s") if written != "ha"
                    else "ha", written)
    symbol = _canonical(m.group("word"))
    if symbol is None or (len(m.group("word")) == 1 and m.group("word").lower() not in _LETTERS):
        return None
    dimension, size = UNITS[symbol]
    power = 1
    if m.group("power") or m.group("sup"):
        power = int(m.group("power") or {"\u00b2": 2, "\u00b3": 3}[m.group("sup")])
    prefix = (m.group("pre") or "").lower().rstrip(".")
    if prefix in ("square", "sq"):
        power = 2
    elif prefix in ("cubic", "cu"):
        power = 3
    if power > 1 and dimension != "length":
        return None
    name = symbol if power == 1 else f"{symbol}^{power}"
    if dimension == "volume":  # a litre is a cubic decimetre: ml and cm^3 compare
        return Unit("length", size / 1000, 3, name, written)
    return Unit(dimension, size ** power, power, name, written)


def conversion(source: Unit, target: Unit) -> Fraction | None:
    """The factor that turns a value in `source` into `target` (exact), or None when they
    measure different things (another dimension or power)."""
    if source.dimension != target.dimension or source.power != target.power:
        return None
    return source.size / target.size


# a quantity in two units of one dimension: "2 hours 30 minutes", "1 hour and 15 minutes",
# "3 kg 200 g" (no comma between: "3 kg, 200 g" may be two values)
_MIXED = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*([A-Za-z]+)\.?\s+(?:and\s+)?"
                    r"(\d+(?:\.\d+)?)\s*(?=[A-Za-z])")


def merge_mixed(text: str) -> str:
    """`text` with each quantity written in two units of one dimension, the larger first,
    as one number in the smaller unit ("2 hours 30 minutes" -> "150 minutes", "5 feet 6
    inches" -> "66 inches"), exactly (a value that is not whole is written as a decimal when it ends,
    else left as it was). Read as written, only the last number (30 minutes) was the answer.
    Pairs of another dimension, or the smaller unit first ("30 minutes 2 hours"), are kept.
    """
    def merged(m: re.Match) -> str:
        both = _in_two_units(m.group(1), m.group(2), m.group(3), text[m.end(3):m.end(3) + 40])
        if both is None:
            return m.group()
        value = both[1]
        if value.denominator != 1:
            digits = value.limit_denominator(10 ** 6)
            if digits != value or any(p not in (2, 5) for p in _prime_factors(value.denominator)):
                return m.group()
            shown = f"{float(value):.10f}".rstrip("0").rstrip(".")
        else:
            shown = str(value.numerator)
        return shown + " "

    return _MIXED.sub(merged, text)


def _prime_factors(n: int) -> set[int]:
    factors, p = set(), 2
    while p * p <= n:
        while n % p == 0:
            factors.add(p)
            n //= p
        p += 1
    return factors | ({n} if n > 1 else set())


_TWO_UNITS = re.compile(r"\W*(\d+(?:\.\d+)?)\s*([A-Za-z]+)\.?,?\s+(?:and\s+)?(\d+(?:\.\d+)?)"
                        r"\s*([A-Za-z]+)\W*")


def two_unit_values(text: str) -> tuple[Fraction, Fraction] | None:
    """The value of a quantity written in two units of one dimension, the larger first,
    when that is all `text` says ("3 hours and 30 minutes", "5 feet 6 inches"): (in the
    larger unit, in the smaller unit), exactly ((7/2, 210), (11/2, 66)); else None."""
    m = _TWO_UNITS.fullmatch(text.strip())
    return _in_two_units(m.group(1), m.group(2), m.group(3), " " + m.group(4)) if m else None


def _in_two_units(big: str, big_unit: str, small: str, small_unit: str
                  ) -> tuple[Fraction, Fraction] | None:
    """`big big_unit small small_unit` as (value in the larger unit, value in the smaller),
    when both are units of one dimension at power 1 and the first is the larger; else
    None. `small_unit` is the text after the second number (`read_unit` reads its start)."""
    first, second = read_unit(" " + big_unit), read_unit(small_unit)
    if first is None or second is None or first.power != 1 or second.power != 1:
        return None
    factor = conversion(first, second)
    if factor is None or factor <= 1:
        return None
    smaller = Fraction(big) * factor + Fraction(small)
    return smaller / factor, smaller
