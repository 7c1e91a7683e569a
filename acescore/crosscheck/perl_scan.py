"""A small Perl lexer: where a Perl script walks a hash with ``keys``, ``values`` or ``each``.

It knows enough Perl to skip what is not code (comments, POD, quoted strings, ``q``/``qq``/
``qw``/``qr``/``m``/``s``/``tr``/``y`` quote-like operators, ``/regex/`` literals, ``$#``) and
to tell the builtin ``keys``/``values``/``each`` from a variable (``$values``), a method
(``->keys``), a bareword hash key (``{keys}``, ``keys =>``) or a package name.  For each
traversal it records the subroutine it is in, its ordinal among the traversals of the same
kind in that subroutine (1-based, in file order), the hash expression it walks (``%h``,
``%$h``, ``%{...}``, optionally in parentheses) and, for ``each``, whether it is the head of
a ``while (my ($k, $v) = each ...) {`` loop.

Nothing here is specific to one script; :mod:`acescore.crosscheck.rewriter` applies the
per-version rule tables of :mod:`acescore.crosscheck.versions` to what it finds.
"""

from __future__ import annotations

import re

from acescore.model.records import dataclass

KINDS = ("keys", "values", "each")
QUOTE_OPS = {"q": 1, "qq": 1, "qw": 1, "qr": 1, "m": 1, "s": 2, "tr": 2, "y": 2}
CLOSE = {"(": ")", "[": "]", "{": "}", "<": ">"}
# after these (ignoring spaces) a '/' starts a regex, not a division
REGEX_AFTER_CHARS = set("(,=!~{;&|?:+-*<>[^.")
REGEX_AFTER_WORDS = {
    "split",
    "if",
    "unless",
    "and",
    "or",
    "not",
    "return",
    "grep",
    "map",
    "while",
    "until",
    "x",
    "lt",
    "gt",
    "le",
    "ge",
    "eq",
    "ne",
    "cmp",
}
WORD = re.compile(r"[A-Za-z_]\w*(?:::\w+)*")
# while (my ($k, $v) = each ...) {   or   while ((my $k, my $v) = each ...) {
EACH_HEAD_BEFORE = re.compile(
    r"while\s*\(\s*(?:my\s*\(\s*(\$\w+)\s*,\s*(\$\w+)\s*\)"
    r"|\(\s*my\s+(\$\w+)\s*,\s*my\s+(\$\w+)\s*\))\s*=\s*$"
)
EACH_HEAD_AFTER = re.compile(r"[ \t]*\)[ \t]*\{")


class PerlScanError(ValueError):
    pass


@dataclass
class Traversal:
    kind: str  # keys | values | each
    sub: str  # enclosing named subroutine, "(main)" outside any
    ordinal: int  # 1-based among traversals of this kind in this subroutine
    start: int  # offset of the keyword
    end: int  # offset just after the hash expression (and its parentheses)
    expr: str  # the hash expression, starting with '%' (or '@' for arrays)
    line: int  # 1-based line of the keyword
    loop: tuple | None = None  # each: (start, end, key_var, value_var) of the loop head

    @property
    def is_hash(self) -> bool:
        return self.expr.startswith("%")


@dataclass
class Scan:
    text: str
    subs: dict  # name -> (start, end) offsets
    traversals: list
    code_end: int  # offset of __END__/__DATA__ (or len(text))

    def census(self) -> dict:
        """{sub: {kind: count}} of every traversal found."""
        out: dict = {}
        for t in self.traversals:
            out.setdefault(t.sub, {}).setdefault(t.kind, 0)
            out[t.sub][t.kind] += 1
        return out

    def find(self, sub: str, kind: str, ordinal: int) -> Traversal | None:
        for t in self.traversals:
            if (t.sub, t.kind, t.ordinal) == (sub, kind, ordinal):
                return t
        return None


def _skip_delimited(text: str, i: int, open_ch: str) -> int:
    """``i`` is just after an opening delimiter; return the offset after its closer
    (bracketing delimiters nest, backslashes escape)."""
    close = CLOSE.get(open_ch, open_ch)
    depth = 1
    n = len(text)
    start = i
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == close:
            depth -= 1
            if depth == 0:
                return i + 1
        elif c == open_ch:
            depth += 1
        i += 1
    raise PerlScanError(f"unterminated quoted text from offset {start}")


def _prev_significant(text: str, i: int) -> tuple[str, str]:
    """The last non-space character before ``i`` and the word ending there (if any)."""
    j = i - 1
    while j >= 0 and text[j] in " \t\r\n":
        j -= 1
    if j < 0:
        return "", ""
    if text[j].isalnum() or text[j] == "_":
        k = j
        while k >= 0 and (text[k].isalnum() or text[k] == "_"):
            k -= 1
        return text[j], text[k + 1 : j + 1]
    return text[j], ""


def _hash_expr_end(text: str, i: int) -> int:
    """``text[i]`` is '%' or '@': the end of the variable or dereference that follows."""
    j = i + 1
    n = len(text)
    while j < n and text[j] == "$":
        j += 1
    if j < n and text[j] == "{":
        depth = 0
        while j < n:
            c = text[j]
            if c in "\"'":
                j = _skip_delimited(text, j + 1, c)
                continue
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    return j + 1
            j += 1
        raise PerlScanError("unbalanced braces in a hash expression")
    m = WORD.match(text, j)
    if not m:
        raise PerlScanError(f"no hash after {text[i : i + 20]!r}")
    return m.end()


