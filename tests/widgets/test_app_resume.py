"""The app keeps the game in play for the next visit (rookcore.saved) and resumes it on the next page load."""
from __future__ import annotations

import pickle
import re

import pytest

from rookcore import saved
from rookcore.hand import Phase
from rookcore.rules import get_rules
from widgets.app import build_app


@pytest.fixture
def kept(monkeypatch, tmp_path):
    """The kept game's file (``ROOK_GAME_FILE``) for this test: a fresh temporary path."""
    path = tmp_path / "game.pickle"
    monkeypatch.setenv(saved.GAME_FILE_ENV, str(path))
    return path


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def _act(panel) -> None:
    """One learner action through the panel's own handlers (the first offer)."""
    t = panel.table
    if t.state.phase is Phase.DISCARD:
        panel.discard(t.discard_options()[:t.rules.nest_size])
    elif t.state.phase is Phase.AUCTION:
        panel.call_pass()
    elif t.state.phase is Phase.TRUMP:
        panel.name_trump("R")
    else:
        panel.play_card(t.legal_for_learner()[0].card)


def _app():
    app = build_app(query="")
    app.play_panel.pace = 0
    return app


def test_a_reload_resumes_the_game_where_it_was(kept):
    first = _app()
    assert not first.play_panel.resumed and kept.exists()  # kept from the first drawing on
    for _ in range(3):
        _act(first.play_panel)
    before = first.play_panel.table
    second = _app()
    table = second.play_panel.table
    assert second.play_panel.resumed
    assert table.state.step == before.state.step and table.state.hands == before.state.hands
    assert table.learner_hand() == before.learner_hand()
    status = _text(second.play_panel.status.value)
    assert status.startswith("Welcome back: your game goes on (hand 1, N–S 0 · E–W 0; kept on ")
    assert status.endswith(table.prompt()) and "New game starts a fresh one." in status
    # and it goes on: a move on the resumed game is kept too
    _act(second.play_panel)
    assert saved.load_table().table.state.step == table.state.step


def test_settings_chosen_for_the_next_game_and_the_ai_level_come_back(kept):
    first = _app()
    first.settings.level.value = "random"
    first.settings.variant.value = "buckeye"
    first.settings.apply_button.click()
    second = _app()
    assert second.play_panel.table.level == "random" and second.settings.level.value == "random"
    assert second.play_panel.pending_rules == get_rules("buckeye")
    assert second.settings.variant.value == "buckeye"
    assert "from the next new game" in second.play_header.value
    second.play_panel.new_game()
    assert second.play_panel.table.rules.variant == "buckeye"


def test_the_ai_pace_comes_back(kept):
    first = _app()
    first.play_panel.speed.value = 1.3
    assert build_app(query="").play_panel.pace == 1.3


def test_the_bird_choice_on_play_comes_back(kept):
    first = _app()
    first.play_panel.bird_toggle.value = not first.play_panel.bird_toggle.value
    want = first.play_panel.table.bird_next_game
    second = _app()
    assert second.play_panel.table.bird_next_game == want
    assert second.play_panel.bird_toggle.value == want


def test_a_finished_game_is_not_resumed(kept):
    first = _app()
    first.play_panel.table.game.winner = 0  # as if N–S had just won
    first.play_panel.keep_game()
    second = _app()
    assert not second.play_panel.resumed
    assert second.play_panel.table.seed != first.play_panel.table.seed
    assert "Welcome back" not in second.play_panel.status.value


def test_a_damaged_kept_game_starts_a_new_game_and_says_why(kept):
    kept.write_bytes(b"\x80\x04 not a pickle")
    app = _app()
    status = _text(app.play_panel.status.value)
    assert "Your saved game could not be resumed" in status and "is not a saved game" in status
    assert "A new game has started." in status
    assert app.play_panel.table.state.phase is not None  # a playable new game
    assert saved.load_table() is not None  # and it is kept in the damaged file's place


def test_a_game_from_another_version_is_not_resumed(kept):
    _app()
    doc = pickle.loads(kept.read_bytes())
    doc["code"] = "another"
    kept.write_bytes(pickle.dumps(doc))
    app = _app()
    assert not app.play_panel.resumed
    assert "saved by another version of the app" in app.play_panel.status.value


def test_a_shared_deal_link_starts_that_deal_not_the_kept_game(kept):
    first = _app()
    _act(first.play_panel)
    linked = build_app(query="?deal=42")
    assert not linked.play_panel.resumed
    assert saved.load_table().table.game.current.dealt == linked.play_panel.table.game.current.dealt


def test_when_the_game_cannot_be_kept_play_goes_on_and_says_so_once(monkeypatch, tmp_path):
    (tmp_path / "blocker").write_text("a file where a folder must be")
    monkeypatch.setenv(saved.GAME_FILE_ENV, str(tmp_path / "blocker" / "game.pickle"))
    app = _app()
    panel = app.play_panel
    assert not panel.keep
    assert "This game cannot be kept for your next visit" in panel.status.value
    _act(panel)
    assert "cannot be kept" not in panel.status.value  # said once
    assert "rook-error" not in panel.status.value
