"""rookcore.stats: seeded many-deal self-play statistics (local processes and dask.distributed agree)."""
from __future__ import annotations

import math

import pytest

from rookcore.cards import Card
from rookcore.rules import get_rules
from rookcore.stats import ROW_KEYS, HandStats, deal_seed, hand_strength, simulate

DEALS = 40


@pytest.fixture(scope="module")
def local() -> HandStats:
    return simulate("crowsnest", deals=DEALS, seed=7, workers=2)


def test_deterministic_by_seed(local):
    again = simulate("crowsnest", deals=DEALS, seed=7, workers=1, chunk=7)  # in-process, other chunking
    assert again.rows == local.rows
    other = simulate("crowsnest", deals=DEALS, seed=8, workers=1)
    assert other.rows != local.rows


def test_rows_and_sums(local):
    rules = get_rules("crowsnest")
    assert local.deals == DEALS
    assert [r["deal"] for r in local.rows] == list(range(DEALS))
    assert all(set(r) == set(ROW_KEYS) for r in local.rows)
    c = local.counts()
    assert c["made"] + c["set"] + c["passed_out"] == DEALS
    for r in local.played:
        assert r["declarer_points"] + r["defender_points"] == rules.points_per_hand
        assert sum(r["trick_points"]) + r["nest_points"] == rules.points_per_hand
        assert len(r["trick_points"]) == rules.hand_size
        assert r["made"] == (r["declarer_points"] >= r["bid"])
        assert r["declarer_team"] == r["declarer"] % 2
        if r["bird_team"] is not None:
            assert r["bird_team_points"] == (r["declarer_points"] if r["bird_team"] == r["declarer_team"]
                                             else r["defender_points"])
        # the nest decides exactly when moving its points to the other team flips made/set
        swing = -r["nest_points"] if r["nest_team"] == r["declarer_team"] else r["nest_points"]
        assert r["nest_decides"] == ((r["declarer_points"] + swing >= r["bid"]) != r["made"])


def test_summaries(local):
    success = local.bid_success()
    assert sum(t for _m, t in success.values()) == len(local.played)
    assert sum(m for m, _t in success.values()) == local.counts()["made"]
    assert list(success) == sorted(success)
    xs, ys = local.strength_vs_points()
    assert len(xs) == len(ys) == len(local.played)
    with_bird, without = local.bird_value()
    rows = [r for r in local.played if r["bird_team"] is not None]
    assert with_bird + without == pytest.approx(get_rules("crowsnest").points_per_hand) if rows else math.isnan(with_bird)
    by_trick = local.points_by_trick()
    assert len(by_trick) == 9
    nest = sum(r["nest_points"] for r in local.played) / len(local.played)
    assert sum(by_trick) + nest == pytest.approx(120)
    assert 0.0 <= local.nest_decides_rate() <= 1.0
    assert "deals" in local.summary()


def test_progress_reaches_total():
    seen = []
    simulate("crowsnest", deals=12, seed=1, level="random", workers=1, chunk=5,
             progress=lambda done, total: seen.append((done, total)))
    assert seen[0] == (0, 12) and seen[-1] == (12, 12)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_other_variant_and_no_bird():
    stats = simulate("partnership", deals=8, seed=3, level="random", workers=1)
    assert stats.counts()["made"] + stats.counts()["set"] + stats.counts()["passed_out"] == 8
    assert all(r["bird_team"] is None and r["nest_points"] == 0 and not r["nest_decides"] for r in stats.rows)
    assert all(math.isnan(v) for v in stats.bird_value())
    no_bird = simulate("crowsnest", deals=4, seed=3, options={"bird": False}, level="random", workers=1)
    assert no_bird.options == {"bird": False}
    assert all(sum(r["trick_points"]) + r["nest_points"] == 100 for r in no_bird.played)


def test_hand_strength():
    rules = get_rules("crowsnest")
    weak = [Card.parse(t) for t in "R6 R7 Y6 Y7 G6 G7 B6 B7 B8".split()]
    strong = [Card.parse(t) for t in "CROW R14 R13 R12 R11 R10 Y14 G14 B14".split()]
    assert hand_strength(rules, weak) == 0.0
    # counters 20+10+10+10+10+10 = 70; high R14 R13 Y14 G14 B14 = 5 × 5; Crow +10; red length 5 → +8
    assert hand_strength(rules, strong) == 70 + 25 + 10 + 8


def test_bad_arguments():
    with pytest.raises(ValueError):
        simulate(deals=2, level="nope")
    with pytest.raises(ValueError):
        simulate(deals=-1)
    with pytest.raises(ValueError):
        simulate("no-such-rules", deals=2)
    assert simulate(deals=0, workers=1).deals == 0
    assert deal_seed(0, 1) != deal_seed(1, 0)


def test_distributed_matches_local(local):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) \
            as cluster, distributed.Client(cluster) as client:
        seen = []
        remote = simulate("crowsnest", deals=DEALS, seed=7, client=client,
                          progress=lambda done, total: seen.append(done))
        assert remote.rows == local.rows
        assert seen[-1] == DEALS
        by_address = simulate("crowsnest", deals=10, seed=7, client=cluster.scheduler_address)
        assert by_address.rows == local.rows[:10]
