"""PlayPanel: "Could we have done better?" after a hand ends (double-dummy review of South's cards)."""
from __future__ import annotations

import random
import re
import threading

import pytest

from rookcore import annotations
from rookcore.actions import PASS
from rookcore.table import Table
from widgets.play import PlayPanel


pytestmark = pytest.mark.usefixtures("no_callback_errors")  # tests/widgets/conftest.py


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def _finish_hand(panel: PlayPanel, seed: int = 0) -> None:
    """South passes and plays random legal cards by clicking its enabled card buttons."""
    rng = random.Random(seed)
    t = panel.table
    for _ in range(200):
        if t.state.is_over:
            return
        assert t.is_learner_turn()
        legal = t.legal_for_learner()
        if PASS in legal:
            panel.pass_button.click()
            continue
        card = rng.choice(legal).card
        assert card in panel.table_view.cards(legal_only=True)
        panel.table_view.tap(card)
    raise AssertionError("hand did not end")


def _played_panel(start_seed: int = 1) -> PlayPanel:
    for seed in range(start_seed, start_seed + 30):
        panel = PlayPanel(Table(seed=seed), pace=0)
        _finish_hand(panel, seed)
        if not panel.table.state.passed_out:
            return panel
    pytest.skip("every hand passed out")


def test_review_button_only_after_hand_ends():
    panel = PlayPanel(Table(seed=3), pace=0)
    assert panel.review_button.description == "Could we have done better?"
    assert "rook-review" in panel.review_button._dom_classes
    assert "rook-review-list" in panel.review_html._dom_classes
    if not panel.table.state.is_over:
        assert panel.review_box.layout.display == "none"
        panel.review()  # too early: an error in the status line, nothing raised
        assert "when the hand is over" in panel.status.value
    _finish_hand(panel, 3)
    assert panel.review_box.layout.display == "flex"
    assert "Total" in panel.score_html.value or panel.score_html.value


def test_review_lists_costly_cards_with_fake_reviewer():
    panel = _played_panel()
    seen = []
    items = [{"text": "Trick 4: you played G5 (cost 15 points); G14 would have kept 85 for N–S.", "seat": "S"},
             {"text": "Trick 7: you played R<5> (cost 20 points); R14 would have kept 90 for N–S.", "seat": "S"}]
    panel.reviewer = lambda record: seen.append(record) or items
    panel.review_in_background = False
    panel.review_button.click()
    assert seen and seen[0].tricks  # the finished hand's record
    html = panel.review_html.value
    assert html.count("rook-review-item") == 2
    assert "G14 would have kept 85 for N–S." in _text(html)
    assert "R&lt;5&gt;" in html  # escaped
    # the review knows every hand; the learner did not: a costly card may still have been a fair choice
    assert "This is hindsight: you could not see the other hands" in _text(html)
    # a new hand hides the button and forgets the review
    panel.new_hand_button.click()
    if not panel.table.state.is_over:
        assert panel.review_box.layout.display == "none"
    assert panel.review_html.value == ""


def test_no_costly_cards_message_and_errors():
    panel = _played_panel()
    panel.review_in_background = False
    panel.reviewer = lambda record: []
    panel.review_button.click()
    assert "No costly cards" in panel.review_html.value

    def broken(record):
        raise RuntimeError("boom")

    panel.reviewer = broken
    panel.review_button.click()
    assert "The review failed" in panel.review_html.value and "boom" in panel.review_html.value
    assert not panel.review_button.disabled


def test_review_in_background_shows_analyzing_first():
    panel = _played_panel()
    gate = threading.Event()
    panel.reviewer = lambda record: gate.wait(30) and []
    panel.review_button.click()
    assert "Analyzing…" in panel.review_html.value and panel.review_button.disabled
    gate.set()
    assert panel.wait_review(30)
    assert "No costly cards" in panel.review_html.value


def test_passed_out_hand_explains(monkeypatch):
    from rookcore.examples import load_example

    panel = _played_panel()  # the AIs rarely let a hand pass out: stand in a passed-out record
    monkeypatch.setattr(panel.table, "record", lambda reasons=True: load_example("crowsnest-passed-out"))
    panel.reviewer = lambda record: pytest.fail("a passed-out hand is not analysed")
    panel.review_button.click()
    assert "passed out" in panel.review_html.value


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_review_real_analysis_lists_only_south():
    panel = _played_panel()
    panel.review_in_background = False
    panel.review_button.click()
    html = panel.review_html.value
    expected = annotations.review(panel.table.record(reasons=False))
    assert all(i["seat"] == "S" and (i["loss"] >= 10 or i["mark"] in ("?", "??")) for i in expected)
    if expected:
        assert html.count("rook-review-item") == len(expected)
        for i in expected:
            assert _text(i["text"]) in _text(html).replace("&amp;", "&")
    else:
        assert "No costly cards" in html


