"""What every command of the command line shares: the options that read APF (one meaning
everywhere), the way a command fails (one line, an exit status, never a traceback), writing
its output and the progress bar."""
from __future__ import annotations

import functools
import os
import sys

import click

from acescore.cli.args import BYTE_SIZE
from acescore.errors import EXIT_UNUSABLE, AceError
from acescore.options import Options
from acescore.params import DEFAULT_PARAMS, PARAMETER_SETS


def die(message: str, code: int = EXIT_UNUSABLE):
    click.echo(f"acescore: {message}", err=True)
    sys.exit(code)


def params_option(f):
    return click.option("-P", "--params", "params", default=DEFAULT_PARAMS, show_default=True,
                        type=click.Choice(sorted(PARAMETER_SETS)),
                        help="Parameter set (NIST -P).")(f)


def mentions_option(f):
    return click.option("-m", "--mentions", is_flag=True,
                        help="Also score the mention-level tasks EMD, RMD and event mentions "
                             "(NIST -m).")(f)


def _stash(name: str):
    """Take the option ``name`` out of the command's keywords and keep it on the click
    context (``ctx.meta``), where :func:`make_options` and the emit functions find it: an
    option every reading command has, without a parameter in each command."""
    def deco(f):
        @functools.wraps(f)
        def wrapper(*args, **kw):
            click.get_current_context().meta[f"acescore.{name}"] = kw.pop(name)
            return f(*args, **kw)
        return wrapper
    return deco


def _meta(name: str, default=None):
    ctx = click.get_current_context(silent=True)
    return ctx.meta.get(f"acescore.{name}", default) if ctx is not None else default


def read_options(f):
    """-P, --max-file-size, --lenient, --docs: how APF input is read (every command that
    reads it)."""
    f = _stash("docs_file")(f)
    f = click.option("--docs", "docs_file", metavar="FILE", default=None,
                     help="Only the documents whose DOCIDs FILE lists (one per line, as the"
                          " split files of the literature; # lines ignored), in REF and"
                          " SYS.")(f)
    f = click.option("--lenient", is_flag=True,
                     help="Skip broken elements (or, if they cannot be isolated, their "
                          "documents, on both sides) with a warning and go on, instead of "
                          "stopping.")(f)
    f = click.option("--max-file-size", "max_bytes", type=BYTE_SIZE, default="64M",
                     show_default=True,
                     help="Largest APF file accepted: bytes, or with K, M or G (64M, 1G).")(f)
    return params_option(f)


def output_options(formats=("text", "json"), output_help="Write to this file instead of "
                   "standard output."):
    """-o and --format."""
    def deco(f):
        f = click.option("--format", "fmt", type=click.Choice(list(formats),
                                                               case_sensitive=False),
                         default="text", show_default=True, help="Output format.")(f)
        return click.option("-o", "--output", type=click.Path(dir_okay=False),
                            help=output_help)(f)
    return deco


def quiet_option(f):
    f = _stash("verbose")(f)
    f = click.option("--verbose", is_flag=True,
                     help="Also the NIST tool's warning for every SYS document without a"
                          " REF document (otherwise counted in the summary line).")(f)
    return click.option("-q", "--quiet", is_flag=True,
                        help="No warnings, progress or summary line on standard error.")(f)


def ref_sys_arguments(f):
    f = click.argument("sys_", metavar="SYS")(f)
    return click.argument("ref")(f)


def catch_errors(f):
    """Turn acescore's own errors into one line on standard error and their exit status."""
    @functools.wraps(f)
    def wrapper(*args, **kw):
        try:
            return f(*args, **kw)
        except AceError as e:
            hint = getattr(e, "hint", None)
            die(f"{e} — {hint}" if hint else str(e), e.exit_code)
    return wrapper


def make_options(params: str, max_bytes: int, lenient: bool, **kw) -> Options:
    docs_file = _meta("docs_file")
    if docs_file:
        from acescore.reading.doclist import read_docids
        kw.setdefault("docs", tuple(read_docids(docs_file)))
        kw.setdefault("docs_file", docs_file)
    return Options(params=params, max_bytes=max_bytes, lenient=lenient, **kw)


def emit_warnings(results_or_warnings, quiet: bool) -> None:
    """The NIST WARNING messages, then what lenient mode skipped, on standard error."""
    if quiet:
        return
    from acescore.coverage import fold_warnings
    warnings = getattr(results_or_warnings, "warnings", results_or_warnings)
    for w in fold_warnings(warnings, bool(_meta("verbose"))):
        sys.stderr.write(w)
    skipped = getattr(results_or_warnings, "skipped", None)
    if skipped is not None:
        for line in skipped.lines():
            click.echo(f"acescore: {line}", err=True)


def emit_summary(results_or_loaded, quiet: bool) -> None:
    """The end-of-run line on standard error: the documents scored (acescore.coverage)."""
    if quiet:
        return
    from acescore.coverage import summary_line
    c = results_or_loaded.coverage
    if c is not None:
        click.echo(summary_line(c), err=True)


def write_output(text: str, output) -> None:
    if output:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)


def progress_bars(quiet: bool, minimum: int = 50):
    """``pipeline.load``'s ``progress``: a bar on standard error, only on a terminal and
    only for runs over ``minimum`` files."""
    if quiet or not sys.stderr.isatty():
        return None

    def bar(label: str, total: int):
        if total < minimum:
            return None

        def draw(done: int, n: int) -> None:
            if done == n or done % 10 == 0:
                width = 30
                fill = width * done // n
                sys.stderr.write(f"\r{label:22s} [{'#' * fill}{'.' * (width - fill)}] "
                                 f"{done}/{n}")
                if done == n:
                    sys.stderr.write("\r" + " " * (width + 40) + "\r")
                sys.stderr.flush()
        return draw
    return bar


def fast_exit(code: int) -> None:
    """Exit without tearing down millions of objects one by one (that alone takes a second
    or more on a large corpus); everything is written and flushed first."""
    sys.stdout.flush()
    sys.stderr.flush()
    if os.environ.get("ACESCORE_NO_FAST_EXIT") or "pytest" in sys.modules:
        sys.exit(code)
    os._exit(code)
