"""The input options, declared once: every command that reads APF takes its inputs and the
options that say how they are read from this registry (as :mod:`acescore.model.tasks` is the
registry of tasks), and reads them through one function.

* :data:`INPUT_OPTIONS` -- each option once: its name in Python, its spellings, its help.
* :func:`reads_apf` -- the decorator that gives a command the inputs (REF SYS, REF and
  systems, or APF paths) and the options it ``takes``; an option of the registry that the
  command does not take is refused with a one-line usage error (never ignored).  The
  command receives an :class:`Inputs` and an :class:`~acescore.model.options.Options` as
  explicit parameters.
* :func:`read_inputs` / :func:`score_inputs` -- the one way a command reads (and scores)
  its inputs.
"""

from __future__ import annotations

import functools

import click

from acescore.cli.args import BYTE_SIZE
from acescore.model.errors import AceUsageError
from acescore.model.limits import DEFAULT_MAX_PAIRS, MAX_JOBS
from acescore.model.options import Options
from acescore.model.records import dataclass
from acescore.model.versions import DEFAULT_VERSION, VERSION_OPTIONS, VERSIONS


@dataclass(frozen=True)
class InputOption:
    key: str  # the parameter's name in Python
    decls: tuple  # click's spellings
    help: str
    settings: tuple = ()  # click's other keywords, as pairs

    @property
    def name(self) -> str:
        """The long spelling (or the only one): ``--docs``, ``-r``."""
        return next((d for d in self.decls if d.startswith("--")), self.decls[0])

    def click_option(self, hidden: bool = False, callback=None):
        kw = dict(self.settings)
        if hidden:
            kw = {k: v for k, v in kw.items() if k in ("is_flag", "metavar")}
            kw.update(
                hidden=True,
                expose_value=False,
                callback=callback,
                **({} if kw.get("is_flag") else {"default": None}),
            )
        return click.option(*self.decls, self.key, help=self.help, **kw)


#: the options of every command that reads APF, in the order of their help
INPUT_OPTIONS: tuple[InputOption, ...] = (
    InputOption("ref_file", ("-R",), "Reference APF file (NIST -R).", (("metavar", "FILE"),)),
    InputOption(
        "ref_list", ("-r",), "File listing reference APF files (NIST -r).", (("metavar", "LIST"),)
    ),
    InputOption("sys_file", ("-T",), "System APF file (NIST -T).", (("metavar", "FILE"),)),
    InputOption(
        "sys_list", ("-t",), "File listing system APF files (NIST -t).", (("metavar", "LIST"),)
    ),
    InputOption(
        "nist",
        ("--nist",),
        "The NIST scorer to reproduce: ace08 (ace08-eval-v08), ace07 (ace07-eval-v01) or"
        " ace05 (ace05-eval-v14).",
        (
            ("default", DEFAULT_VERSION),
            ("show_default", True),
            ("type", click.Choice(sorted(VERSIONS))),
        ),
    ),
    InputOption(
        "params",
        ("-P", "--params"),
        "Parameter set (NIST -P; default: the version's first): "
        + "; ".join(
            f"{v.name}: "
            + ", ".join([v.default_params] + sorted(set(v.parameter_sets) - {v.default_params}))
            for v in VERSIONS.values()
        )
        + ".",
        (("metavar", "SET"),),
    ),
    *(
        InputOption(
            o.key,
            (f"-{o.letter}",),
            f"{o.what.capitalize()}: " + ", ".join(o.choices) + f" (default {o.default};"
            " NIST -"
            + o.letter
            + ", "
            + " and ".join(v.name for v in VERSIONS.values() if o.key in v.options)
            + " only).",
            (("metavar", "WORD"),),
        )
        for o in VERSION_OPTIONS.values()
    ),
    InputOption(
        "docs_file",
        ("--docs",),
        "Only the documents whose DOCIDs FILE lists (one per line, as the split"
        " files of the literature; # lines ignored).",
        (("metavar", "FILE"),),
    ),
    InputOption(
        "lenient",
        ("--lenient",),
        "Skip broken elements (or, if they cannot be isolated, their documents, on"
        " both sides) with a warning and go on, instead of stopping.",
        (("is_flag", True),),
    ),
    InputOption(
        "max_bytes",
        ("--max-file-size",),
        "Largest APF file accepted: bytes, or with K, M or G (64M, 1G).",
        (("type", BYTE_SIZE), ("default", "64M"), ("show_default", True)),
    ),
    InputOption(
        "jobs",
        ("-j", "--jobs"),
        "Processes at a time (default and 0: one per CPU available).  The output is"
        " the same for every value.",
        (("type", click.IntRange(min=0, max=MAX_JOBS)), ("default", None)),
    ),
    InputOption(
        "max_pairs",
        ("--max-pairs",),
        "Most REF/SYS pairs (of mentions whose spans correspond, or of"
        " relations/events that may correspond) valued in one document; more is"
        " refused (elements sharing one span make the work grow with the square).",
        (("type", click.IntRange(min=1)), ("default", DEFAULT_MAX_PAIRS), ("show_default", True)),
    ),
    InputOption(
        "quiet",
        ("-q", "--quiet"),
        "No warnings, progress or summary line on standard error.",
        (("is_flag", True),),
    ),
    InputOption(
        "verbose",
        ("--verbose",),
        "Every warning as the NIST tool prints it, its warning for every SYS document"
        " without a REF document too, and every element lenient mode skips (by default"
        " they are grouped by kind, with counts and first examples).",
        (("is_flag", True),),
    ),
)

