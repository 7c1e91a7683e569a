"""acescore: a reimplementation of the NIST ACE scorer (ace08-eval-v08.pl).

Python API::

    import acescore
    results = acescore.score("ref/", "sys/", params="local_2008", mentions=True)
    print(results.to_text())              # the NIST report
    results.to_json()                     # every table, machine-readable
    results.table("edr", "TYPE")          # rows of one table
    apf = acescore.read_apf("doc.apf.xml")

See :mod:`acescore.api`.
"""

from acescore.model.version import __version__ as __version__


def __getattr__(name):
    # the API is imported on first use (the command line does not need it)
    if name in ("score", "read_apf", "options", "Options", "Results"):
        from acescore import api

        return getattr(api, name)
    raise AttributeError(f"module 'acescore' has no attribute {name!r}")
