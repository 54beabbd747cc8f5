"""Browser test (real Chromium, the Voila app): during a hand the reasoning pane shows each AI move only as the whole
table saw it, and the full reasoning once the hand is over (issue 32 item 5).

The page's pane is read at each of South's turns of one hand and compared with the words the engine builds from the
hand's public history (`Table.reasoning_for_learner`, which tests/test_public_reasoning.py proves the same on every deal
South cannot tell apart): a twin `Table` of the same deal link (``?deal=``: same deal, same AI seeds, the app's default
rule-based level for a new learner) is played alongside with the same South moves. During the hand the pane has no
table of candidates, no score and none of the AIs' hand-telling words; after it, their full reasoning.
"""
from __future__ import annotations

import re

from browser_helpers import (CARD, WIDGETS_TIMEOUT_MS, _click_and_wait, _learner_situation, _settle,
                             assert_no_app_error, button, set_speed, wait_until)
from rookcore.actions import PASS
from rookcore.hand import Phase
from rookcore.rules import get_rules
from rookcore.table import Table

FIRST_DEAL = 3205  # deal links no other browser test opens (a ?deal= game is kept per learner)
HAND_WORDS = re.compile(r"worth about|only legal card|strength|least useful|\d+ ?%")


def _deal_an_ai_declares() -> int:
    """The first deal link from FIRST_DEAL where, South always passing, an AI wins the auction (so it buries and names
    trump) and the hand is played."""
    for deal in range(FIRST_DEAL, FIRST_DEAL + 40):
        twin = Table(get_rules("crowsnest"), deal=deal)
        twin.run_ai()
        while twin.is_learner_turn() and twin.state.phase is Phase.AUCTION:
            twin.learner_act(PASS)
            twin.run_ai()
        if twin.state.phase is Phase.PLAY:
            return deal
    raise AssertionError("no deal where an AI declares")


def _expected(twin: Table) -> list[str]:
    """The pane's moves as the engine tells them now, oldest first: "step N" and the move's sentence."""
    bird = twin.rules.bird_name
    return [f"step {e.step + 1} {e.decision.summary(bird)}" for e in twin.reasoning_for_learner()]


def _shown(page) -> list[str]:
    """The pane's moves on the page, oldest first (the page draws them latest first), whitespace made single."""
    texts = page.locator(".rook-reasoning .rook-decision").all_inner_texts()
    return [" ".join(t.split()) for t in texts]


def test_the_pane_shows_only_public_moves_during_the_hand(voila_url, page, artifacts_dir):
    deal = _deal_an_ai_declares()
    twin = Table(get_rules("crowsnest"), deal=deal)
    twin.run_ai()
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{voila_url}?deal={deal}&variant=crowsnest", wait_until="domcontentloaded")
    page.wait_for_selector(CARD, state="visible", timeout=WIDGETS_TIMEOUT_MS)
    assert set_speed(page, 0)
    turns = 0
    while not twin.state.is_over:
        assert twin.is_learner_turn()
        situation = wait_until(lambda: {"auction": "auction", "play": "play"}.get(_learner_situation(page)),
                               what="South's turn")
        _settle(page)
        shown = _shown(page)
        assert shown == _expected(twin), (shown, _expected(twin))  # exactly the public words, move by move
        pane = page.locator(".rook-reasoning")
        assert not pane.locator("table").count() and not page.locator(".rook-score-meaning").count()
        assert not HAND_WORDS.search(pane.inner_text()), pane.inner_text()
        turns += 1
        if situation == "auction":
            _click_and_wait(page, button(page, "rook-bid", "Pass").first, "Pass")
            twin.learner_act(PASS)
        else:
            card = twin.legal_for_learner()[0].card
            code = card.notation(twin.rules.bird_name)
            _click_and_wait(page, page.locator(f"{CARD}[data-code='{code}']"), code, position={"x": 5, "y": 14})
            twin.learner_act(twin.legal_for_learner()[0])
        twin.run_ai()
    wait_until(lambda: _learner_situation(page) == "scored", what="the hand to be scored")
    _settle(page)
    page.screenshot(path=str(artifacts_dir / "reasoning-public-end.png"), full_page=True)
    assert turns >= 10 and {d.kind for d in twin.decisions} >= {"call", "discard", "trump", "play"}
    pane = page.locator(".rook-reasoning")
    assert pane.locator(".rook-decision > table").count() == len(twin.log)  # the full reasoning, once it is over
    assert HAND_WORDS.search(pane.inner_text())
    assert_no_app_error(page)
    assert not page.errors, page.errors
