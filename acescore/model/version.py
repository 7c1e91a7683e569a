"""The version of acescore (pyproject.toml reads it from here)."""

__version__ = "0.1.0"

#: what ``acescore --version`` prints (click's form; acescore.entry prints it without
#: loading the command line, acescore.cli gives it to click's --version)
VERSION_MESSAGE = "%(prog)s, version %(version)s"
