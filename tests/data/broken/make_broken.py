"""Regenerates the broken inputs of tests/test_validate.py in this folder: a valid base
document (valid.apf.xml, source in src/) and one variant per problem.  Run it with
``python make_broken.py``; the expected messages live in tests/test_validate.py."""

import os
import shutil

OUT = os.path.dirname(os.path.abspath(__file__))

BASE = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE source_file SYSTEM "apf.v5.1.1.dtd">
<source_file URI="BRK-1.sgm" SOURCE="newswire" TYPE="text" AUTHOR="acescore tests" ENCODING="UTF-8">
<document DOCID="BRK-1">
<entity ID="BRK-1-E1" TYPE="PER" SUBTYPE="Individual" CLASS="SPC">
  <entity_mention ID="BRK-1-E1-1" TYPE="NAM" LDCTYPE="NAM">
    <extent><charseq START="57" END="66">John Smith</charseq></extent>
    <head><charseq START="57" END="66">John Smith</charseq></head>
  </entity_mention>
  <entity_mention ID="BRK-1-E1-2" TYPE="PRO" LDCTYPE="PRO">
    <extent><charseq START="72" END="74">his</charseq></extent>
    <head><charseq START="72" END="74">his</charseq></head>
  </entity_mention>
  <entity_attributes>
    <name NAME="John Smith"><charseq START="57" END="66">John Smith</charseq></name>
  </entity_attributes>
</entity>
<entity ID="BRK-1-E2" TYPE="PER" SUBTYPE="Individual" CLASS="SPC">
  <entity_mention ID="BRK-1-E2-1" TYPE="NOM" LDCTYPE="NOM">
    <extent><charseq START="72" END="81">his sister</charseq></extent>
    <head><charseq START="76" END="81">sister</charseq></head>
  </entity_mention>
  <entity_mention ID="BRK-1-E2-2" TYPE="NAM" LDCTYPE="NAM">
    <extent><charseq START="83" END="92">Mary Jones</charseq></extent>
    <head><charseq START="83" END="92">Mary Jones</charseq></head>
  </entity_mention>
  <entity_mention ID="BRK-1-E2-3" TYPE="PRO" LDCTYPE="PRO">
    <extent><charseq START="114" END="116">She</charseq></extent>
    <head><charseq START="114" END="116">She</charseq></head>
  </entity_mention>
  <entity_attributes>
    <name NAME="Mary Jones"><charseq START="83" END="92">Mary Jones</charseq></name>
  </entity_attributes>
</entity>
<entity ID="BRK-1-E3" TYPE="GPE" SUBTYPE="Population-Center" CLASS="SPC">
  <entity_mention ID="BRK-1-E3-1" TYPE="NAM" LDCTYPE="NAM" ROLE="GPE">
    <extent><charseq START="97" END="101">Paris</charseq></extent>
    <head><charseq START="97" END="101">Paris</charseq></head>
  </entity_mention>
  <entity_attributes>
    <name NAME="Paris"><charseq START="97" END="101">Paris</charseq></name>
  </entity_attributes>
</entity>
<entity ID="BRK-1-E4" TYPE="ORG" SUBTYPE="Commercial" CLASS="SPC">
  <entity_mention ID="BRK-1-E4-1" TYPE="NAM" LDCTYPE="NAM">
    <extent><charseq START="128" END="136">Acme Corp</charseq></extent>
    <head><charseq START="128" END="136">Acme Corp</charseq></head>
  </entity_mention>
  <entity_attributes>
    <name NAME="Acme Corp"><charseq START="128" END="136">Acme Corp</charseq></name>
  </entity_attributes>
</entity>
<value ID="BRK-1-V1" TYPE="Numeric" SUBTYPE="Money">
  <value_mention ID="BRK-1-V1-1">
    <extent><charseq START="148" END="154">$50,000</charseq></extent>
  </value_mention>
</value>
<timex2 ID="BRK-1-T1" VAL="2005-01-03">
  <timex2_mention ID="BRK-1-T1-1">
    <extent><charseq START="106" END="111">Monday</charseq></extent>
  </timex2_mention>
</timex2>
<timex2 ID="BRK-1-T2" VAL="2005-01-01">
  <timex2_mention ID="BRK-1-T2-1">
    <extent><charseq START="23" END="32">2005-01-01</charseq></extent>
  </timex2_mention>
