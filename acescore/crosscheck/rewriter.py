"""Derive a deterministic copy of the user's NIST tool.

The NIST tool walks Perl hashes in Perl's per-process random order, so two runs of it break
ties differently (docs/rules/determinism.md).  :func:`derive` applies the rule table of the tool's
version (:mod:`acescore.crosscheck.versions`) to the user's own file and writes the result to
a folder the caller owns (a private temporary one): every listed ``keys``/``values``/``each``
traversal then walks its keys in the canonical order.  Nothing of the tool is stored in
acescore; the copy is made from the user's file each time and checked before it is used:

1. the version is recognised by the SHA-256 of the file (known releases) or, failing that,
   by its structure: every subroutine of one table holds exactly the traversals the table
   expects, and the file exactly the expected total;
2. every rule must apply exactly once (a missing subroutine, a traversal of another shape,
   an ``each`` that is not the head of a ``while (my ($k, $v) = each ...) {`` loop, fail);
3. the copy is scanned again: the rewritten traversals are gone and every other one is
   still there; and it keeps the original's line count, so Perl's messages keep their
   line numbers.

Lines are rewritten in place; the helper subroutines go after the last line (before
``__END__`` if there is one), in their own package.
"""

from __future__ import annotations

import hashlib
import itertools
import os
from dataclasses import field

from acescore.crosscheck import perl_scan
from acescore.crosscheck.versions import VERSIONS, ToolVersion
from acescore.model.records import dataclass

HELPER_PACKAGE = "AcescoreOrder"

HELPERS = """
{
  # Added by acescore crosscheck: hash traversals in a canonical order.
  package %(pkg)s;
  sub keys_id      { my $h = $_[0]; return sort keys %%$h; }
  sub keys_index   { my $h = $_[0]; return sort { $a <=> $b } keys %%$h; }
  sub keys_mention { my $h = $_[0];
                     return sort { $h->{$a}{MENTION}{ID} cmp $h->{$b}{MENTION}{ID} } keys %%$h; }
  sub values_id      { my $h = $_[0]; return @{$h}{keys_id($h)}; }
  sub values_index   { my $h = $_[0]; return @{$h}{keys_index($h)}; }
  sub values_mention { my $h = $_[0]; return @{$h}{keys_mention($h)}; }
}
""" % {"pkg": HELPER_PACKAGE}


class UnknownTool(Exception):
    """The file is not a version the rewriter knows (or not in the shape it expects)."""

    def __init__(self, path: str, why: str):
        self.path = path
        self.why = why
        super().__init__(
            f"{path}: {why} -- the deterministic copy is made only from a known NIST tool"
            f" ({', '.join(sorted(VERSIONS))}); point ACE_NIST_SCORER at an unmodified copy,"
            f" or use --runs N to compare with the unmodified tool"
        )


@dataclass
class Derived:
    version: ToolVersion
    sha256: str
    recognised_by: str  # "sha256" or "structure"
    text: str  # the deterministic copy
    applied: dict = field(default_factory=dict)  # (sub, kind#n) -> order
    repairs_only: bool = False  # only the repair rows (hash order otherwise untouched)


def sha256_of(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 16), b""):
            h.update(chunk)
    return h.hexdigest()


def _census_problems(scan: perl_scan.Scan, version: ToolVersion) -> list[str]:
    problems = []
    census = scan.census()
    if len(scan.traversals) != version.total:
        problems.append(
            f"{len(scan.traversals)} hash traversals, {version.name} has {version.total}"
        )
    for row in version.rows:
        if row.sub not in scan.subs:
            problems.append(f"no subroutine {row.sub}")
            continue
        got = census.get(row.sub, {})
        got_t = tuple(got.get(k, 0) for k in perl_scan.KINDS)
        if got_t != tuple(row.census):
            problems.append(f"{row.sub}: keys/values/each {got_t}, expected {tuple(row.census)}")
    return problems


def recognise(
    path: str, text: str, scan: perl_scan.Scan, versions: dict | None = None
) -> tuple[ToolVersion, str, str]:
    """The version ``text`` is: by SHA-256 (a known release), else by structure (exactly one
    table whose census fits).  Raises :class:`UnknownTool`."""
    versions = VERSIONS if versions is None else versions
    digest = hashlib.sha256(text.encode("latin-1")).hexdigest()
    for v in versions.values():
        if digest in v.sha256:
            return v, digest, "sha256"
    fits = [v for v in versions.values() if not _census_problems(scan, v)]
    if len(fits) == 1:
        return fits[0], digest, "structure"
    raise UnknownTool(path, f"unknown version of the NIST tool (SHA-256 {digest[:16]}...)")


