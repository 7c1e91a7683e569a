"""File names made from data (acescore.writing.names): a DOCID never writes outside the
output folder -- ``acescore import`` and ``acescore view`` name their files through the same
function."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from acescore.cli import main
from acescore.writing.names import MAX_NAME, inside, safe_name, unique_names
from acescore.writing.output import OutputError

UNSAFE = [
    "../../x",
    "/abs/x",
    "a\x00b",
    "D" * 300,
    "..",
    ".hidden",
    "a\\b",
    "tab\there",
    "nl\nx",
    "",
]


@pytest.mark.parametrize("docid", UNSAFE)
def test_safe_name_is_one_plain_file_name(docid):
    name = safe_name(docid)
    assert name and len(name) <= MAX_NAME
    assert "/" not in name and "\\" not in name and "\x00" not in name
    assert not name.startswith(".") and name not in (".", "..")
    assert all(c.isascii() and (c.isalnum() or c in "._-") for c in name)


def test_long_names_stay_distinct_and_names_unique():
    a, b = "D" * 300, "D" * 299 + "E"
    assert safe_name(a) != safe_name(b)
    names = unique_names(["a/b", "a_b", "A_B", "x"])
    assert names == {"a/b": "a_b", "a_b": "a_b-2", "A_B": "A_B-3", "x": "x"}


def test_inside_refuses_paths_leaving_the_folder(tmp_path):
    assert inside(str(tmp_path), "ok.apf.xml") == os.path.join(str(tmp_path), "ok.apf.xml")
    for bad in ("../x", "/abs/x", "a/../../x"):
        with pytest.raises(OutputError, match="leaves the output folder"):
            inside(str(tmp_path), bad)
    (tmp_path / "link").symlink_to("/tmp")
    with pytest.raises(OutputError):
        inside(str(tmp_path), "link/x")


def _source(folder, docid: str, stem: str) -> None:
    folder.mkdir(exist_ok=True)
    (folder / f"{stem}.sgm").write_text(
        f"<DOC>\n<DOCID> {docid} </DOCID>\n<BODY>\n<TEXT>\nJohn met Mary .\n</TEXT>\n"
        "</BODY>\n</DOC>\n",
        encoding="utf-8",
    )


@pytest.mark.parametrize("docid", ["../../x", "/abs/x", "a\\b", "D" * 300, ".hidden"])
def test_import_unsafe_docids_stay_in_the_output_folder(tmp_path, docid):
    src = tmp_path / "src"
    _source(src, docid, "doc1")
    pred = tmp_path / "pred.json"
    pred.write_text(
        json.dumps(
            {
                "doc_key": docid,
                "sentences": [["John", "met", "Mary", "."]],
                "predicted_ner": [[[0, 0, "PER"], [2, 2, "PER"]]],
            }
        )
        + "\n"
    )
    out = tmp_path / "deep" / "out"
    res = CliRunner().invoke(
        main, ["import", "--from", "dygiepp", str(pred), "--source-dir", str(src), "-O", str(out)]
    )
    assert res.exit_code == 0, res.output
    files = sorted(os.listdir(out))
    assert len(files) == 1 and files[0] == safe_name(docid) + ".apf.xml"
    # nothing written anywhere else
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deep", "pred.json", "src"]
    assert os.listdir(tmp_path / "deep") == ["out"]
    assert docid in (out / files[0]).read_text(encoding="utf-8") or docid.startswith("D")


def test_view_pages_are_named_by_the_same_function():
    from acescore.view.common import safe_name as view_name

    assert view_name is safe_name