</timex2>
<relation ID="BRK-1-R1" TYPE="PER-SOC" SUBTYPE="Family" MODALITY="Asserted" TENSE="Past">
  <relation_argument REFID="BRK-1-E1" ROLE="Arg-1"/>
  <relation_argument REFID="BRK-1-E2" ROLE="Arg-2"/>
  <relation_mention ID="BRK-1-R1-1" LEXICALCONDITION="Possessive">
    <extent><charseq START="72" END="81">his sister</charseq></extent>
    <relation_mention_argument REFID="BRK-1-E1-2" ROLE="Arg-1">
      <extent><charseq START="72" END="74">his</charseq></extent>
    </relation_mention_argument>
    <relation_mention_argument REFID="BRK-1-E2-1" ROLE="Arg-2">
      <extent><charseq START="72" END="81">his sister</charseq></extent>
    </relation_mention_argument>
  </relation_mention>
</relation>
<relation ID="BRK-1-R2" TYPE="ORG-AFF" SUBTYPE="Employment" MODALITY="Asserted" TENSE="Present">
  <relation_argument REFID="BRK-1-E2" ROLE="Arg-1"/>
  <relation_argument REFID="BRK-1-E4" ROLE="Arg-2"/>
  <relation_mention ID="BRK-1-R2-1" LEXICALCONDITION="Verbal">
    <extent><charseq START="114" END="136">She works for Acme Corp</charseq></extent>
    <relation_mention_argument REFID="BRK-1-E2-3" ROLE="Arg-1">
      <extent><charseq START="114" END="116">She</charseq></extent>
    </relation_mention_argument>
    <relation_mention_argument REFID="BRK-1-E4-1" ROLE="Arg-2">
      <extent><charseq START="128" END="136">Acme Corp</charseq></extent>
    </relation_mention_argument>
  </relation_mention>
</relation>
<event ID="BRK-1-EV1" TYPE="Contact" SUBTYPE="Meet" MODALITY="Asserted" POLARITY="Positive" GENERICITY="Specific" TENSE="Past">
  <event_argument REFID="BRK-1-E1" ROLE="Entity"/>
  <event_argument REFID="BRK-1-E2" ROLE="Entity"/>
  <event_argument REFID="BRK-1-E3" ROLE="Place"/>
  <event_argument REFID="BRK-1-T1" ROLE="Time-Within"/>
  <event_mention ID="BRK-1-EV1-1">
    <extent><charseq START="57" END="112">John Smith met his sister Mary Jones in Paris on Monday.</charseq></extent>
    <ldc_scope><charseq START="57" END="112">John Smith met his sister Mary Jones in Paris on Monday.</charseq></ldc_scope>
    <anchor><charseq START="68" END="70">met</charseq></anchor>
    <event_mention_argument REFID="BRK-1-E1-1" ROLE="Entity">
      <extent><charseq START="57" END="66">John Smith</charseq></extent>
    </event_mention_argument>
    <event_mention_argument REFID="BRK-1-E2-2" ROLE="Entity">
      <extent><charseq START="83" END="92">Mary Jones</charseq></extent>
    </event_mention_argument>
    <event_mention_argument REFID="BRK-1-E3-1" ROLE="Place">
      <extent><charseq START="97" END="101">Paris</charseq></extent>
    </event_mention_argument>
    <event_mention_argument REFID="BRK-1-T1-1" ROLE="Time-Within">
      <extent><charseq START="106" END="111">Monday</charseq></extent>
    </event_mention_argument>
  </event_mention>
