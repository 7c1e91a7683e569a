"""A text report's passes (Options.tables_data False, as the command line runs a text
report): each pass's Value is that of its tables' data (report.data.json_report.pass_value
against total_value(pass_json)), the report's text the same, and no data made."""

from __future__ import annotations

from pathlib import Path

import pytest

from acescore.model.options import Options
from acescore.run import execute

GOLDEN = Path(__file__).parent.parent / "data" / "golden"


@pytest.mark.slow
@pytest.mark.parametrize(
    "corpus, nist, params",
    [
        ("small", "ace08", "local_2008"),
        ("small", "ace08", "global_2008_with_mentions"),
        ("global", "ace08", "global_2008"),
        ("small", "ace07", ""),
        ("small", "ace05", ""),
    ],
)
def test_text_values_are_the_datas(corpus, nist, params):
    folder = GOLDEN / corpus
    ref, sys_ = str(folder / "ref.list"), str(folder / "sys-heavy.list")
    runs = []
    for data in (True, False):
        opts = Options(
            nist=nist,
            params=params,
            mentions=True,
            doc_scores=True,
            literature=False,
            listing_data=False,
            tables_data=data,
        )
        runs.append(execute(ref, sys_, opts, ref_list=True, sys_list=True).outputs)
    full, text = runs
    printed = [o for o in full if o.printed]
    assert len(printed) >= 4
    assert [o.value for o in text] == [o.value for o in full]
    assert any(o.value is not None for o in printed)
    assert [o.text for o in text] == [o.text for o in full]
    assert all(o.data is None for o in text) and all(o.data for o in printed)