BY_KEY: dict[str, InputOption] = {o.key: o for o in INPUT_OPTIONS}
#: --nist and the older versions' options (docs/versions.md), taken together
VERSION_KEYS = ("nist", *VERSION_OPTIONS)
#: the input options of the commands that score (score, compare, view)
SCORING_KEYS = (
    *VERSION_KEYS,
    "params",
    "docs_file",
    "lenient",
    "max_bytes",
    "jobs",
    "max_pairs",
    "quiet",
    "verbose",
)
#: the options that name the inputs of a side (with REF SYS given as arguments)
SIDE_KEYS = ("ref_file", "ref_list", "sys_file", "sys_list")

#: the kinds of input a command reads: ``pair`` REF SYS; ``systems`` REF and SYS_A SYS_B ...;
#: ``paths`` APF_PATH...; ``one`` one APF
SHAPES = ("pair", "systems", "paths", "one")


@dataclass(frozen=True)
class Inputs:
    """What a command reads, as given on the command line."""

    ref: str | None = None
    sys: str | None = None
    ref_list: bool = False  # -r: REF is a list file whatever it looks like
    sys_list: bool = False  # -t
    systems: tuple = ()  # compare: SYS_A SYS_B ...
    paths: tuple = ()  # validate APF_PATH..., export APF
    quiet: bool = False
    verbose: bool = False

    def apf_paths(self, side: str, options: Options) -> list:
        """The APF paths of ``side`` (``ref``, ``sys``, or ``systems``: one list each), found
        as every command finds them (:func:`acescore.run.pipeline.discover`): under
        ``--lenient`` a list entry that names nothing is kept, read and skipped with a
        warning like any unreadable file."""
        from acescore.run.pipeline import discover

        if side == "systems":
            return [discover(s, False, options.lenient) for s in self.systems]
        spec, is_list = (self.ref, self.ref_list) if side == "ref" else (self.sys, self.sys_list)
        return discover(spec, is_list, options.lenient)

    @property
    def labels(self) -> dict:
        from acescore.run.pipeline import spec_label

        return {"ref": spec_label(self.ref), "sys": spec_label(self.sys)}


def _refuse(command: str, option: InputOption, reason: str):
    def callback(ctx, param, value):
        if value:
            raise click.UsageError(
                f"{option.name} does not go with acescore {command}"
                + (f": {reason}" if reason else ""),
                ctx,
            )

    return callback


def _sides(ref, sys_, ref_file, ref_list, sys_file, sys_list, shape: str) -> dict:
    """REF and SYS from the arguments and -R/-r/-T/-t (each side given once)."""
    if (
        shape == "pair"
        and sys_ is None
        and ref is not None
        and (ref_file or ref_list)
        and not (sys_file or sys_list)
    ):
        ref, sys_ = None, ref  # -r LIST SYS / -R FILE SYS
    refs = [x for x in (ref, ref_file, ref_list) if x]
    if len(refs) != 1:
        raise AceUsageError("give the reference once: REF, -R FILE or -r LIST")
    out = {"ref": refs[0], "ref_list": bool(ref_list)}
    if shape == "pair":
        syss = [x for x in (sys_, sys_file, sys_list) if x]
        if len(syss) != 1:
            raise AceUsageError("give the system output once: SYS, -T FILE or -t LIST")
        out.update(sys=syss[0], sys_list=bool(sys_list))
    return out


def make_options(
    params: str | None = None,
    max_bytes=None,
    lenient: bool = False,
    docs_file: str | None = None,
    max_pairs=DEFAULT_MAX_PAIRS,
    **kw,
) -> Options:
    """The :class:`Options` of the input options; the ``--docs`` file is read here, through
    the safe reader (:func:`acescore.reading.doclist.read_docids`)."""
    from acescore.model.limits import DEFAULT_MAX_BYTES

    max_bytes = max_bytes or DEFAULT_MAX_BYTES
    if docs_file:
        from acescore.reading.doclist import read_docids

        kw.update(docs=tuple(read_docids(docs_file, max_bytes)), docs_file=docs_file)
    return Options(
        params=params or "", max_bytes=max_bytes, lenient=lenient, max_pairs=max_pairs, **kw
    )