</event>
</document>
</source_file>
"""


def variant(old, new, count=1, text=BASE):
    assert text.count(old) == count, (old, text.count(old))
    return text.replace(old, new)


CASES = {}


def case(name, *pairs, data=None):
    t = BASE
    for old, new in pairs:
        t = variant(old, new, text=t)
    CASES[name] = t if data is None else data


case(
    "malformed_xml",
    (
        '  </entity_mention>\n  <entity_attributes>\n    <name NAME="Paris">',
        '  <entity_attributes>\n    <name NAME="Paris">',
    ),
)
case(
    "not_utf8",
    (
        'John Smith</charseq></extent>\n    <head><charseq START="57" END="66">John Smith',
        'John Smith</charseq></extent>\n    <head><charseq START="57" END="66">John Smith',
    ),
)
CASES["not_utf8"] = (
    CASES["not_utf8"]
    .encode("utf-8")
    .replace(b'<name NAME="John Smith">', b'<name NAME="John Sm\xefth">')
)
case(
    "xxe_entity_declaration",
    (
        '<!DOCTYPE source_file SYSTEM "apf.v5.1.1.dtd">',
        '<!DOCTYPE source_file SYSTEM "apf.v5.1.1.dtd" [\n  <!ENTITY xxe SYSTEM "file:///etc/passwd">\n]>',
    ),
    ('<name NAME="Paris">', '<name NAME="&xxe;">'),
)
case("xxe_undeclared_entity", ('<name NAME="Paris">', '<name NAME="&xxe;">'))
case("empty_file", data="")
case(
    "wrong_entity_type",
    ('<entity ID="BRK-1-E4" TYPE="ORG"', '<entity ID="BRK-1-E4" TYPE="COMPANY"'),
)
case(
    "wrong_entity_subtype",
    (
        '<entity ID="BRK-1-E3" TYPE="GPE" SUBTYPE="Population-Center"',
        '<entity ID="BRK-1-E3" TYPE="GPE" SUBTYPE="Commercial"',
    ),
)
case(
    "missing_class",
    (
        '<entity ID="BRK-1-E4" TYPE="ORG" SUBTYPE="Commercial" CLASS="SPC">',
        '<entity ID="BRK-1-E4" TYPE="ORG" SUBTYPE="Commercial">',
    ),
)
case(
    "unknown_attribute",
    (
        '<entity ID="BRK-1-E4" TYPE="ORG" SUBTYPE="Commercial" CLASS="SPC">',
        '<entity ID="BRK-1-E4" TYPE="ORG" SUBTYPE="Commercial" CLASS="SPC" CONFIDENCE="0.9">',
    ),
)
case("wrong_mention_role", ('LDCTYPE="NAM" ROLE="GPE"', 'LDCTYPE="NAM" ROLE="FAC"'))
case(
    "wrong_relation_role",
    (
        '<relation_argument REFID="BRK-1-E4" ROLE="Arg-2"/>',
        '<relation_argument REFID="BRK-1-E4" ROLE="Arg-3"/>',
    ),
)
case("missing_event_genericity", (' GENERICITY="Specific"', ""))
case(
    "value_subtype_not_allowed",
    (
        '<value ID="BRK-1-V1" TYPE="Numeric" SUBTYPE="Money">',
        '<value ID="BRK-1-V1" TYPE="Crime" SUBTYPE="Money">',
    ),
)
case(
    "timex2_bad_set",
    (
        '<timex2 ID="BRK-1-T1" VAL="2005-01-03">',
        '<timex2 ID="BRK-1-T1" VAL="2005-01-03" SET="MAYBE">',
    ),
)
case(
    "entity_without_mentions",
    (
        """<entity ID="BRK-1-E4" TYPE="ORG" SUBTYPE="Commercial" CLASS="SPC">
  <entity_mention ID="BRK-1-E4-1" TYPE="NAM" LDCTYPE="NAM">
    <extent><charseq START="128" END="136">Acme Corp</charseq></extent>
    <head><charseq START="128" END="136">Acme Corp</charseq></head>
  </entity_mention>
  <entity_attributes>
    <name NAME="Acme Corp"><charseq START="128" END="136">Acme Corp</charseq></name>
  </entity_attributes>
</entity>
""",
        """<entity ID="BRK-1-E5" TYPE="ORG" SUBTYPE="Commercial" CLASS="SPC">
</entity>
<entity ID="BRK-1-E4" TYPE="ORG" SUBTYPE="Commercial" CLASS="SPC">
  <entity_mention ID="BRK-1-E4-1" TYPE="NAM" LDCTYPE="NAM">
    <extent><charseq START="128" END="136">Acme Corp</charseq></extent>
    <head><charseq START="128" END="136">Acme Corp</charseq></head>
  </entity_mention>
  <entity_attributes>
    <name NAME="Acme Corp"><charseq START="128" END="136">Acme Corp</charseq></name>
  </entity_attributes>