def _hashref(expr: str) -> str:
    return "\\" + expr


def _replacement(t: perl_scan.Traversal, order: str) -> tuple[int, int, str]:
    if not t.is_hash:
        raise ValueError(f"{t.sub}: {t.kind}{t.ordinal} walks an array, not a hash")
    if t.kind in ("keys", "values"):
        return t.start, t.end, f"{HELPER_PACKAGE}::{t.kind}_{order}({_hashref(t.expr)})"
    if t.loop is None:
        raise ValueError(
            f"{t.sub}: each{t.ordinal} is not the head of a while (my ($k, $v) = each ...) {{ loop"
        )
    start, end, kvar, vvar = t.loop
    return (
        start,
        end,
        (
            f"foreach my {kvar} ({HELPER_PACKAGE}::keys_{order}({_hashref(t.expr)}))"
            f" {{ my {vvar} = ({_hashref(t.expr)})->{{{kvar}}};"
        ),
    )


def rewrite(
    text: str,
    version: ToolVersion,
    scan: perl_scan.Scan | None = None,
    path: str = "the NIST tool",
    repairs_only: bool = False,
) -> tuple[str, dict]:
    """Apply ``version``'s rules to ``text`` (``repairs_only``: its repair rows only); return
    the copy and what was applied.  Raises :class:`UnknownTool` if a rule does not apply
    exactly as the table says."""
    scan = scan or perl_scan.scan(text)
    problems = _census_problems(scan, version)
    if problems:
        raise UnknownTool(path, f"not in the shape of {version.name}: {problems[0]}")
    edits = []
    applied = {}
    for row in version.rows:
        if repairs_only and not row.repair:
            continue
        for kind, n in row.targets():
            t = scan.find(row.sub, kind, n)
            if t is None:
                raise UnknownTool(path, f"{row.sub}: no {kind}{n}")
            try:
                edits.append(_replacement(t, row.order))
            except ValueError as e:
                raise UnknownTool(path, str(e)) from None
            applied[(row.sub, f"{kind}{n}")] = row.order
    want = version.repairs if repairs_only else version.rewrites
    if len(applied) != want:
        raise UnknownTool(path, f"{len(applied)} rewrites applied, {want} expected")
    edits.sort()
    for a, b in itertools.pairwise(edits):
        if a[1] > b[0]:
            raise UnknownTool(path, "two rewrites overlap")
    out = []
    pos = 0
    for s, e, rep in edits:
        if "\n" in text[s:e]:
            raise UnknownTool(path, "a rewritten traversal spans lines")
        out.append(text[pos:s])
        out.append(rep)
        pos = e
    end = scan.code_end
    body = "".join(out) + text[pos:end]
    if not body.endswith("\n"):
        body += "\n"
    new = body + HELPERS + text[end:]
    _check_copy(text, new, len(body), scan, applied, path)
    return new, applied


def _check_copy(old: str, new: str, body_len: int, old_scan, applied, path):
    """The copy keeps every line of the original in place, and exactly the rewritten
    traversals are gone."""
    new_scan = perl_scan.scan(new)
    if new.count("\n") != old.count("\n") + HELPERS.count("\n") + (0 if old.endswith("\n") else 1):
        raise UnknownTool(path, "the copy does not keep the original's lines")
    left = sum(1 for t in new_scan.traversals if t.start < body_len)
    want = len(old_scan.traversals) - len(applied)
    if left != want:
        raise UnknownTool(path, f"the copy has {left} unordered traversals, {want} expected")


def derive(path: str, versions: dict | None = None, repairs_only: bool = False) -> Derived:
    """Read the user's tool and make the deterministic copy (in memory); ``repairs_only``:
    a copy with only the version's defect repairs, its hash order left as it is."""
    with open(path, "rb") as fh:
        raw = fh.read()
    text = raw.decode("latin-1")  # bytes in, the same bytes out
    try:
        scan = perl_scan.scan(text)
    except perl_scan.PerlScanError as e:
        raise UnknownTool(path, f"cannot read it as the NIST tool ({e})") from None
    version, digest, how = recognise(path, text, scan, versions)
    new, applied = rewrite(text, version, scan, path, repairs_only)
    return Derived(version, digest, how, new, applied, repairs_only)


def write_copy(derived: Derived, folder: str) -> str:
    """Write the copy into ``folder`` (which the caller made private); return its path."""
    kind = "repaired" if derived.repairs_only else "deterministic"
    dest = os.path.join(folder, f"{derived.version.name}-{kind}.pl")
    fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(derived.text.encode("latin-1"))
    return dest
