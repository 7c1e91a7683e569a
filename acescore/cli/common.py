"""What every command of the command line shares (the options that read APF are
:mod:`acescore.cli.inputs`): the way a command fails (one line, an exit status, never a
traceback), writing its output and its signature, and the progress bar."""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import sys

import click

from acescore.model.errors import EXIT_UNUSABLE, AceError, one_line
from acescore.model.memory import is_out_of_memory

EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143  # 128 + SIGTERM
EXIT_HANGUP = 129  # 128 + SIGHUP
OUT_OF_MEMORY = (
    "out of memory: nothing was written; give the run more memory, or score fewer"
    " documents at a time (--docs, smaller list files)"
)


class Terminated(BaseException):
    """SIGTERM (``kill``, a batch system's time limit) or SIGHUP (the terminal closed, an ssh
    session dropped): the run ends as on Ctrl-C -- the workers killed, temporary files (the
    report's, the listings' spool, the view's staging folder) removed, one line and exit 143
    (129 for SIGHUP) -- instead of dying where it stands."""

    def __init__(self, signum: int = signal.SIGTERM) -> None:
        super().__init__(signum)
        self.signum = signum


#: the ending signals received (a handler's exception can be lost where Python only prints
#: it -- a finalizer, a callback --: the run then still ends with the signal's status)
_RECEIVED: list = []


def _on_terminate(signum, frame):
    if _RECEIVED:  # the run is ending already: a second signal does not cut its clean-up
        return
    _RECEIVED.append(signum)
    raise Terminated(signum)


def _unraisable(u) -> None:
    """sys.unraisablehook: Ctrl-C or an ending signal whose exception Python could only
    print ("Exception ignored in" a callback or a finalizer) is kept, not printed: the run
    still ends with it (:meth:`OneLineGroup._run`); anything else as Python says it."""
    if isinstance(u.exc_value, (KeyboardInterrupt, Terminated)):
        _LOST.append(u.exc_value)
        return
    sys.__unraisablehook__(u)


#: Ctrl-C and signals whose exception was lost on the way (:func:`_unraisable`)
_LOST: list = []


def _terminated(e: Terminated):
    if e.signum == signal.SIGHUP:
        die("hangup (the terminal closed)", EXIT_HANGUP)
    die("terminated", EXIT_TERMINATED)


def die(message: str, code: int = EXIT_UNUSABLE):
    click.echo(f"acescore: {one_line(message)}", err=True)
    sys.exit(code)


class Interrupted(BaseException):
    """Ctrl-C during a command, carried past click (whose own handling would print an empty
    line before the group's one line)."""


