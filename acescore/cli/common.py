"""What every command of the command line shares: the options that read APF (one meaning
everywhere), the way a command fails (one line, an exit status, never a traceback), writing
its output and the progress bar."""
from __future__ import annotations

import functools
import os
import signal
import sys

import click

from acescore.cli.args import BYTE_SIZE
from acescore.model.errors import EXIT_UNUSABLE, AceError, one_line
from acescore.model.options import Options
from acescore.model.params import DEFAULT_PARAMS, PARAMETER_SETS
from acescore.model.limits import DEFAULT_MAX_PAIRS

EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143           # 128 + SIGTERM


class Terminated(BaseException):
    """SIGTERM (``kill``, a batch system's time limit): the run ends as on Ctrl-C -- the
    workers killed, temporary files (the report's, the listings' spool) removed, one line
    and exit 143 -- instead of dying where it stands."""


def _on_sigterm(signum, frame):
    raise Terminated()


def die(message: str, code: int = EXIT_UNUSABLE):
    click.echo(f"acescore: {one_line(message)}", err=True)
    sys.exit(code)


class OneLineGroup(click.Group):
    """The command group, ending every run the same way: a bad command line is one line
    (click's usage block would be four) with exit 2, Ctrl-C exits 130, a failing output
    stream is one line (:mod:`acescore.writing.output`), and no error ends in a traceback."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True,
             **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        from acescore.writing.output import EXIT_CLOSED_PIPE, guard_streams
        guard_streams()
        try:
            signal.signal(signal.SIGTERM, _on_sigterm)
        except ValueError:          # not the main thread (an embedding program's)
            pass
        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
        except click.ClickException as e:
            ctx = getattr(e, "ctx", None)
            where = (f" (acescore {ctx.info_name} --help)" if ctx is not None and ctx.parent
                     else " (acescore --help)")
            msg = " ".join(e.format_message().split())
            die(f"{msg}{where}", e.exit_code if e.exit_code != 1 else EXIT_UNUSABLE)
        except (click.Abort, KeyboardInterrupt):
            die("interrupted", EXIT_INTERRUPTED)
        except Terminated:
            die("terminated", EXIT_TERMINATED)
        except BrokenPipeError:
            from acescore.writing.output import _silence_stdout
            _silence_stdout()
            sys.exit(EXIT_CLOSED_PIPE)
        except OSError as e:
            die(f"{e.filename + ': ' if e.filename else ''}{e.strerror or e}")
        except Exception as e:                      # noqa: BLE001 - never a traceback
            if os.environ.get("ACESCORE_TRACEBACK"):
                raise
            die(f"internal error: {type(e).__name__}: {' '.join(str(e).split())}"
                " (please report this; ACESCORE_TRACEBACK=1 shows where)")
        sys.exit(rv if isinstance(rv, int) else 0)


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


def pairs_option(f):
    """--max-pairs: the work allowed per document (acescore.model.limits)."""
    return click.option("--max-pairs", type=click.IntRange(min=1), default=DEFAULT_MAX_PAIRS,
                        show_default=True,
                        help="Most REF/SYS pairs (of mentions whose spans correspond, or of "
                             "relations/events that may correspond) valued in one document; "
                             "more is refused (elements sharing one span make the work grow "
                             "with the square).")(f)


def resolve_jobs(jobs) -> int:
    """--jobs: default and 0 mean one process per CPU available to this one."""
    if not jobs:
        from acescore.run.parallel import available_cpus
        return available_cpus()
    return jobs


def jobs_option(help: str):
    """-j/--jobs N: processes (default and 0: one per CPU available; :func:`resolve_jobs`)."""
    return click.option("-j", "--jobs", type=click.IntRange(min=0), default=None,
                        help=help)


def _destination(ctx, param, value):
    """-o checked while the command line is read, before anything is read or scored: the
    :class:`acescore.writing.output.Emitter` that :func:`write_output` writes through."""
    from acescore.writing.output import Emitter
    try:
        return Emitter(value)
    except AceError as e:
        die(str(e), e.exit_code)


def report_file(ctx, param, value):
    """A file option other than -o (e.g. --nist-report) checked while the command line is
    read: an :class:`acescore.writing.output.ReportFile` (written with ``.write(text)``) or None."""
    if value is None:
        return None
    from acescore.writing.output import ReportFile
    try:
        return ReportFile(value)
    except AceError as e:
        die(str(e), e.exit_code)


def site_folder(ctx, param, value):
    """An output folder option checked (created, writable) while the command line is read."""
    from acescore.writing.output import check_folder
    try:
        check_folder(value)
    except AceError as e:
        die(str(e), e.exit_code)
    return value


def output_option(help="Write to this file instead of standard output (checked before the "
                       "run; written whole or not at all)."):
    """-o FILE, checked before the run (:func:`write_output` writes through it)."""
    return click.option("-o", "--output", metavar="FILE", callback=_destination, help=help)


def output_options(formats=("text", "json"), output_help="Write to this file instead of "
                   "standard output (checked before the run; written whole or not at all)."):
    """-o and --format."""
    def deco(f):
        f = click.option("--format", "fmt", type=click.Choice(list(formats),
                                                              case_sensitive=False),
                         default="text", show_default=True, help="Output format.")(f)
        return output_option(output_help)(f)
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
    from acescore.rules.coverage import fold_warnings
    warnings = getattr(results_or_warnings, "warnings", results_or_warnings)
    for w in fold_warnings(warnings, bool(_meta("verbose"))):
        sys.stderr.write(w)
    skipped = getattr(results_or_warnings, "skipped", None)
    if skipped is not None:
        for line in skipped.lines():
            click.echo(f"acescore: {line}", err=True)


def emit_summary(results_or_loaded, quiet: bool) -> None:
    """The end-of-run line on standard error: the documents scored (acescore.rules.coverage)."""
    if quiet:
        return
    from acescore.rules.coverage import summary_line
    c = results_or_loaded.coverage
    if c is not None:
        click.echo(summary_line(c), err=True)


def write_output(text, output) -> None:
    """Write ``text`` (a str, or the pieces of :meth:`Results.text_pieces`) to the -o
    destination (an :class:`acescore.writing.output.Emitter`, checked before the run; a path or
    None is checked now) or standard output."""
    from acescore.writing.output import Emitter
    try:
        if not isinstance(output, Emitter):
            output = Emitter(output or None)
        output.emit(text)
    except AceError as e:
        die(str(e), e.exit_code)


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
    from acescore.writing.spool import remove_all
    remove_all()                # what atexit would do: the listings' temporary files
    os._exit(code)
