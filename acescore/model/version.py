"""The version of acescore (pyproject.toml reads it from here) and where the project lives."""

__version__ = "0.1.0"

#: what ``acescore --version`` prints (click's form; acescore.entry prints it without
#: loading the command line, acescore.cli gives it to click's --version)
VERSION_MESSAGE = "%(prog)s, version %(version)s"

#: the project's repository (pyproject.toml's and CITATION.cff's ``repository-code`` name it too)
REPOSITORY = "https://github.com/acescore/acescore"


def schema_url(name: str) -> str:
    """Where the JSON schema ``acescore/schema/NAME.schema.json`` of this version is published:
    the file at this version's tag of the repository (``$schema`` of a JSON report, ``$id``
    of the schema; a test keeps the two in step with ``__version__``)."""
    raw = REPOSITORY.replace("https://github.com/", "https://raw.githubusercontent.com/")
    return f"{raw}/v{__version__}/acescore/schema/{name}.schema.json"
