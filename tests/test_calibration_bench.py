"""benchmarks/calibration.py: the strong AI's stated chances are read from its card notes (a change of wording
must fail here, not silently empty the benchmark)."""
from __future__ import annotations

import importlib.util
from pathlib import Path


def _module():
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "calibration.py"
    spec = importlib.util.spec_from_file_location("calibration_bench", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_rows_come_from_every_strong_card_choice_and_summarise():
    cal = _module()
    rows = cal.deal_rows("crowsnest", 1)
    assert len(rows) > 20  # most of the 36 cards are chosen among several with a "bid made P%" note
    assert all(isinstance(d, bool) and 0 <= t <= 8 and 0.0 <= p <= 1.0 and isinstance(m, bool) for d, t, p, m in rows)
    assert {d for d, *_ in rows} == {True, False}  # both sides speak
    assert len({m for *_, m in rows}) == 1  # one hand: one outcome
    table = cal.summary(rows)
    assert sum(r["cards"] for r in table) == len(rows)
    for r in table:
        assert 0.0 <= r["brier"] <= 1.0 and r["made"] in (0.0, 1.0)


def test_rollouts_from_the_true_first_lead_are_counted_once_a_deal():
    cal = _module()
    rows, (share, made) = cal.play_deal("crowsnest", 1, rollouts=5)
    assert rows == cal.deal_rows("crowsnest", 1)  # the same hand, played the same way
    assert share in {k / 5 for k in range(6)} and made == rows[0][3]
    assert cal.play_deal("crowsnest", 1)[1] is None
