"""Running out of memory: one line and exit 2 at any size, never a library's own abort.

Python's own allocations fail with :class:`MemoryError`, which the command line turns into
one line (:class:`acescore.cli.common.OneLineGroup`).  The native libraries do not all fail
that way under an address-space limit (``ulimit -v``, ``ulimit -d``): numpy's OpenBLAS
prints "Memory allocation still failed" and exits 1 when it cannot map its buffer while
numpy is imported, scipy's OpenBLAS retries for ever (a hang), and a shared library that
cannot be mapped is an ImportError with the library's text.  So before loading each of them
a run makes sure the address space they need is there (:func:`load_native`: a mapping of
that size made and released at once, only under a limit) and raises MemoryError if not;
:func:`is_out_of_memory` tells the import errors of a failed mapping from others.
"""

from __future__ import annotations

import errno
import importlib
import mmap
import resource
import sys
from types import ModuleType

#: address space numpy takes when imported (its libraries and OpenBLAS's 32 MB buffer;
#: measured +83 MB with one BLAS thread), with room for the command's first steps
NUMPY_HEADROOM = 96 << 20
#: address space a command that loads no numpy (``validate``, a text ``score``) needs beyond
#: the interpreter's before it starts (lxml and the first steps; measured: a one-document
#: ``score`` fails inside a native library at 30 MB of ``ulimit -v``, runs at 32 MB)
COMMAND_HEADROOM = 16 << 20
#: address space scipy's matching modules take (its own OpenBLAS: measured +128 MB)
SCIPY_HEADROOM = 160 << 20

#: what the loader and the libraries say when a mapping fails
_SIGNS = ("failed to map segment", "cannot allocate memory", "memory allocation")


def limited() -> bool:
    """Whether the process runs under an address-space or data-size limit."""
    for which in (resource.RLIMIT_AS, resource.RLIMIT_DATA):
        soft, _ = resource.getrlimit(which)
        if soft != resource.RLIM_INFINITY:
            return True
    return False


def require_headroom(nbytes: int, what: str) -> None:
    """Raise :class:`MemoryError` unless ``nbytes`` more of memory can be mapped now
    (checked under a limit only: without one, the mapping would always succeed)."""
    if not limited():
        return
    try:
        probe = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE)  # counted by both limits
    except (OSError, ValueError, OverflowError):
        raise MemoryError(f"{nbytes >> 20} MB more needed to load {what}") from None
    probe.close()


def load_native(name: str, headroom: int) -> ModuleType:
    """Import module ``name`` (numpy, scipy ...), first making sure that ``headroom`` bytes
    can be mapped; a failed mapping while it loads is a :class:`MemoryError` too."""
    module = sys.modules.get(name)
    if module is not None:
        return module
    require_headroom(headroom, name.split(".")[0])
    try:
        return importlib.import_module(name)
    except (ImportError, OSError) as e:
        if is_out_of_memory(e):
            raise MemoryError(f"loading {name}: {e}") from None
        raise


def is_out_of_memory(e: BaseException | None) -> bool:
    """Whether ``e`` (or an exception it was raised from) says that memory ran out: a
    MemoryError, an OSError ENOMEM, a library that could not be mapped."""
    seen = 0
    while e is not None and seen < 20:
        if isinstance(e, MemoryError):
            return True
        if isinstance(e, OSError) and e.errno == errno.ENOMEM:
            return True
        if isinstance(e, (ImportError, OSError)) and any(s in str(e).lower() for s in _SIGNS):
            return True
        e = e.__cause__ or e.__context__
        seen += 1
    return False