def test_stop_ends_a_running_review_and_keeps_what_it_found(monkeypatch):
    """The review's Stop button (shown only while it runs) cancels the search at once; the costly cards found so
    far stay listed; the review can be started again; Stop with nothing running only says so."""
    from rookcore.analysis.bench import play_ready
    from rookcore.rules import get_rules

    reached = threading.Event()

    def long_review(record, threshold=10, seat="S", analysis=None, progress=None, solver=None, **budgeted):
        if analysis is not None:  # the panel listing the costly cards of the cards analysed so far
            return [{"text": f"R5 lost 20 ({len(analysis['cards'])} cards)", "seat": "S"}]
        progress(3, 27, [{"step": 40, "trick": 9, "seat": "S", "card": "R5", "best": 60, "value": 40, "loss": 20,
                          "mark": "?", "best_cards": ["R14"]}] * 3)
        reached.set()
        solver.solve(play_ready(get_rules("partnership"), 0))  # minutes, unless cancelled
        return [{"text": "should never be shown", "seat": "S"}]

    monkeypatch.setattr(annotations, "review", long_review)
    panel = _played_panel()
    panel.stop_review()
    assert "No review is running" in panel.status.value
    assert panel.review_stop_button.layout.display == "none"
    panel.review_button.click()
    thread = panel._review_thread
    assert reached.wait(30) and thread.is_alive()
    assert panel.review_stop_button.layout.display is None and panel.review_button.disabled
    panel.review_stop_button.click()
    assert not thread.is_alive()
    html = _text(panel.review_html.value)
    assert "Review stopped after 3 of 27 cards" in html and "R5 lost 20 (3 cards)" in html
    assert "should never be shown" not in html
    assert panel.review_stop_button.layout.display == "none" and not panel.review_button.disabled


def _wait_for(predicate, timeout=30.0, what="condition"):
    import time

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def test_review_shows_proven_facts_at_once_and_refines_them(monkeypatch):
    """The review draws what its budgeted analysis proves as it comes: a South card proven costly, the first lead's
    proven range "— proved; refining…" and the auction as far as proven; then the exact result and the auction
    judged double dummy in a sentence a learner reads; the review runs within `review_budget` seconds."""
    import widgets.progress as wprogress
    from rookcore.examples import load_example

    monkeypatch.setattr(wprogress, "PROGRESS_EVERY", 0)
    record = load_example("crowsnest-made")  # N–S bid 85; South's G5 … stands in for the hand played
    panel = _played_panel()
    monkeypatch.setattr(panel.table, "record", lambda reasons=True: record)
    south = [i for i, c in enumerate(_entries(record)) if c["seat"] == "S"]
    gates = [threading.Event() for _ in range(2)]
    calls = []
    real_review = annotations.review

    def staged(record, threshold=10, seat="S", analysis=None, progress=None, solver=None, budget=None,
               on_report=None):
        if analysis is not None:  # the panel filtering what is proven so far: the real filter
            return real_review(record, threshold=threshold, seat=seat, analysis=analysis)
        calls.append(budget)
        cards = _entries(record)
        k = south[-1]
        cards[k] = {**cards[k], "best": None, "value": None, "loss": None, "mark": "?", "best_cards": [],
                    "exact": False, "lo": 60, "hi": 65, "best_lo": 80, "best_hi": 95}
        progress(len(cards) - k, len(cards), cards[k:])
        on_report({"variant": record.variant, "start": None, "start_range": {"NS": [95, 115], "EW": [5, 25]},
                   "cards": cards})
        gates[0].set()
        gates[1].wait(30)
        final = {"variant": record.variant, "start": {"NS": 110, "EW": 10}, "cards": _entries(record)}
        on_report(final)
        return real_review(record, threshold=threshold, seat=seat, analysis=final)

    monkeypatch.setattr(annotations, "review", staged)
    panel.review_budget = 20.0
    panel.review_button.click()
    assert gates[0].wait(30)
    _wait_for(lambda: "refining…" in panel.review_html.value, what="the proven range")
    assert calls == [20.0]
    html = _text(panel.review_html.value)
    assert ("N–S (declarers, bid 85) take between 95 and 115 points with best play from the first lead (E–W: "
            "between 5 and 25) — proved; refining…") in html
    assert ("Judged double dummy (as if all four hands were known, with best play by both sides): N–S's bid of 85 "
            "could have been made; the highest bid N–S could have made is between 95 and 115 — proved so far.") in html
    assert "it lost at least the mistake threshold — proved" in html and "Costly so far" in html
    assert "s so far (time budget 20 s)" in html
    gates[1].set()
    assert panel.wait_review(30)
    html = _text(panel.review_html.value)
    assert "refining" not in html and "between 95 and 115" not in html
    assert "N–S (declarers, bid 85) take 110 points with best play from the first lead (E–W: 10) — exact." in html
    assert ("N–S's bid of 85 could have been made; N–S could have bid as high as 110 and made it.") in html
    assert "the final bid" in html and "time budget ran out" not in html
    assert "rook-review-auction" in panel.review_html.value and "rook-review-start" in panel.review_html.value