class OneLineGroup(click.Group):
    """The command group, ending every run the same way: a bad command line is one line
    (click's usage block would be four) with exit 2, Ctrl-C exits 130, a failing output
    stream is one line (:mod:`acescore.writing.output`), and no error ends in a traceback."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        from acescore.writing.streams import guard_streams

        guard_streams()
        _RECEIVED.clear()
        _LOST.clear()
        sys.unraisablehook = _unraisable
        with contextlib.suppress(ValueError):  # not the main thread (an embedding program's)
            signal.signal(signal.SIGTERM, _on_terminate)
            signal.signal(signal.SIGHUP, _on_terminate)
        try:
            self._run(args, prog_name, complete_var, **extra)
        except Terminated as e:  # one that came while another ending was being said
            _terminated(e)
        except (KeyboardInterrupt, Interrupted):  # (idem)
            die("interrupted", EXIT_INTERRUPTED)

    def _run(self, args, prog_name, complete_var, **extra) -> None:
        """The command, and every way it can end: one line and an exit status."""
        from acescore.writing.streams import EXIT_CLOSED_PIPE

        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
            if _RECEIVED:  # its exception was lost on the way: the signal still ends the run
                raise Terminated(_RECEIVED[0])
            if _LOST:  # (a Ctrl-C lost the same way)
                raise Interrupted
        except click.ClickException as e:
            ctx = getattr(e, "ctx", None)
            where = (
                f" (acescore {ctx.info_name} --help)"
                if ctx is not None and ctx.parent
                else " (acescore --help)"
            )
            msg = " ".join(e.format_message().split())
            die(f"{msg}{where}", e.exit_code if e.exit_code != 1 else EXIT_UNUSABLE)
        except (click.Abort, KeyboardInterrupt, Interrupted):
            die("interrupted", EXIT_INTERRUPTED)
        except Terminated as e:
            _terminated(e)
        except MemoryError:
            die(OUT_OF_MEMORY)
        except BrokenPipeError:
            from acescore.writing.streams import _silence_stdout

            _silence_stdout()
            sys.exit(EXIT_CLOSED_PIPE)
        except Exception as e:
            if is_out_of_memory(e):  # ENOMEM, a library that could not be mapped
                die(OUT_OF_MEMORY)
            if _raised_from(e, KeyboardInterrupt):  # Ctrl-C wrapped (e.g. in __set_name__)
                die("interrupted", EXIT_INTERRUPTED)
            if isinstance(e, OSError):
                die(f"{e.filename + ': ' if e.filename else ''}{e.strerror or e}")
            if os.environ.get("ACESCORE_TRACEBACK"):
                raise
            die(
                f"internal error: {type(e).__name__}: {' '.join(str(e).split())}"
                " (please report this; ACESCORE_TRACEBACK=1 shows where)"
            )
        sys.exit(rv if isinstance(rv, int) else 0)

    def make_context(self, info_name, args, parent=None, **extra):
        try:
            return super().make_context(info_name, args, parent, **extra)
        except KeyboardInterrupt:
            raise Interrupted from None

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise Interrupted from None


def _raised_from(e: BaseException | None, kind: type) -> bool:
    """Whether ``e`` or an exception it was raised from is a ``kind``."""
    for _ in range(20):
        if e is None:
            return False
        if isinstance(e, kind):
            return True
        e = e.__cause__ or e.__context__
    return False


def mentions_option(f):
    return click.option(
        "-m",
        "--mentions",
        is_flag=True,
        help="Also score the mention-level tasks EMD, RMD and event mentions (NIST -m).",
    )(f)


def resolve_jobs(jobs) -> int:
    """--jobs: default and 0 mean one process per CPU available to this one."""
    if not jobs:
        from acescore.run.parallel import available_cpus

        return available_cpus()
    return jobs


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


def _no_file_option(ctx, param, value):
    if value is not None:
        raise click.UsageError(
            f"-o names one file; acescore {ctx.info_name} writes a folder: -O/--output-dir DIR", ctx
        )


def output_dir_option(help: str):
    """-O/--output-dir DIR: the folder of a command that writes several files (checked,
    created if need be, before the run); -o (one file everywhere else) is refused."""

    def deco(f):
        f = click.option(
            "-o", "no_file", hidden=True, expose_value=False, callback=_no_file_option
        )(f)
        return click.option(
            "-O",
            "--output-dir",
            "out_dir",
            metavar="DIR",
            required=True,
            callback=site_folder,
            help=help,
        )(f)

    return deco


def output_option(
    help="Write to this file instead of standard output (checked before the "
    "run; written whole or not at all).",
):
    """-o FILE, checked before the run (:func:`write_output` writes through it)."""
    return click.option("-o", "--output", metavar="FILE", callback=_destination, help=help)


def output_options(
    formats=("text", "json"),
    output_help="Write to this file instead of "
    "standard output (checked before the run; written whole or not at all).",
):
    """-o and --format."""

    def deco(f):
        f = click.option(
            "--format",
            "fmt",
            type=click.Choice(list(formats), case_sensitive=False),
            default="text",
            show_default=True,
            help="Output format.",
        )(f)
        return output_option(output_help)(f)

    return deco


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


def emit_warnings(results_or_warnings, quiet: bool, verbose: bool = False) -> None:
    """The NIST WARNING messages, then what lenient mode skipped, on standard error: grouped
    by kind with counts and first examples (:mod:`acescore.rules.grouping`), or with
    ``verbose`` every warning as the NIST tool prints it (those of SYS documents without a
    REF document too) and every skip."""
    if quiet:
        return
    from acescore.rules import grouping
    from acescore.rules.coverage import fold_warnings

    warnings = getattr(results_or_warnings, "warnings", results_or_warnings)
    skipped = getattr(results_or_warnings, "skipped", None)
    options = getattr(results_or_warnings, "options", None)
    if options is not None and options.ignored_mentions:
        click.echo(f"acescore: warning: {options.ignored_mentions}", err=True)
    if verbose:
        for w in fold_warnings(warnings, True):
            sys.stderr.write(w)
        lines = grouping.verbose_lines(skipped)
    else:
        lines = grouping.grouped_lines(warnings, skipped)
    for line in lines:
        click.echo(f"acescore: {line}", err=True)


def emit_signature(signature: str, quiet: bool = False) -> None:
    """The signature of a text result, on standard error after it (every command that
    scores; a JSON result holds it under ``signature``)."""
    if not quiet:
        sys.stderr.write(f"\nsignature: {signature}\n")


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
                sys.stderr.write(f"\r{label:22s} [{'#' * fill}{'.' * (width - fill)}] {done}/{n}")
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

    remove_all()  # what atexit would do: the listings' temporary files
    os._exit(code)
