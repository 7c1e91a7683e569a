"""The ``$schema`` of the JSON outputs: a real URL, the schema file's ``$id``, this version's tag."""

import json
import re
from pathlib import Path

from acescore.model.version import REPOSITORY, __version__, schema_url
from acescore.report.data.json_report import SCHEMA_ID

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "acescore" / "schema"


def test_schema_urls_are_the_files_ids_at_this_versions_tag():
    for name in ("results", "compare"):
        url = schema_url(name)
        assert url == (
            "https://raw.githubusercontent.com/acescore/acescore/"
            f"v{__version__}/acescore/schema/{name}.schema.json"
        )
        schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
        assert schema["$id"] == url
        assert ".invalid" not in url
    assert schema_url("results") == SCHEMA_ID


def test_repository_is_named_alike_everywhere():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^Repository = "([^"]+)"$', pyproject, re.M).group(1) == REPOSITORY
    cff = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert re.search(r'^repository-code: "([^"]+)"$', cff, re.M).group(1) == REPOSITORY
