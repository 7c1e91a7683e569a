"""Command-line interface: ``acescore score``, ``acescore validate`` and friends.

The CLI is a thin layer over :mod:`acescore.api`.  Exit codes: 0 ok, 1 validation problems,
2 unusable input (one-line message, never a traceback), 3 a ``--fail-under`` gate failed.
"""
from __future__ import annotations

import math
import os
import sys
import time

import click

from acescore import __version__
from acescore.errors import (EXIT_GATE, EXIT_UNUSABLE, AceError)
from acescore.params import PARAMETER_SETS
from acescore.scoring.limits import DEFAULT_MAX_PAIRS

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def command_line_banner(argv: list[str]) -> str:
    t = time.localtime()
    date = f"{t.tm_year} {MONTHS[t.tm_mon - 1]} {t.tm_mday}"
    clock = f"{t.tm_hour:02d}:{t.tm_min:02d}:{t.tm_sec:02d}"
    return f"command line (run on {date} at {clock}):  {argv[0]} {' '.join(argv[1:])}\n"


def _die(message: str, code: int = EXIT_UNUSABLE):
    click.echo(f"acescore: {message}", err=True)
    sys.exit(code)


EXIT_INTERRUPTED = 130


class _Group(click.Group):
    """The command group, ending every run the same way: a bad command line is one line
    (click's usage block would be four) with exit 2, Ctrl-C exits 130, a failing output
    stream is one line (:mod:`acescore.output`), and no error ends in a traceback."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True,
             **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        from acescore.output import EXIT_CLOSED_PIPE, guard_streams
        guard_streams()
        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
        except click.ClickException as e:
            ctx = getattr(e, "ctx", None)
            where = (f" (acescore {ctx.info_name} --help)" if ctx is not None and ctx.parent
                     else " (acescore --help)")
            msg = " ".join(e.format_message().split())
            _die(f"{msg}{where}", e.exit_code if e.exit_code != 1 else EXIT_UNUSABLE)
        except (click.Abort, KeyboardInterrupt):
            _die("interrupted", EXIT_INTERRUPTED)
        except BrokenPipeError:
            sys.exit(EXIT_CLOSED_PIPE)
        except OSError as e:
            _die(f"{e.filename + ': ' if e.filename else ''}{e.strerror or e}")
        except Exception as e:                      # noqa: BLE001 - never a traceback
            if os.environ.get("ACESCORE_TRACEBACK"):
                raise
            _die(f"internal error: {type(e).__name__}: {' '.join(str(e).split())}"
                 " (please report this; ACESCORE_TRACEBACK=1 shows where)")
        sys.exit(rv if isinstance(rv, int) else 0)


@click.group(cls=_Group, context_settings={"help_option_names": ["--help"]})
@click.version_option(__version__, prog_name="acescore")
def main():
    """acescore: score ACE APF system output against a reference, as the NIST ACE
    evaluation tool (ace08-eval-v08.pl) does -- same numbers, same report."""


SCORE_HELP = """Score SYS against REF and print the NIST report.