</entity>
""",
    ),
)
case("missing_docid", ('<document DOCID="BRK-1">', "<document>"))
case(
    "start_not_a_number",
    (
        '<extent><charseq START="148" END="154">$50,000</charseq></extent>',
        '<extent><charseq START="14S" END="154">$50,000</charseq></extent>',
    ),
)
case(
    "negative_span",
    (
        '<extent><charseq START="148" END="154">$50,000</charseq></extent>',
        '<extent><charseq START="154" END="148">$50,000</charseq></extent>',
    ),
)
case(
    "offset_off_by_one",
    (
        '<anchor><charseq START="68" END="70">met</charseq></anchor>',
        '<anchor><charseq START="69" END="71">met</charseq></anchor>',
    ),
)
case(
    "text_mismatch",
    (
        '<extent><charseq START="97" END="101">Paris</charseq></extent>\n    <head>',
        '<extent><charseq START="97" END="101">Paros</charseq></extent>\n    <head>',
    ),
)
case(
    "offset_beyond_end",
    (
        '<extent><charseq START="148" END="154">$50,000</charseq></extent>',
        '<extent><charseq START="1148" END="1154">$50,000</charseq></extent>',
    ),
)
case(
    "duplicate_mention_id",
    ('<entity_mention ID="BRK-1-E2-3"', '<entity_mention ID="BRK-1-E1-2"'),
    (
        '<relation_mention_argument REFID="BRK-1-E2-3"',
        '<relation_mention_argument REFID="BRK-1-E1-2"',
    ),
)
case("duplicate_element_id", ('<value ID="BRK-1-V1"', '<value ID="BRK-1-E4"'))
case(
    "dangling_refid",
    (
        '<event_argument REFID="BRK-1-T1" ROLE="Time-Within"/>',
        '<event_argument REFID="BRK-1-T1" ROLE="Time-Within"/>\n  <event_argument REFID="BRK-1-E9" ROLE="Instrument"/>',
    ),
)
case(
    "dangling_mention_refid",
    (
        '<event_mention_argument REFID="BRK-1-T1-1" ROLE="Time-Within">',
        '<event_mention_argument REFID="BRK-1-T1-9" ROLE="Time-Within">',
    ),
)
case(
    "argument_is_a_mention",
    (
        '<event_argument REFID="BRK-1-E3" ROLE="Place"/>',
        '<event_argument REFID="BRK-1-E3-1" ROLE="Place"/>',
    ),
    (
        """    <event_mention_argument REFID="BRK-1-E3-1" ROLE="Place">
      <extent><charseq START="97" END="101">Paris</charseq></extent>
    </event_mention_argument>
""",
        "",
    ),
)
case(
    "symmetric_relation_one_argument",
    (
        '  <relation_argument REFID="BRK-1-E2" ROLE="Arg-2"/>\n  <relation_mention ID="BRK-1-R1-1"',
        '  <relation_mention ID="BRK-1-R1-1"',
    ),
    (
        """    <relation_mention_argument REFID="BRK-1-E2-1" ROLE="Arg-2">
      <extent><charseq START="72" END="81">his sister</charseq></extent>
    </relation_mention_argument>
""",
        "",
    ),
)
case(
    "relation_without_arg2",
    ('  <relation_argument REFID="BRK-1-E4" ROLE="Arg-2"/>\n', ""),
    (
        """    <relation_mention_argument REFID="BRK-1-E4-1" ROLE="Arg-2">
      <extent><charseq START="128" END="136">Acme Corp</charseq></extent>
    </relation_mention_argument>
