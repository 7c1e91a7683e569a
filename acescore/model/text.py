"""Text rules of the NIST tool: display text, name normalisation, language labels.

See docs/rules/input.md §2.5 (display text), §2.12 (name normalisation) and §3.5 (languages).
"Han", "Latin" and "Arabic" are Unicode Script_Extensions, as in Perl 5.36.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from functools import lru_cache

from acescore.model import _scripts
from acescore.model.errors import AceInputError

# Unicode White_Space (Perl's \s); Python's \s also matches U+001C..U+001F, so spell it out.
WS_CHARS = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_WS = "[" + re.escape(WS_CHARS) + "]"
_WS_RUN = re.compile(_WS + "+")
_CRLF_RUN = re.compile(r"[\r\n]+")
# (compiled when first used, by re's cache: a class of characters beyond Latin-1 in more
# than two runs costs ~1.5 M instructions to compile, and few texts have a hyphen at a line
# break)
_DISPLAY_DEHYPHEN = r"(?<=[^" + re.escape(WS_CHARS) + r"])-\n(?=[^" + re.escape(WS_CHARS) + r"])"


def _table(ranges: tuple) -> tuple[list, list]:
    starts = [a for a, _ in ranges]
    ends = [b for _, b in ranges]
    return starts, ends


_TABLES = {name: _table(getattr(_scripts, name)) for name in ("HAN", "LATIN", "ARABIC")}


def _in(script: str, ch: str) -> bool:
    starts, ends = _TABLES[script]
    cp = ord(ch)
    i = bisect.bisect_right(starts, cp) - 1
    return i >= 0 and cp <= ends[i]


def is_han(ch: str) -> bool:
    return _in("HAN", ch)


def is_latin(ch: str) -> bool:
    return _in("LATIN", ch)


def is_arabic(ch: str) -> bool:
    return _in("ARABIC", ch)


@lru_cache(maxsize=65536)
def display_text(raw: str) -> str | None:
    """The display text of a locator (docs/rules/input.md §2.5): CR/LF runs -> one newline, de-hyphenate at
    line ends, whitespace runs -> one space (ends kept as one space), cut to 40 characters.
    Made once per raw text (the listings and the view show a locator in several passes;
    :attr:`acescore.model.apf.Locator.display` computes it when asked)."""
    if not raw or raw == "0":
        return None
    if raw.isprintable() and "  " not in raw:
        # Every white space character but " " is unprintable: no line breaks, no other
        # white space, no runs -- nothing to change but the length.
        return raw if len(raw) <= 40 else raw[:37] + "..."
    t = raw
    if "\r" in t or "\n\n" in t:  # else the CR/LF runs are single newlines already
        t = _CRLF_RUN.sub("\n", t)
    if "-\n" in t:
        t = re.sub(_DISPLAY_DEHYPHEN, "", t)
    u = t.replace("\n", " ")
    # single spaces and line breaks only: each white space character is a run of its own
    t = u if u.isprintable() and "  " not in u else _WS_RUN.sub(" ", t)
    if len(t) > 40:
        t = t[:37] + "..."
    return t


def old_display_text(raw: str) -> str:
    """The display text of the older versions (docs/rules/versions.md §2.2): CR LF -> LF,
    every hyphen at a line end dropped, line breaks -> spaces, white space runs -> one
    space, cut to 40 characters."""
    t = raw.replace("\r\n", "\n").replace("-\n", "").replace("\n", " ")
    t = re.sub(r"\s+", " ", t)
    data = t.encode("utf-8", "surrogateescape")  # (the older scripts count bytes; a cut
    # inside a character keeps its bytes, as surrogates: writing.output writes them back)
    return t if len(data) <= 40 else data[:37].decode("utf-8", "surrogateescape") + "..."


def _lower(s: str) -> str:
    # Perl's lc has no final-sigma rule: every capital sigma becomes U+03C3.
    return s.replace("\u03a3", "\u03c3").lower()


def _join_pairs(
    s: str, sep: str, left_ok: Callable[[str], bool], right_ok: Callable[[str], bool]
) -> str:
    """Left-to-right, non-overlapping removal of ``sep`` standing between two characters
    that satisfy the predicates; the characters on both sides are consumed."""
    out = []
    i = 0
    n = len(s)
    k = len(sep)
    while i < n:
        j = i + k + 1
        if j < n and s.startswith(sep, i + 1) and left_ok(s[i]) and right_ok(s[j]):
            out.append(s[i])
            out.append(s[j])
            i = j + 1
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def _lah(ch: str) -> bool:
    return is_latin(ch) or is_arabic(ch) or is_han(ch)


_AROUND_APOS_HYPHEN = re.compile(_WS + r"*(['\-])" + _WS + "*")


@lru_cache(maxsize=65536)
def normalize_name(s: str) -> str:
    """Name normalisation (docs/rules/input.md §2.12)."""
    s = _lower(s)
    s = _CRLF_RUN.sub("\n", s)
    s = _join_pairs(s, "\n", is_han, is_han)
    s = _join_pairs(s, "-\n", _lah, _lah)
    s = _WS_RUN.sub(" ", s)
    s = s.strip(WS_CHARS)
    s = _AROUND_APOS_HYPHEN.sub(r"\1", s)
    if s.endswith("."):
        s = s[:-1]
    return s


@lru_cache(maxsize=65536)
def classify_language(text: str | None) -> str:
    """Language of a text (docs/rules/input.md §3.5): Arabic, Chinese, English, MIXED or UNKNOWN."""
    if not text:
        return "UNKNOWN"
    if text.isascii():
        # the only ASCII characters that have case are the Latin letters
        return "English" if text.lower() != text.upper() else "UNKNOWN"
    ar = han = lat = False
    for ch in text:
        if ch < "\u0080":
            if ("a" <= ch <= "z") or ("A" <= ch <= "Z"):
                lat = True
            continue
        if not ar and is_arabic(ch):
            ar = True
        if not han and is_han(ch):
            han = True
        if not lat and is_latin(ch):
            lat = True
    if ar:
        return "MIXED" if (han or lat) else "Arabic"
    if han:
        return "MIXED" if lat else "Chinese"
    if lat:
        return "English"
    return "UNKNOWN"


def locator_language(raw: str) -> str:
    """``classify_language(display_text(raw))``: the language of a locator's display text.
    An ASCII text that starts with a Latin letter is English without making its display
    text (the display keeps the first character and adds no other letters: docs/rules/input.md §2.5)."""
    if raw and raw.isascii() and raw[0].isalpha():
        return "English"
    return classify_language(display_text(raw))


def decode_utf8(data: bytes, path: str, what: str) -> str:
    """Decode a whole file as UTF-8; on bad bytes an AceInputError naming the line and byte
    (``what``: e.g. "APF files", for the message "... APF files must be UTF-8")."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise AceInputError(
            f"not valid UTF-8 (byte 0x{data[e.start]:02x} at offset {e.start});"
            f" {what} must be UTF-8",
            path,
            line,
        ) from None