def scan(text: str) -> Scan:
    subs: dict = {}
    travs: list = []
    n = len(text)
    i = 0
    depth = 0
    sub_stack: list = []  # (name, depth at which its body opened, start)
    pending_sub = None  # (name, start) seen 'sub NAME', waiting for its '{'
    line_start = True
    code_end = n
    counts: dict = {}
    while i < n:
        c = text[i]
        if line_start:
            if c == "=" and re.match(r"=[A-Za-z]", text[i : i + 2]):
                m = re.compile(r"^=cut\b.*$", re.MULTILINE).search(text, i)
                i = n if not m else m.end()
                continue
            if text.startswith("__END__", i) or text.startswith("__DATA__", i):
                code_end = i
                break
        line_start = False
        if c == "\n":
            line_start = True
            i += 1
            continue
        if c in " \t\r":
            i += 1
            continue
        if c == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if c in "\"'`":
            i = _skip_delimited(text, i + 1, c)
            continue
        if c == "$" and i + 1 < n and text[i + 1] == "#":
            i += 2
            continue
        if c in "$@%&" and i + 1 < n and (text[i + 1].isalpha() or text[i + 1] == "_"):
            m = WORD.match(text, i + 1)
            i = m.end()
            continue
        if c == "$" and i + 1 < n and text[i + 1] in "\"'`;&/\\,.0123456789!@":
            i += 2  # punctuation variables ($", $', $&, $/, $1 ...)
            continue
        if c == "/":
            pc, pw = _prev_significant(text, i)
            if pc == "" or pc in REGEX_AFTER_CHARS or (pw and pw in REGEX_AFTER_WORDS):
                i = _skip_delimited(text, i + 1, "/")
                while i < n and text[i].isalpha():
                    i += 1
                continue
            i += 1
            continue
        if c == "{":
            depth += 1
            if pending_sub:
                sub_stack.append((pending_sub[0], depth, pending_sub[1]))
                pending_sub = None
            i += 1
            continue
        if c == "}":
            if sub_stack and sub_stack[-1][1] == depth:
                name, _, start = sub_stack.pop()
                subs[name] = (start, i + 1)
            depth -= 1
            i += 1
            continue
        if c == ";" and pending_sub:
            pending_sub = None  # a forward declaration
        if c.isalpha() or c == "_":
            m = WORD.match(text, i)
            word = m.group(0)
            j = m.end()
            pc, _ = _prev_significant(text, i)
            after = text[j : j + 40].lstrip()
            prev2 = text[max(0, i - 2) : i]
            method = prev2 == "->" or (pc != "" and pc in "$@%&")
            hash_key = (pc == "{" and after.startswith("}")) or after.startswith("=>")
            if method or hash_key:
                i = j
                continue
            if word in QUOTE_OPS and text[i - 1 : i] != "-":
                k = j
                while k < n and text[k] in " \t":
                    k += 1
                if k < n and not (text[k].isalnum() or text[k] in "_,;)=" or text[k].isspace()):
                    d = text[k]
                    k = _skip_delimited(text, k + 1, d)
                    if QUOTE_OPS[word] == 2:
                        if d in CLOSE:
                            while k < n and text[k].isspace():
                                k += 1
                            k = _skip_delimited(text, k + 1, text[k])
                        else:
                            k = _skip_delimited(text, k, d)
                    while k < n and text[k].isalpha():
                        k += 1
                    i = k
                    continue
            if word == "sub":
                m2 = re.compile(r"\s+([A-Za-z_]\w*)").match(text, j)
                if m2 and not sub_stack:
                    pending_sub = (m2.group(1), i)
                    i = m2.end()
                    continue
            if word in KINDS:
                k = j
                while k < n and text[k] in " \t":
                    k += 1
                paren = k < n and text[k] == "("
                if paren:
                    k += 1
                    while k < n and text[k] in " \t":
                        k += 1
                if k < n and text[k] in "%@":
                    e = _hash_expr_end(text, k)
                    expr = text[k:e]
                    end = e
                    if paren:
                        m3 = re.compile(r"\s*\)").match(text, e)
                        if not m3:
                            raise PerlScanError(f"unclosed parenthesis after {word} at offset {i}")
                        end = m3.end()
                    sub = sub_stack[-1][0] if sub_stack else "(main)"
                    counts[(sub, word)] = counts.get((sub, word), 0) + 1
                    t = Traversal(
                        word, sub, counts[(sub, word)], i, end, expr, text.count("\n", 0, i) + 1
                    )
                    if word == "each":
                        ls = text.rfind("\n", 0, i) + 1
                        mb = EACH_HEAD_BEFORE.search(text, ls, i)
                        ma = EACH_HEAD_AFTER.match(text, end)
                        if mb and ma:
                            kv = [g for g in mb.groups() if g]
                            t.loop = (mb.start(), ma.end(), kv[0], kv[1])
                    travs.append(t)
                    i = k  # the expression itself is scanned as code
                    continue
            i = j
            continue
        i += 1
    if pending_sub or sub_stack:
        raise PerlScanError("unbalanced braces: a subroutine does not end")
    return Scan(text, subs, travs, code_end)
