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


# Struck-out text: the response took it back, so no reader may read it as said.
_STRUCK_TAG = re.compile(r"<\s*(del|s|strike)(?:\s[^>]*)?>(.*?)(?:<\s*/\s*\1\s*>|$)",
                         re.IGNORECASE | re.DOTALL)
_STRUCK_SPAN = re.compile(r"<\s*(span|div|p)\b[^>]*line-through[^>]*>(.*?)(?:<\s*/\s*\1\s*>|$)",
                          re.IGNORECASE | re.DOTALL)
_STRUCK_MD = re.compile(r"(?<!~)~~(?=[^\s~])(.+?)(?<=\S)~~(?!~)", re.DOTALL)  # GFM: closed
_STRUCK_LATEX = re.compile(r"\\(?:sout|st|xout|[bx]?cancel|hcancel|cancelto)(?![a-zA-Z])\s*")
_STRUCK_MARKS = re.compile(r".[\u0334-\u0338\u20d2\u20e5]+", re.DOTALL)


def drop_stroked(text: str) -> str:
    """`text` without the characters overlaid with a combining stroke ("4\u03362\u0336" -> ""):
    a struck-out character in any notation, LaTeX included (where `unstrike` would also
    remove `\\cancel`, which algebra uses for cancelling factors)."""
    return _STRUCK_MARKS.sub("", text) if not text.isascii() else text


def unstrike(text: str) -> str:
    """`text` without the parts it strikes out: HTML `<del>`, `<s>`, `<strike>` (any
    attributes, any case; unclosed: to the end), an element styled `line-through`, Markdown
    `~~...~~` (closed, as GitHub reads it), the LaTeX commands `\\sout`, `\\st`, `\\cancel`, `\\bcancel`, `\\xcancel`,
    `\\hcancel` (with their braced argument) and `\\cancelto` (both arguments), and
    characters overlaid with a combining stroke ("4\u03362\u0336"). A struck-out value was taken
    back: "It is ~~Paris~~ Rome" says Rome, "#### <del>42</del>" says nothing.
    Removing one strike can join the text around it into another ("<s<s></s>" leaves
    "<s </s>", a tag again), so it runs until nothing more is struck: a second call
    changes nothing.
    """
    for _ in range(8):  # each pass only removes text: a fixed point comes in a few passes
        done = _unstrike_once(text)
        if done == text:
            break
        text = done
    return text


def _unstrike_once(text: str) -> str:
    """One pass of `unstrike`."""
    if not ("<" in text or "~~" in text or "\\" in text or not text.isascii()):
        return text
    text = drop_stroked(text)
    text = _STRUCK_SPAN.sub(" ", _STRUCK_TAG.sub(" ", text))
    text = _STRUCK_MD.sub(" ", text)
    out, pos = [], 0
    for match in _STRUCK_LATEX.finditer(text):
        if match.start() < pos:
            continue
        out.append(text[pos:match.start()])
        pos = match.end()
        for _ in range(2 if match.group().rstrip().endswith("cancelto") else 1):
            pos = _skip_group(text, pos)
    out.append(text[pos:])
    return "".join(out)


def _skip_group(text: str, pos: int) -> int:
    """The index after the braced group starting at `text[pos]` (spaces skipped; an
    unbalanced group runs to the end); `pos` itself when no group starts there."""
    while pos < len(text) and text[pos] == " ":
        pos += 1
    if pos >= len(text) or text[pos] != "{":
        return pos
    depth = 0
    for i in range(pos, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return i + 1
    return len(text)


def fold(text: str) -> str:
    """`text` with Unicode compatibility forms (NFKC) and typographic quotes folded.

    Curly apostrophes, primes, the acute accent and the backtick become "'" (before NFKC,
    which would split the acute accent into a space and a combining mark), curly and angle
    quotation marks become '"', the ideographic full stop and comma become "." and ",",
    and zero-width characters and soft hyphens are removed; a word mixing Latin letters with
    Cyrillic or Greek look-alikes is read in Latin (`unmix_scripts`); struck-out parts are
    removed first (`unstrike`). ASCII text without a backtick is otherwise returned
    unchanged (fast path).
    """
    text = unstrike(text)
    if text.isascii():
        return text.replace("`", "'") if "`" in text else text
    return unmix_scripts(unicodedata.normalize("NFKC", text.translate(_QUOTES)).translate(_QUOTES))