def _entries(record) -> list[dict]:
    """Exact card entries of ``record`` (a stand-in analysis): every card a best card but trick 2's cards, which
    cost 15."""
    cards, k = [], len(record.actions()) - sum(len(t) for t in record.tricks)
    for t, trick in enumerate(record.tricks):
        for i, card in enumerate(trick):
            loss = 15 if t == 1 else 0
            seat = record.replay().tricks[t].leader
            cards.append({"step": k, "trick": t + 1, "seat": "NESW"[(seat + i) % 4],
                          "card": record.rules.card_name(card), "best": 90, "value": 90 - loss, "loss": loss,
                          "mark": "?" if loss else "", "best_cards": [record.rules.card_name(card)]})
            k += 1
    return cards


def test_real_review_judges_the_auction_as_judge_auction_does(monkeypatch):
    """The real review (crowsnest, well within its budget): the auction line is `judge_auction`'s answer from the
    first lead, put in words, and the first lead's result is exact."""
    from rookcore.actions import Play
    from rookcore.analysis import judge_auction

    panel = _played_panel()
    panel.review_in_background = False
    panel.review_button.click()
    record = panel.table.record(reasons=False)
    first_lead = next(s for a, s in zip(record.actions(), record.states()) if isinstance(a, Play))
    judged = judge_auction(first_lead)
    team = ("N–S", "E–W")[judged["team"]]
    made = "could have been made" if judged["makeable"] else "could not have been made"
    html = _text(panel.review_html.value)
    assert f"{team}'s bid of {judged['bid']} {made}" in html, html
    top = judged["highest_makeable"]
    if top is None:
        assert "could not have made even the lowest bid" in html
    elif top == judged["bid"]:
        assert f"{top} was the highest bid {team} could have made" in html
    elif top > judged["bid"]:
        assert f"{team} could have bid as high as {top} and made it" in html
    else:
        assert f"the highest bid {team} could have made is {top}." in html
    assert "— exact." in html and "time budget ran out" not in html


@pytest.mark.timeout(300)
def test_a_review_cut_short_by_its_budget_says_what_is_proven(monkeypatch):
    """A 13-trick hand reviewed in 2 s: the review says that the time budget ran out, how many of South's cards are
    still open, lists only proven costly cards, and says nothing exact about the first lead; a budget that is not a
    positive number of seconds is a clear message."""
    from rookcore.examples import load_example

    record = load_example("1-high-partnership-made")
    panel = _played_panel()
    monkeypatch.setattr(panel.table, "record", lambda reasons=True: record)
    panel.review_in_background = False
    panel.review_budget = 2.0
    panel.review_button.click()
    html = _text(panel.review_html.value)
    report = panel._review_run.report
    assert not annotations.analysis_complete(report)
    n = annotations.analysis_counts(report, seat="S")
    assert "The 2 s time budget ran out before every value was exact: what is said here is proved" in html, html
    if n["open"]:
        assert f"{n['open']} of your {n['cards']} cards could not be judged in time" in html
    assert "— exact." not in html and "in the time given" in html
    items = annotations.review(record, analysis=report)
    assert panel.review_html.value.count("rook-review-item") == len(items)
    assert all(i["mark"] in ("?", "??") or (i.get("exact", True) and i["loss"] >= 10) for i in items)
    panel.review_budget = 0
    panel.review_button.click()
    assert "The review failed: the budget must be a positive number of seconds" in _text(panel.review_html.value)
    assert not panel.review_button.disabled