def reads_apf(shape: str, takes=(), refuse: dict | None = None):
    """The decorator of a command that reads APF: its inputs (``shape``, :data:`SHAPES`) and
    the input options it ``takes`` (keys of :data:`INPUT_OPTIONS`; the side options come
    with ``pair`` and, for REF only, ``systems``).  The command is called with ``inputs``
    (:class:`Inputs`) and ``options`` (:class:`Options`) instead of them; every other
    option of the registry is refused (``refuse``: the reason, by key).  Errors are one
    line (:func:`acescore.cli.common.catch_errors`)."""
    assert shape in SHAPES
    taken = set(takes)
    if shape == "pair":
        taken.update(SIDE_KEYS)
    elif shape == "systems":
        taken.update(("ref_file", "ref_list"))
    assert taken <= set(BY_KEY), taken - set(BY_KEY)
    reasons = refuse or {}

    def deco(f):
        from acescore.cli.common import catch_errors

        command = f.__name__.rstrip("_")

        @functools.wraps(f)
        def wrapper(*args, **kw):
            got = {k: kw.pop(k) for k in list(kw) if k in BY_KEY}
            ref = kw.pop("ref", None)
            sides: dict = {}
            if shape == "pair":
                sides = _sides(
                    ref,
                    kw.pop("sys_", None),
                    got.pop("ref_file", None),
                    got.pop("ref_list", None),
                    got.pop("sys_file", None),
                    got.pop("sys_list", None),
                    shape,
                )
            elif shape == "systems":
                systems = kw.pop("systems")
                ref_file, ref_list = got.pop("ref_file", None), got.pop("ref_list", None)
                if ref is not None and (ref_file or ref_list):
                    systems = (ref,) + tuple(systems)
                    ref = None
                sides = _sides(ref, None, ref_file, ref_list, None, None, shape)
                sides["systems"] = tuple(systems)
            else:
                paths = kw.pop("apf_paths")
                sides["paths"] = tuple(paths) if shape == "paths" else (paths,)
            inputs = Inputs(
                quiet=bool(got.pop("quiet", False)),
                verbose=bool(got.pop("verbose", False)),
                **sides,
            )
            if "jobs" in got:  # taken: not given and 0 are one process per CPU
                from acescore.cli.common import resolve_jobs

                got["jobs"] = resolve_jobs(got["jobs"])
            kw["inputs"] = inputs
            kw["options"] = make_options(**got)
            return f(*args, **kw)

        g = catch_errors(wrapper)
        for opt in reversed(INPUT_OPTIONS):
            if opt.key in taken:
                g = opt.click_option()(g)
            else:
                g = opt.click_option(True, _refuse(command, opt, reasons.get(opt.key, "")))(g)
        if shape == "pair":
            g = click.argument("sys_", metavar="SYS", required=False)(g)
            g = click.argument("ref", required=False)(g)
        elif shape == "systems":
            g = click.argument("systems", metavar="SYS_A SYS_B [SYS_C ...]", nargs=-1)(g)
            g = click.argument("ref", required=False)(g)
        elif shape == "paths":
            g = click.argument("apf_paths", metavar="APF_PATH...", nargs=-1, required=True)(g)
        else:
            g = click.argument("apf_paths", metavar="APF")(g)
        return g

    return deco


# --------------------------------------------------------------------------------------------
# reading and scoring: the one way


def read_inputs(inputs: Inputs, options: Options, progress=None):
    """Read and build both sides (:class:`acescore.run.pipeline.Loaded`)."""
    from acescore.run import pipeline

    return pipeline.load(
        inputs.ref,
        inputs.sys,
        options,
        ref_list=inputs.ref_list,
        sys_list=inputs.sys_list,
        progress=progress,
    )


def run_products(options: Options):
    """The code of the optional products ``options`` ask for (:mod:`acescore.run.products`),
    imported now: a run that asks for none imports none (the literature metrics, the
    listings)."""
    from acescore.run.products import Products

    literature = listings = None
    if options.literature_metrics:
        from acescore.model.memory import NUMPY_HEADROOM, load_native

        # numpy first, while the address space is there (acescore.model.memory)
        load_native("numpy", NUMPY_HEADROOM)
        from acescore.metrics import records as literature
    if options.listings:
        from acescore.report import listing_records as listings
    return Products(literature, listings)


def score_inputs(
    inputs: Inputs | None,
    options: Options,
    progress=None,
    *,
    keep_passes: bool = False,
    loaded=None,
):
    """Read and score REF against SYS: the :class:`~acescore.report.results.Results` -- the
    one way every command scores, through the one entry point of a run
    (:func:`acescore.run.execute`: document shards where possible, else one process).
    ``loaded``: the sides read and built already (then ``inputs`` may be None), scored as
    ``execute`` scores them; ``keep_passes``: keep the passes (the HTML view), in one
    process."""
    import sys

    from acescore.run import execute, pipeline

    if loaded is not None:
        return pipeline.score(loaded, keep_passes, products=run_products(loaded.options))
    results = execute(
        inputs.ref,
        inputs.sys,
        options,
        ref_list=inputs.ref_list,
        sys_list=inputs.sys_list,
        progress=progress,
        keep_passes=keep_passes,
        products=run_products(options),
    )
    if progress is not None:
        sys.stderr.write("\r" + " " * 60 + "\r")
    return results
