"""benchmarks/calibration.py: the strong AI's stated chances are read from its card notes (a change of wording
must fail here, not silently empty the benchmark), with the raw shares and points the calibration map is fitted on;
the start-of-play Brier score, the reliability table and the fit work on those rows."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest


def _module():
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "calibration.py"
    spec = importlib.util.spec_from_file_location("calibration_bench", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its NamedTuple is looked up by module name
    spec.loader.exec_module(module)
    return module


cal = _module()


@pytest.fixture(scope="module")
def rows():
    return cal.deal_rows("crowsnest", 1)


def test_rows_come_from_every_strong_card_choice_and_summarise(rows):
    assert len(rows) > 20  # most of the 36 cards are chosen among several with a "bid made P%" note
    for r in rows:
        assert isinstance(r.declaring, bool) and 0 <= r.tricks <= 8 and 0.0 <= r.stated <= 1.0
        assert 0.0 <= r.raw <= 1.0 and 0 <= r.points <= 120 and r.bid >= 70 and (r.hand_size, r.per_hand) == (9, 120)
    assert {r.declaring for r in rows} == {True, False}  # both sides speak
    assert len({r.made for r in rows}) == 1 and len({r.bid for r in rows}) == 1  # one hand: one bid, one outcome
    table = cal.summary(rows)
    assert sum(r["cards"] for r in table) == len(rows)
    for r in table:
        assert 0.0 <= r["brier"] <= 1.0 and r["made"] in (0.0, 1.0)


def test_the_start_of_play_and_the_reliability_table_count_the_rows(rows):
    start = cal.start_brier(rows)
    early = [r for r in rows if r.tricks < 3]
    assert start["cards"] == len(early)
    assert start["brier"] == pytest.approx(sum((r.stated - r.made) ** 2 for r in early) / len(early))
    bins = cal.reliability(rows)
    assert sum(b["cards"] for b in bins) == len(rows)
    for b in bins:
        lo, hi = (int(x) / 100 for x in b["bin"].rstrip("%").split("–"))
        assert lo <= b["stated"] <= hi


def test_the_fit_finds_a_map_that_separates_made_from_set_hands():
    """Rows made up so that a high raw share goes with a made bid: the fitted map states a higher chance for them
    (the fit reads the rows, it does not return the identity)."""
    from rookcore.ai.sampling import calibration_features

    made = [cal.Row(True, 1, 0.9, True, 0.9, 100.0, 80, 9, 120)] * 30
    set_ = [cal.Row(True, 1, 0.4, False, 0.4, 70.0, 80, 9, 120)] * 30
    mixed = [cal.Row(False, 4, 0.6, m, 0.6, 40.0, 80, 9, 120) for m in (True, False)] * 10
    coefficients = cal.fit(made + set_ + mixed)
    assert len(coefficients) == 1 + len(calibration_features(0.5, 50.0, 80, 1, 9, 120, True))

    def chance(r):
        import math
        z = coefficients[0] + sum(c * v for c, v in zip(coefficients[1:], calibration_features(
            r.raw, r.points, r.bid, r.tricks, r.hand_size, r.per_hand, r.declaring)))
        return 1 / (1 + math.exp(-z))

    assert chance(made[0]) > 0.9 and chance(set_[0]) < 0.1 and abs(chance(mixed[0]) - 0.5) < 0.1


def test_rollouts_from_the_true_first_lead_are_counted_once_a_deal(rows):
    got, (share, made) = cal.play_deal("crowsnest", 1, rollouts=5)
    assert got == rows  # the same hand, played the same way
    assert share in {k / 5 for k in range(6)} and made == rows[0].made
    assert cal.play_deal("crowsnest", 1)[1] is None
