"""Text folding shared by every free-text and field reader: Unicode compatibility forms,
typographic quotes, zero-width characters, and words that mix Latin letters with Cyrillic or
Greek look-alikes (a look-alike letter hid a denial, "It's n\u043et Paris", from the
matchers, and a typographic apostrophe an abstention). Standard library only.
"""

from __future__ import annotations

import re
import unicodedata

from rlvr.rewards.answers.numbers import NFKC_SAFE_NUMBERS

_LOOK_ALIKE = str.maketrans(
    "\u0430\u0435\u043e\u0440\u0441\u0443\u0445\u0456\u0458\u0455\u0501\u051b\u051d\u04bb\u04cf"
    "\u0410\u0412\u0415\u041a\u041c\u041d\u041e\u0420\u0421\u0422\u0425\u0423\u0406\u0408\u0405"
    "\u03bf\u03c1\u03bd\u03b9\u03ba\u03b1\u0391\u0392\u0395\u0396\u0397\u0399\u039a\u039c\u039d"
    "\u039f\u03a1\u03a4\u03a5\u03a7",
    "aeopcyxijsdqwhlABEKMHOPCTXYIJSopvikaABEZHIKMNOPTYX")
_WORD = re.compile(r"[^\W\d_]+")
_LATIN = re.compile(r"[A-Za-z]")
_OTHER = re.compile(r"[\u0370-\u03ff\u0400-\u052f]")


def unmix_scripts(text: str) -> str:
    """`text` with each word that mixes ASCII Latin letters and Cyrillic/Greek letters
    read in Latin look-alikes ("n\u043et" -> "not"); other words unchanged."""
    if not _OTHER.search(text):
        return text
    return _WORD.sub(lambda m: m.group().translate(_LOOK_ALIKE)
                     if _LATIN.search(m.group()) and _OTHER.search(m.group()) else m.group(), text)


_QUOTES = str.maketrans({
    "\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u201b": "'", "\u2032": "'", "\u00b4": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
    "\u00ab": '"', "\u00bb": '"', "\u3002": ".", "\uff61": ".", "\u3001": ",", "`": "'",
    "\u200b": None, "\u200c": None, "\u200d": None, "\u2060": None, "\ufeff": None,
    "\u00ad": None,
    **NFKC_SAFE_NUMBERS,  # "5\u00b2" is 5^2 and "2\u00bd" 2 1/2 through NFKC (never 52, 21/2)
})


def fold(text: str) -> str:
    """`text` with Unicode compatibility forms (NFKC) and typographic quotes folded.

    Curly apostrophes, primes, the acute accent and the backtick become "'" (before NFKC,
    which would split the acute accent into a space and a combining mark), curly and angle
    quotation marks become '"', the ideographic full stop and comma become "." and ",",
    and zero-width characters and soft hyphens are removed; a word mixing Latin letters with
    Cyrillic or Greek look-alikes is read in Latin (`unmix_scripts`). ASCII
    text without a backtick is returned unchanged (fast path).
    """
    if text.isascii():
        return text.replace("`", "'") if "`" in text else text
    return unmix_scripts(unicodedata.normalize("NFKC", text.translate(_QUOTES)).translate(_QUOTES))
