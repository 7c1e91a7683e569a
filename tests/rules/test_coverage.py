"""Which documents a run scores (acescore.rules.coverage) and --docs lists (acescore.reading.doclist):
the building blocks of issue #14 points 3, 4 and 5, on sides built from the bundled example."""

from __future__ import annotations

import os

import pytest

from acescore.model.errors import AceError
from acescore.model.options import Options
from acescore.reading.doclist import missing_note, read_docids, restrict
from acescore.rules.coverage import (
    Coverage,
    coverage,
    fold_warnings,
    require_common,
    require_documents,
    summary_line,
    what_is_there,
)
from acescore.run import pipeline

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REF = os.path.join(ROOT, "examples", "ref")
SYS = os.path.join(ROOT, "examples", "sys")
P = Options()
DOCS = sorted(f[: -len(".apf.xml")] for f in os.listdir(REF))


def sides(ref_files, sys_files):
    loaded = pipeline.build(
        pipeline.read_corpus(ref_files, P), pipeline.read_corpus(sys_files, P), P
    )
    return loaded.ref, loaded.sys, loaded.warnings


def path(folder, docid):
    return os.path.join(folder, docid + ".apf.xml")


def test_summary_counts_and_line():
    r, s, warnings = sides([path(REF, d) for d in DOCS[:3]], [path(SYS, d) for d in DOCS[1:]])
    c = coverage(r, s)
    assert c == Coverage(ref=3, scored=2, sys=3, sys_without_ref=1)
    assert c.as_dict() == {
        "ref": 3,
        "sys": 3,
        "scored": 2,
        "ref_without_sys": 1,
        "sys_without_ref": 1,
    }
    assert summary_line(c) == (
        "acescore: scored 2 of 3 REF documents; 1 REF documents have no"
        " SYS document (scored as misses); 1 SYS documents have no REF"
        " document (ignored)"
    )
    # the NIST block of the SYS document without REF document folds into the count
    assert any("system output for unevaluated document" in w for w in warnings)
    folded = fold_warnings(warnings, verbose=False)
    assert not any("unevaluated" in w or "no evaluable" in w for w in folded)
    assert any("has no corresponding tst doc" in w for w in folded)
    assert fold_warnings(warnings, verbose=True) == warnings
    both = Coverage(4, 4, 4, 0, skipped_elements=1, skipped_documents=0)
    assert summary_line(both).endswith(
        "0 SYS documents have no REF document (ignored); lenient: skipped 1 element and 0 documents"
    )


def test_no_docid_in_common():
    r, s, _ = sides([path(REF, DOCS[0])], [path(SYS, d) for d in DOCS[1:]])
    with pytest.raises(AceError) as e:
        require_common(r.documents, s.all_documents, "ref/", "sys/")
    assert str(e.value) == (
        f"nothing to score: REF ref/ (1 document, e.g. {DOCS[0]}) and SYS"
        f" sys/ (3 documents, e.g. {DOCS[1]}) have no DOCID in common"
    )
    assert e.value.exit_code == 2
    r, s, _ = sides([path(REF, d) for d in DOCS], [path(SYS, DOCS[0])])
    require_common(r.documents, s.all_documents, "ref/", "sys/")  # one in common is enough


@pytest.mark.parametrize(
    "name,content,what",
    [
        ("page.html", b"<!DOCTYPE html>\n<html><body>x</body></html>\n", "an HTML file"),
        (
            "doc.sgm",
            b"<DOC>\n<DOCID> X </DOCID>\n<BODY><TEXT>a & b</TEXT></BODY></DOC>\n",
            "an ACE source document (.sgm), not an APF annotation",
        ),
        (
            "ns.apf.xml",
            b'<?xml version="1.0"?>\n<source_file xmlns="urn:x" URI="a" SOURCE="b" TYPE="text"/>\n',
            "root element <source_file> in namespace urn:x (APF elements have no namespace)",
        ),
        (
            "wrap.apf.xml",
            b"<corpus><source_file/></corpus>",
            "root element <corpus>, not <source_file>",
        ),
        ("empty.apf.xml", b"", "an empty file"),
        ("bad.apf.xml", b"<source_file", "not well-formed XML"),
    ],
)
def test_what_is_there(tmp_path, name, content, what):
    p = tmp_path / name
    p.write_bytes(content)
    assert what_is_there(str(p)) == what


def test_input_without_apf_documents(tmp_path):
    p = tmp_path / "page.html"
    p.write_bytes(b"<html><body>x</body></html>")
    corpus = pipeline.read_corpus([str(p)], P)
    with pytest.raises(AceError) as e:
        require_documents("SYS", str(p), corpus.files)
    assert str(e.value) == f"nothing to score: SYS {p} holds no APF document: an HTML file"
    require_documents("REF", REF, pipeline.read_corpus(pipeline.discover(REF), P).files)


def test_docs_list(tmp_path):
    lst = tmp_path / "test.txt"
    lst.write_text(f"# the test split\n\n{DOCS[0]}\nnw/{DOCS[1]}.sgm\n  {DOCS[0]}  \nNOT_THERE_1\n")
    ids = read_docids(str(lst))
    assert ids == [DOCS[0], DOCS[1], "NOT_THERE_1"]
    files = pipeline.read_corpus(pipeline.discover(REF), P).files
    kept = restrict(files, ids)
    assert sorted(d.docid for f in kept for d in f.documents) == DOCS[:2]
    assert missing_note(f"--docs {lst}", ids, {DOCS[0], DOCS[1]}, "REF") == (
        "--docs test.txt: 1 of the 3 listed DOCIDs is not in REF (e.g. NOT_THERE_1)"
    )
    assert missing_note("docs=", ids, {DOCS[0], DOCS[1]}, "REF") == (  # the Python API
        "docs=: 1 of the 3 listed DOCIDs is not in REF (e.g. NOT_THERE_1)"
    )
    bad = tmp_path / "bad.txt"
    bad.write_text(f"{DOCS[0]}\n{DOCS[1]} {DOCS[2]}\n")
    with pytest.raises(AceError, match=r"bad.txt:2: not a DOCID: '.*' \(one DOCID per line\)"):
        read_docids(str(bad))
    (tmp_path / "blank.txt").write_text("# nothing\n\n")
    with pytest.raises(AceError, match="no DOCID in this file"):
        read_docids(str(tmp_path / "blank.txt"))
    with pytest.raises(AceError, match="cannot open"):
        read_docids(str(tmp_path / "none.txt"))