""",
        "",
    ),
)
case(
    "mention_not_of_argument",
    (
        """    <relation_mention_argument REFID="BRK-1-E4-1" ROLE="Arg-2">
      <extent><charseq START="128" END="136">Acme Corp</charseq></extent>""",
        """    <relation_mention_argument REFID="BRK-1-E2-3" ROLE="Arg-2">
      <extent><charseq START="114" END="116">She</charseq></extent>""",
    ),
)
case(
    "head_outside_extent",
    (
        '<head><charseq START="76" END="81">sister</charseq></head>',
        '<head><charseq START="83" END="92">Mary Jones</charseq></head>',
    ),
)
case(
    "anchor_outside_extent",
    (
        '<anchor><charseq START="68" END="70">met</charseq></anchor>',
        '<anchor><charseq START="118" END="122">works</charseq></anchor>',
    ),
)
case("unknown_doctype", ('SYSTEM "apf.v5.1.1.dtd"', 'SYSTEM "apf.v4.0.1.dtd"'))
case("source_docid_mismatch", ('<document DOCID="BRK-1">', '<document DOCID="BRK-2">'))
case(
    "source_not_found",
    ('URI="BRK-1.sgm"', 'URI="BRK-7.sgm"'),
    ('<document DOCID="BRK-1">', '<document DOCID="BRK-7">'),
)
case(
    "wrapper_element",
    ("<source_file ", "<corpus>\n<source_file "),
    ("</source_file>\n", "</source_file>\n</corpus>\n"),
)
case(
    "head_before_extent",
    (
        """    <extent><charseq START="97" END="101">Paris</charseq></extent>
    <head><charseq START="97" END="101">Paris</charseq></head>""",
        """    <head><charseq START="97" END="101">Paris</charseq></head>
    <extent><charseq START="97" END="101">Paris</charseq></extent>""",
    ),
)

if os.path.isdir(OUT):
    for f in os.listdir(OUT):
        p = os.path.join(OUT, f)
        if f.endswith(".apf.xml"):
            os.remove(p)
os.makedirs(OUT, exist_ok=True)
with open(os.path.join(OUT, "valid.apf.xml"), "w", encoding="utf-8") as fh:
    fh.write(BASE)
for name, t in CASES.items():
    data = t if isinstance(t, bytes) else t.encode("utf-8")
    with open(os.path.join(OUT, name + ".apf.xml"), "wb") as fh:
        fh.write(data)


# multi-file cases (directories)
def doc_only(docid, body=""):
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE source_file SYSTEM "apf.v5.1.1.dtd">\n'
        f'<source_file URI="{docid}.sgm" SOURCE="newswire" TYPE="text">\n<document DOCID="{docid}">\n'
        + body
        + "</document>\n</source_file>\n"
    )


for d in ("duplicate_docid", "global_conflict", "global_argument_elsewhere", "no_apf_files"):
    shutil.rmtree(os.path.join(OUT, d), ignore_errors=True)
    os.makedirs(os.path.join(OUT, d))
with open(os.path.join(OUT, "duplicate_docid", "a.apf.xml"), "w") as fh:
    fh.write(BASE)
with open(os.path.join(OUT, "duplicate_docid", "b.apf.xml"), "w") as fh:
    fh.write(doc_only("BRK-1"))


def ent(docid, sub, n):
    return (
        f'<entity ID="GLOBAL-E1" TYPE="PER" SUBTYPE="{sub}" CLASS="SPC">\n'
        f'  <entity_mention ID="{docid}-E1-{n}" TYPE="PRO">\n'
        f'    <extent><charseq START="0" END="2">him</charseq></extent>\n'
        f'    <head><charseq START="0" END="2">him</charseq></head>\n'
        "  </entity_mention>\n</entity>\n"
    )


with open(os.path.join(OUT, "global_conflict", "G-1.apf.xml"), "w") as fh:
    fh.write(doc_only("G-1", ent("G-1", "Individual", 1)))
with open(os.path.join(OUT, "global_conflict", "G-2.apf.xml"), "w") as fh:
    fh.write(doc_only("G-2", ent("G-2", "Group", 1)))
with open(os.path.join(OUT, "global_argument_elsewhere", "G-1.apf.xml"), "w") as fh:
    fh.write(doc_only("G-1", ent("G-1", "Individual", 1)))
rel = (
    '<entity ID="G-2-E2" TYPE="ORG" SUBTYPE="Media" CLASS="SPC">\n'
    '  <entity_mention ID="G-2-E2-1" TYPE="PRO">\n'
    '    <extent><charseq START="4" END="5">it</charseq></extent>\n'
    '    <head><charseq START="4" END="5">it</charseq></head>\n'
    "  </entity_mention>\n</entity>\n"
    '<relation ID="GLOBAL-R1" TYPE="ORG-AFF" SUBTYPE="Employment">\n'
    '  <relation_argument REFID="GLOBAL-E1" ROLE="Arg-1"/>\n'
    '  <relation_argument REFID="G-2-E2" ROLE="Arg-2"/>\n'
    '  <relation_mention ID="GLOBAL-R1-1">\n'
    '    <extent><charseq START="0" END="5">him it</charseq></extent>\n'
    '    <relation_mention_argument REFID="G-1-E1-1" ROLE="Arg-1"/>\n'
    '    <relation_mention_argument REFID="G-2-E2-1" ROLE="Arg-2"/>\n'
    "  </relation_mention>\n</relation>\n"
)
with open(os.path.join(OUT, "global_argument_elsewhere", "G-2.apf.xml"), "w") as fh:
    fh.write(doc_only("G-2", rel))
with open(os.path.join(OUT, "no_apf_files", "README.txt"), "w") as fh:
    fh.write("This folder holds no APF file on purpose (acescore validate must refuse it).\n")
with open(os.path.join(OUT, "empty.list"), "w") as fh:
    fh.write("\n")
with open(os.path.join(OUT, "missing_entry.list"), "w") as fh:
    fh.write("valid.apf.xml\nnot-there.apf.xml\n")
