"""Command-line values every command parses the same way: sizes such as ``64M``
(``--max-file-size``) and the ``--fail-under`` gates, checked before anything is read or
scored."""

from __future__ import annotations

import math
import re

import click

from acescore.model.errors import AceUsageError

_SIZE = r"\s*(\d+)\s*([KMG]?)(?:I?B)?\s*"  # (compiled when first used: re's cache)
_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3}


def parse_size(text) -> int:
    """``64M`` -> 67108864: a number of bytes, optionally with K, M or G (powers of 1024;
    ``KB``, ``MiB`` ... are read the same way)."""
    if isinstance(text, int):
        return text
    m = re.fullmatch(_SIZE, str(text), re.IGNORECASE)
    if m is None:
        raise ValueError(
            f"'{text}' is not a size: give bytes, or a number with K, M or G (e.g. 64M, 1G)"
        )
    return int(m.group(1)) * _UNITS[m.group(2).upper()]


class ByteSize(click.ParamType):
    name = "SIZE"

    def convert(self, value, param, ctx):
        try:
            return parse_size(value)
        except ValueError as e:
            self.fail(str(e), param, ctx)


BYTE_SIZE = ByteSize()


class OpenUnit(click.ParamType):
    """A number strictly between 0 and 1 (``--alpha``); ``nan`` and ``inf`` are refused
    (a range check of floats lets NaN through: every comparison with it is false)."""

    name = "FLOAT"

    def convert(self, value, param, ctx):
        try:
            x = float(value)
        except (TypeError, ValueError):
            x = math.nan
        if not (math.isfinite(x) and 0 < x < 1):
            self.fail(
                f"'{value}' is not a number between 0 and 1 (exclusive), e.g. 0.05", param, ctx
            )
        return x


OPEN_UNIT = OpenUnit()


# --------------------------------------------------------------------------------------------
# --fail-under


def parse_gates(specs, mentions: bool, params) -> tuple[list, list]:
    """``--fail-under TASK=VALUE`` options -> ``([(task, value)], warnings)``, checked before
    scoring: an unknown task, a task this run does not score (a mention-level task without
    ``-m``, or with a parameter set that uses no mentions) and a value that is not a number
    are usage errors; a value of 1 or less is most likely a fraction where a percentage is
    meant (a warning)."""
    from acescore.model.tasks import JSON_NAMES, lookup

    gates, warnings = [], []
    known = ", ".join(sorted(JSON_NAMES))
    for g in specs:
        task, sep, val = g.partition("=")
        task = task.strip().lower()
        if not sep or not task:
            raise AceUsageError(f"--fail-under takes TASK=VALUE, not '{g}'")
        t = lookup(task)
        if t is None:
            raise AceUsageError(f"--fail-under: unknown task '{task}' (known: {known})")
        try:
            value = float(val)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise AceUsageError(
                f"--fail-under {g}: '{val.strip()}' is not a number (a Value in %, e.g. edr=60)"
            )
        name = t.json_name
        if t.mention_level and not (mentions and params.use_mentions):
            raise AceUsageError(
                f"--fail-under {g}: {name} is not scored in this run ("
                + (
                    "add -m"
                    if params.use_mentions
                    else f"parameter set {params.name} scores no mentions"
                )
                + ")"
            )
        if value <= 1:
            warnings.append(
                f"--fail-under {g}: Values are percentages; {value:g} looks like"
                f" a fraction (did you mean {name}={100 * value:g}?)"
            )
        gates.append((task, value))
    return gates, warnings
