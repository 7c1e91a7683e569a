"""The data model round-trips: read an APF file, write it back, and the result validates and
reads back to an equal model (line numbers and file paths aside)."""

from __future__ import annotations

import dataclasses
import glob
import os

import pytest

from acescore.model.params import get_params
from acescore.reading.apf import parse_xml, read_apf
from acescore.reading.dtd import validate_apf_tree
from acescore.reading.writer import apf_bytes, write_apf
from acescore.rules.validate import validate_paths

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(HERE, "data", "validate")
FILES = sorted(glob.glob(os.path.join(DATA, "*", "*", "*.apf.xml")))


def without_positions(x):
    """The model with every ``line`` set to 0 and every ``path`` to ''."""
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        changes = {}
        for f in dataclasses.fields(x):
            if not f.init:
                continue
            v = getattr(x, f.name)
            if f.name == "line":
                v = 0
            elif f.name == "path":
                v = ""
            else:
                v = without_positions(v)
            changes[f.name] = v
        return type(x)(**changes)
    if isinstance(x, tuple):
        return tuple(without_positions(i) for i in x)
    return x


def test_there_are_golden_files():
    assert len(FILES) >= 9


@pytest.mark.parametrize("path", FILES, ids=[os.path.relpath(f, DATA) for f in FILES])
def test_golden_roundtrip(path, tmp_path):
    corpus = os.path.dirname(os.path.dirname(path))
    original = read_apf(path)
    out = str(tmp_path / "sub" / os.path.basename(path))
    write_apf(original, out)
    assert validate_apf_tree(parse_xml(out), out) == []
    report = validate_paths([out], source_dir=os.path.join(corpus, "src"))
    assert report.problems == [] and report.exit_code == 0
    again = read_apf(out)
    assert without_positions(again) == without_positions(original)
    # writing is deterministic
    assert apf_bytes(again) == apf_bytes(original)


AUDIO = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE source_file SYSTEM "apf.v5.1.2.dtd">
<source_file URI="a.sph" SOURCE="telephone" TYPE="audio">
<document DOCID="AUD-1">
<entity ID="AUD-1-E1" TYPE="FAC" SUBTYPE="Airport" CLASS="SPC">
  <entity_mention ID="AUD-1-E1-1" TYPE="NAM">
    <extent><timespan START="1.25" END="2.5">Logan Airport</timespan></extent>
    <head><timespan START="1.25" END="2.5">Logan Airport</timespan></head>
  </entity_mention>
  <entity_attributes><name NAME="Logan  Airport."/></entity_attributes>
  <external_link RESOURCE="kb" EID="kb:17"/>
</entity>
<entity ID="AUD-1-E2" TYPE="GPE" SUBTYPE="Nation" CLASS="GEN">
  <entity_mention ID="AUD-1-E2-1" TYPE="NAM" ROLE="LOC" METONYMY_MENTION="TRUE">
    <extent><timespan START="3" END="3.75">France</timespan></extent>
    <head><timespan START="3" END="3.75">France</timespan></head>
  </entity_mention>
  <entity_mention ID="AUD-1-E2-2" TYPE="NOM">
    <extent><timespan START="4" END="4.5">the country</timespan></extent>
    <head><timespan START="4.1" END="4.5">country</timespan></head>
  </entity_mention>
</entity>
<value ID="AUD-1-V1" TYPE="Job-Title">
  <value_mention ID="AUD-1-V1-1"><extent><timespan START="5" END="6">pilot</timespan></extent></value_mention>
</value>
<timex2 ID="AUD-1-T1" VAL="2005" SET="YES" COMMENT="a&#10;two-line comment">
  <timex2_mention ID="AUD-1-T1-1"><extent><timespan START="6" END="7">yearly</timespan></extent></timex2_mention>
</timex2>
<relation ID="AUD-1-R1" TYPE="PHYS" SUBTYPE="Located">
  <relation_argument REFID="AUD-1-E2" ROLE="Arg-1"/>
  <relation_argument REFID="AUD-1-E1" ROLE="Arg-2"/>
  <relation_argument REFID="AUD-1-T1" ROLE="Time-Within"/>
  <relation_mention ID="AUD-1-R1-1">
    <extent><timespan START="1" END="4.5">Logan Airport ... the country</timespan></extent>
    <relation_mention_argument REFID="AUD-1-E1-1" ROLE="Arg-1"/>
    <relation_mention_argument REFID="AUD-1-E2-2" ROLE="Arg-2"/>
  </relation_mention>
</relation>
<relation ID="AUD-1-R2" TYPE="METONYMY">
  <relation_argument REFID="AUD-1-E2" ROLE="Arg-1"/>
  <relation_argument REFID="AUD-1-E1" ROLE="Arg-2"/>