REF and SYS are each an APF file, a directory (searched recursively for *.apf.xml and
*.apf) or a list file with one path per line.  The NIST tool's spellings are accepted
too: -R FILE / -r LIST for the reference, -T FILE / -t LIST for the system output.
"""


@main.command("score", help=SCORE_HELP)
@click.argument("ref", required=False)
@click.argument("sys_", metavar="SYS", required=False)
@click.option("-R", "ref_file", metavar="FILE", help="Reference APF file (NIST -R).")
@click.option("-r", "ref_list", metavar="LIST", help="File listing reference APF files (NIST -r).")
@click.option("-T", "sys_file", metavar="FILE", help="System APF file (NIST -T).")
@click.option("-t", "sys_list", metavar="LIST", help="File listing system APF files (NIST -t).")
@click.option("-P", "--params", "params", default="local_2008", show_default=True,
              type=click.Choice(sorted(PARAMETER_SETS)),
              help="Parameter set (NIST -P).")
@click.option("-m", "--mentions", is_flag=True,
              help="Also score the mention-level tasks EMD, RMD and event mentions (NIST -m).")
@click.option("-d", "--doc-scores", is_flag=True, help="Print document-level scores (NIST -d).")
@click.option("-a", "--all-mappings", is_flag=True,
              help="Print ref/sys comparisons for all elements (NIST -a).")
@click.option("-e", "--error-mappings", is_flag=True,
              help="Print ref/sys comparisons for erroneous elements only (NIST -e).")
@click.option("-s", "--summary", is_flag=True,
              help="Print a summary of the annotation data (NIST -s).")
@click.option("-c", "--check-duplicates", is_flag=True,
              help="Warn about equivalent (duplicate) elements; REF and SYS must be the same "
                   "input (NIST -c).")
@click.option("-o", "--output", metavar="FILE",
              help="Write the report to this file instead of standard output (checked"
                   " before the run; written whole or not at all).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default="text",
              show_default=True, help="Report format.")
@click.option("--fail-under", "fail_under", multiple=True, metavar="TASK=VALUE",
              help="Exit with status 3 when TASK's Value (%) is below VALUE, e.g. edr=60 "
                   "(repeatable; tasks edr, val, tim, rdr, vdr, emd, rmd, vmd: entities, "
                   "values, timex2, relations, events and their mention-level tasks).")
@click.option("--max-file-size", type=click.IntRange(min=0), default=64 * 1024 * 1024,
              show_default=True, help="Largest APF file accepted, in bytes.")
@click.option("--max-pairs", type=click.IntRange(min=1), default=DEFAULT_MAX_PAIRS,
              show_default=True,
              help="Most REF/SYS pairs (of mentions whose spans correspond, or of relations/"
                   "events that may correspond) valued in one document; more is refused "
                   "(elements sharing one span make the work grow with the square).")
@click.option("--lenient", is_flag=True,
              help="Skip broken elements (or, if they cannot be isolated, their documents, on "
                   "both sides) with a warning and score the rest, instead of stopping.")
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=None,
              help="Processes for scoring (default: 2 on a machine with 2 or more CPUs, else "
                   "1; 0: one per CPU, at most 3).  With -m the document and mention-level "
                   "passes run in parallel; the report is the same.  --jobs 1 uses the least "
                   "memory.")
@click.option("-q", "--quiet", is_flag=True, help="No warnings or progress on standard error.")
def score_cmd(ref, sys_, ref_file, ref_list, sys_file, sys_list, params, mentions, doc_scores,
              all_mappings, error_mappings, summary, check_duplicates, output, fmt, fail_under,
              max_file_size, jobs, quiet, lenient=False, max_pairs=DEFAULT_MAX_PAIRS):
    from acescore import api
    import gc
    gc.disable()   # a one-shot process: the cyclic collector would only rescan the corpus
    argv = [os.path.basename(sys.argv[0])] + sys.argv[1:]
    refs = [x for x in (ref, ref_file, ref_list) if x]
    syss = [x for x in (sys_, sys_file, sys_list) if x]
    if len(refs) != 1:
        _die("give the reference once: REF, -R FILE or -r LIST")
    if len(syss) != 1:
        _die("give the system output once: SYS, -T FILE or -t LIST")
    if check_duplicates and refs[0] != syss[0]:
        _die("ref and sys input must be the same when checking for duplicate elements (-c)")
    gates = []
    for g in fail_under:
        try:
            task, val = g.split("=", 1)
            gates.append((task.strip().lower(), float(val)))
        except ValueError:
            _die(f"--fail-under takes TASK=VALUE, not '{g}'")
        if not math.isfinite(gates[-1][1]):
            _die(f"--fail-under takes a finite VALUE (a percentage), not '{val.strip()}'")
    from acescore.output import Emitter
    try:
        emitter = Emitter(output)
        rpaths = api.discover_paths(refs[0], list_file=bool(ref_list), lenient=lenient)
        spaths = api.discover_paths(syss[0], list_file=bool(sys_list), lenient=lenient)
        p = api.get_params(params)
        bar = _progress_bar("reading reference", quiet, len(rpaths))
        bar2 = _progress_bar("reading system output", quiet, len(spaths))
        with api.no_cyclic_gc():
            rc = api.read_corpus(rpaths, p, max_file_size, progress=bar, lenient=lenient)
            sc = api.read_corpus(spaths, p, max_file_size, progress=bar2, lenient=lenient)
        if bar or bar2:
            sys.stderr.write("\rscoring ..." + " " * 40 + "\r")
        if jobs is None:
            jobs = min(2, os.cpu_count() or 1)
        elif jobs == 0:
            jobs = os.cpu_count() or 1
        results = api.score(rc, sc, p, mentions, jobs=jobs, render=fmt, gates=bool(gates),
                            doc_scores=doc_scores, all_mappings=all_mappings,
                            error_mappings=error_mappings, summary=summary,
                            check_duplicates=check_duplicates, lenient=lenient,
                            max_pairs=max_pairs)
    except AceError as e:
        _die(str(e), e.exit_code)
    if not quiet:
        for w in results.warnings:
            sys.stderr.write(w)
        if results.skipped is not None:   # lenient: the report on stdout stays NIST's
            for line in results.skipped.lines():
                click.echo(f"acescore: {line}", err=True)
    if fmt == "text":
        text = command_line_banner(argv) + results.to_text()
    elif fmt == "json":
        text = results.to_json()
    else:
        from acescore.report.json_report import to_csv
        text = to_csv(results)
    try:
        emitter.emit(text)
    except AceError as e:
        _die(str(e), e.exit_code)
    if not quiet and fmt == "text":
        from acescore.report.json_report import signature
        sys.stderr.write(f"\nsignature: {signature(results)}\n")
    code = 0
    if gates:
        from acescore.report.json_report import gate_failures
        failed = gate_failures(results, gates)
        if failed:
            for msg in failed:
                click.echo(f"acescore: {msg}", err=True)
            code = EXIT_GATE
    _fast_exit(code)


def _progress_bar(label: str, quiet: bool, total: int, minimum: int = 50):
    """A progress callback drawing a bar on standard error, only on a terminal and only
    for runs over ``minimum`` files; None otherwise."""
    if quiet or total < minimum or not sys.stderr.isatty():
        return None

    def draw(done: int, n: int) -> None:
        if done == n or done % 10 == 0:
            width = 30
            fill = width * done // n
            sys.stderr.write(f"\r{label:22s} [{'#' * fill}{'.' * (width - fill)}] {done}/{n}")
            if done == n:
                sys.stderr.write("\r" + " " * (width + 40) + "\r")
            sys.stderr.flush()
    return draw


def _fast_exit(code: int) -> None:
    """Exit without tearing down millions of objects one by one (that alone takes a second
    or more on a large corpus); everything is written and flushed first."""
    sys.stdout.flush()
    sys.stderr.flush()
    if os.environ.get("ACESCORE_NO_FAST_EXIT") or "pytest" in sys.modules:
        sys.exit(code)
    os._exit(code)


@main.command("crosscheck")
@click.argument("ref")
@click.argument("sys_", metavar="SYS")
@click.option("-P", "--params", "params", default="local_2008", show_default=True,
              type=click.Choice(sorted(PARAMETER_SETS)), help="Parameter set (NIST -P).")
@click.option("-m", "--mentions", is_flag=True, help="NIST -m.")
@click.option("-d", "--doc-scores", is_flag=True, help="NIST -d.")
@click.option("-a", "--all-mappings", is_flag=True, help="NIST -a.")
@click.option("-e", "--error-mappings", is_flag=True, help="NIST -e.")
@click.option("-s", "--summary", is_flag=True, help="NIST -s.")
@click.option("--show", type=int, default=3, show_default=True,
              help="Differing lines shown per section.")
def crosscheck_cmd(ref, sys_, params, mentions, doc_scores, all_mappings, error_mappings,
                   summary, show):
    """Run acescore and the NIST tool (named by $ACE_NIST_SCORER) on the same input and
    report, section by section, where the two reports differ.  Exit 0 only when identical.

    Only a copy of the NIST tool that iterates in the canonical order matches byte for
    byte; an unmodified one varies from run to run where mappings tie (see the README)."""
    from acescore import api
    from acescore.crosscheck import compare_reports, nist_flags, run_nist
    nist = os.environ.get("ACE_NIST_SCORER")
    if not nist:
        _die("set ACE_NIST_SCORER to the path of a local copy of ace08-eval-v08.pl")
    if not os.path.isfile(nist):
        _die(f"ACE_NIST_SCORER names no file: {nist}")
    try:
        rpaths = api.discover_paths(ref)
        spaths = api.discover_paths(sys_)
        results = api.score(rpaths, spaths, params, mentions, doc_scores=doc_scores,
                            all_mappings=all_mappings, error_mappings=error_mappings,
                            summary=summary)
    except AceError as e:
        _die(str(e), e.exit_code)
    ours = results.to_text()
    theirs, err = run_nist(nist, rpaths, spaths,
                           nist_flags(params, mentions, doc_scores, all_mappings,
                                      error_mappings, summary))
    if "scoring mode parameter set" not in theirs:
        first = next((ln for ln in err.splitlines() if ln.strip()), "no output")
        _die(f"the NIST tool failed: {first}")
    diffs = compare_reports(theirs, ours, show)
    bad = 0
    for d in diffs:
        state = "identical" if not d.differing_lines else (
            f"{d.differing_lines} of {d.lines} lines, {d.differing_cells} of {d.cells} cells differ")
        click.echo(f"{d.name:32s} {state}")
        for ln, x, y in d.examples:
            click.echo(f"    line {ln}:\n      NIST:     {x}\n      acescore: {y}")
        bad += d.differing_lines
    total = sum(d.lines for d in diffs)
    if bad:
        click.echo(f"differs: {bad} of {total} lines")
        sys.exit(1)
    click.echo(f"identical: {total} lines")


# the other commands live in modules of their own
from acescore.cli_validate import validate  # noqa: E402
from acescore import cli_metrics  # noqa: E402
from acescore.cli_view import view  # noqa: E402

for _command in (validate, cli_metrics.coref, cli_metrics.events, view):
    main.add_command(_command)