</relation>
<event ID="AUD-1-EV1" TYPE="Movement" SUBTYPE="Transport" MODALITY="Other" POLARITY="Negative" GENERICITY="Generic" TENSE="Future">
  <event_argument REFID="AUD-1-E1" ROLE="Destination"/>
  <event_argument REFID="AUD-1-T1" ROLE="Time-Holds"/>
  <event_mention ID="AUD-1-EV1-1">
    <extent><timespan START="1" END="7">...</timespan></extent>
    <anchor><timespan START="2.5" END="3">flew</timespan></anchor>
    <event_mention_argument REFID="AUD-1-E1-1" ROLE="Destination"/>
    <event_mention_argument REFID="AUD-1-T1-1" ROLE="Time-Holds"/>
  </event_mention>
</event>
</document>
</source_file>
"""

IMAGE = """<?xml version="1.0"?>
<source_file URI="scan.tif" SOURCE="newswire" TYPE="image">
<document DOCID="IMG-1">
<entity ID="IMG-1-E1" TYPE="PER" SUBTYPE="Individual" CLASS="SPC">
  <entity_mention ID="IMG-1-E1-1" TYPE="NAM">
    <extent><bblist><bbox PAGE="2" X="10" Y="5" WIDTH="3.5" HEIGHT="2">Smith</bbox>
      <bbox PAGE="1" X="1" Y="1" WIDTH="2" HEIGHT="2">John</bbox></bblist></extent>
    <head><bblist><bbox PAGE="1" X="1" Y="1" WIDTH="2" HEIGHT="2">John</bbox></bblist></head>
  </entity_mention>
</entity>
</document>
</source_file>
"""

CHARSPAN = """<?xml version="1.0"?>
<!DOCTYPE source_file SYSTEM "apf.v5.1.2.dtd">
<source_file URI="c.sgm" SOURCE="newswire" TYPE="text">
<document DOCID="CS-1">
<entity ID="CS-1-E1" TYPE="ORG" SUBTYPE="Media" CLASS="SPC">
  <entity_mention ID="CS-1-E1-1" TYPE="NAM">
    <extent><charspan START="3" END="11">AT&amp;T Inc</charspan></extent>
    <head><charspan START="3" END="7">AT&amp;T</charspan></head>
  </entity_mention>
  <entity_attributes><name NAME="AT&amp;T"><charspan START="3" END="7">AT&amp;T</charspan></name></entity_attributes>
</entity>
</document>
</source_file>
"""


@pytest.mark.parametrize(
    "text,params",
    [
        (AUDIO, "local_2008"),
        (IMAGE, "local_2008"),
        (CHARSPAN, "local_2008"),
        (AUDIO, "global_2008"),
    ],
    ids=["audio", "image", "charspan", "audio-global"],
)
def test_handmade_roundtrip(text, params, tmp_path):
    src = tmp_path / "in.apf.xml"
    src.write_text(text, encoding="utf-8")
    p = get_params(params)
    original = read_apf(str(src), p)
    out = str(tmp_path / "out.apf.xml")
    write_apf(original, out)
    assert validate_apf_tree(parse_xml(out), out) == []
    again = read_apf(out, p)
    assert without_positions(again) == without_positions(original)
    assert validate_paths([out], params=p).problems == []


def test_written_defaults_are_left_out(tmp_path):
    src = tmp_path / "in.apf.xml"
    src.write_text(AUDIO, encoding="utf-8")
    data = apf_bytes(read_apf(str(src))).decode("utf-8")
    assert '<!DOCTYPE source_file SYSTEM "apf.v5.1.2.dtd">' in data
    assert 'ROLE="FAC"' not in data and 'ROLE="LOC"' in data  # default ROLE is the TYPE
    assert 'MODALITY="Unspecified"' not in data and "NON_SPECIFIC" not in data
    assert 'ROLE="Arg-1"' in data and 'ROLE="Arg"' not in data  # symmetric roles restored
    assert 'COMMENT="a&#10;two-line comment"' in data
    # no DOCTYPE when the file had none, unless one is asked for
    img = tmp_path / "img.apf.xml"
    img.write_text(IMAGE, encoding="utf-8")
    assert b"<!DOCTYPE" not in apf_bytes(read_apf(str(img)))
    assert b'SYSTEM "apf.v5.1.1.dtd"' in apf_bytes(read_apf(str(img)), "apf.v5.1.1.dtd")


def test_apf_5_2_0_output(tmp_path):
    """Entities and relations only, written with the ACE 2008 DOCTYPE, validate against
    APF 5.2.0 (and with the sources)."""
    path = os.path.join(DATA, "tiny", "ref", "SYNBC_20040910.0003.apf.xml")
    a = read_apf(path)
    docs = tuple(dataclasses.replace(d, values=(), timex2s=(), events=()) for d in a.documents)
    b = dataclasses.replace(a, documents=docs)
    out = str(tmp_path / "e.apf.xml")
    write_apf(b, out, doctype="apf.v5.2.0.dtd")
    assert validate_apf_tree(parse_xml(out), out) == []
    report = validate_paths([out], source_dir=os.path.join(DATA, "tiny", "src"))
    assert report.problems == []
    assert without_positions(read_apf(out)) == without_positions(
        dataclasses.replace(b, doctype="apf.v5.2.0.dtd")
    )
