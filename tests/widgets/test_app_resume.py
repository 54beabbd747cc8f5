"""The app keeps the game in play for the next visit (rookcore.saved) and resumes it on the next page load."""
from __future__ import annotations

import json
import pathlib
import re
import shutil

import pytest

from rookcore import records, saved
from rookcore.hand import Phase
from rookcore.rules import get_rules
from panel_actions import act_once
from widgets.app import build_app


@pytest.fixture
def kept(monkeypatch, tmp_path):
    """The kept game's file (``ROOK_GAME_FILE``) for this test: a fresh temporary path."""
    path = tmp_path / "game.pickle"
    monkeypatch.setenv(saved.GAME_FILE_ENV, str(path))
    return path


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)



def _app():
    app = build_app(query="")
    app.play_panel.pace = 0
    return app


def _finish(panel) -> tuple[int, int]:
    """Play the panel's game to its end (the learner's first offers, the AIs' own moves), keep it and return the
    final scores (N–S, E–W)."""
    t = panel.table
    for _ in range(5000):
        t.run_ai()
        if t.game.is_over:
            break
        if t.state.is_over:
            t.new_hand()
        elif t.state.phase is Phase.DISCARD:
            t.learner_discard(t.discard_options()[:t.rules.nest_size])
        elif t.is_learner_turn():
            t.learner_act(t.legal_for_learner()[0])
    assert t.game.is_over
    panel.keep_game()
    return tuple(t.game.scores)


def test_a_reload_resumes_the_game_where_it_was(kept):
    first = _app()
    assert not first.play_panel.resumed and kept.exists()  # kept from the first drawing on
    for _ in range(3):
        act_once(first.play_panel)
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
    act_once(second.play_panel)
    assert saved.load_table().table.state.step == table.state.step


def test_a_visitor_who_never_acted_is_greeted_as_new(kept):
    """A plain fetch of the page (a readiness check, a health check, a link preview) runs the notebook, which keeps
    a game: the first real visit is not "Welcome back"."""
    fetched = _app()
    assert kept.exists()
    visit = _app()
    status = _text(visit.play_panel.status.value)
    assert "Welcome back" not in status and "kept on" not in status
    assert visit.play_panel.table.state.step == fetched.play_panel.table.state.step
    act_once(visit.play_panel)  # once the learner has acted, a reload is a return
    assert _text(_app().play_panel.status.value).startswith("Welcome back: your game goes on")


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


def test_the_rules_chosen_for_the_next_game_survive_every_reload(kept):
    first = _app()
    first.settings.variant.value = "dixie"
    first.settings.target.value = "200"
    first.settings.apply_button.click()
    for _ in range(3):
        again = build_app(query="")  # the pace untouched: nothing else rewrites the file
        assert again.play_panel.pending_rules == get_rules("dixie", {"target": 200})
        assert again.settings.variant.value == "dixie" and again.settings.target.value == "200"
    again.settings.variant.value = "tournament"  # on the newest page, the one that keeps the game
    again.settings.apply_button.click()
    again = build_app(query="")
    assert again.play_panel.bird_toggle.description == "Play with the Rook (from the next new game)"


def test_a_finished_game_gives_a_new_game_with_the_same_settings(kept):
    first = _app()
    first.settings.level.value = "random"
    first.settings.variant.value = "buckeye"
    first.settings.target.value = "50"
    first.settings.apply_button.click()
    first.play_panel.new_game()
    first.play_panel.speed.value = 0.2
    ns, ew = _finish(first.play_panel)
    second = build_app(query="")
    panel = second.play_panel
    assert not panel.resumed and panel.table.hand_number == 1 and panel.table.game.scores == [0, 0]
    assert panel.table.rules == get_rules("buckeye", {"target": 50}) and panel.table.level == "random"
    assert panel.pace == 0.2 and second.settings.level.value == "random"
    assert second.settings.variant.value == "buckeye" and second.settings.target.value == "50"
    assert f"Your last game is over (N–S {ns} · E–W {ew}): a new game has started with the same settings." in \
        panel.status.value


def test_a_resumed_game_that_can_no_longer_be_kept_says_so(kept, monkeypatch):
    act_once(_app().play_panel)

    def refuse(*_args, **_kwargs):
        raise PermissionError("[Errno 13] Permission denied")

    monkeypatch.setattr(saved, "save_table", refuse)
    app = _app()
    status = _text(app.play_panel.status.value)
    assert status.startswith("Welcome back: your game goes on")
    assert "This game cannot be kept for your next visit: [Errno 13] Permission denied." in status
    assert not app.play_panel.keep


def test_the_newest_page_keeps_the_game_and_an_older_one_says_it_no_longer_does(kept):
    _app()
    a = _app().play_panel
    act_once(a)
    assert a.keep and "newer page" not in a.status.value  # alone so far
    b = _app().play_panel  # the app opened again (another tab, or a reload while the old page's AIs still move)
    act_once(b)  # the learner goes on in the newer page
    act_once(a)
    assert not a.keep
    assert "This game is open in a newer page, which keeps it from now on: moves made here are not kept." in \
        a.status.value
    act_once(a)
    assert "newer page" not in a.status.value  # said once in the status line, which moves on to the turn prompts,
    assert "moves made here are not kept" in a.header.value  # and kept in view in the header
    assert saved.load_table().table.state.step == b.table.state.step  # the older page wrote nothing more
    act_once(b)
    assert b.keep and "newer page" not in b.status.value and "not kept" not in b.header.value
    assert saved.load_table().table.state.step == b.table.state.step


def test_a_page_opened_and_left_unused_does_not_take_the_game_from_the_page_in_use(kept):
    a = _app().play_panel
    act_once(a)
    unused = _app().play_panel  # a second tab opened by mistake, never used
    act_once(a)
    assert a.keep and "not kept" not in a.header.value
    assert saved.load_table().table.state.step == a.table.state.step
    act_once(unused)  # if the learner does act there later, that page says its moves are not kept
    assert not unused.keep and "Your game went on in another page" in unused.status.value
    assert saved.load_table().table.state.step == a.table.state.step


def test_the_bird_choice_made_on_play_shows_in_settings_after_a_reload(kept):
    first = _app()
    want = not first.play_panel.bird_toggle.value
    first.play_panel.bird_toggle.value = want
    second = _app()
    assert second.play_panel.bird_toggle.value == want and second.settings.bird.value == want
    second.settings.target.value = "120"
    second.settings.apply_button.click()  # an Apply of another option keeps the bird choice
    assert second.play_panel.table.bird_next_game == want and second.play_panel.bird_toggle.value == want
    second.play_panel.new_game()
    assert second.play_panel.table.rules.bird == want and second.play_panel.table.rules.target == 120


def test_a_damaged_kept_game_starts_a_new_game_and_says_why(kept):
    kept.write_bytes(b"\x80\x04 not a pickle")
    app = _app()
    status = _text(app.play_panel.status.value)
    assert "Your saved game could not be resumed" in status and "is not a saved game" in status
    assert "A new game has started." in status
    assert app.play_panel.table.state.phase is not None  # a playable new game
    assert saved.load_table() is not None  # and it is kept in the damaged file's place


def test_a_game_kept_by_the_previous_release_resumes(kept):
    """The release before the JSON format kept a pickle: it is converted once and the game goes on."""
    fixtures = pathlib.Path(__file__).resolve().parents[1] / "fixtures"
    expected = json.loads((fixtures / "previous-release-game.expected.json").read_text())
    shutil.copy(fixtures / "previous-release-game.pickle", kept)
    app = _app()
    panel = app.play_panel
    assert panel.resumed and panel.table.hand_number == expected["hand_number"]
    assert panel.table.game.scores == expected["scores"]
    kept_moves = records.from_json(expected["game"]).hands[-1].actions()  # then the AIs moved on to the learner
    assert records.HandRecord.from_state(panel.table.state).actions()[:len(kept_moves)] == kept_moves
    assert _text(panel.status.value).startswith("Welcome back: your game goes on (hand 4, N–S -70 · E–W 115")
    assert panel.pending_rules == get_rules("buckeye")
    assert kept.read_bytes()[:1] == b"{"  # kept as JSON from the first drawing on


def test_a_file_of_an_unknown_format_is_set_aside_with_a_note(kept):
    act_once(_app().play_panel)
    doc = json.loads(kept.read_text())
    doc["format"] = "crowsnest-kept-game/99"
    kept.write_text(json.dumps(doc))
    app = _app()
    assert not app.play_panel.resumed
    status = _text(app.play_panel.status.value)
    assert "Your saved game could not be resumed: game.pickle is not a saved game of this app." in status
    assert "It was set aside as game.pickle.bad-" in status
    assert [p.name for p in kept.parent.iterdir() if ".bad-" in p.name]
    assert saved.load_table() is not None  # the new game is kept in its place


def test_a_deal_link_is_kept_beside_the_learner_s_own_game(kept):
    own = _app()
    own.settings.level.value = "random"
    own.play_panel.speed.value = 0.3
    act_once(own.play_panel)
    own_step = own.play_panel.table.state.step
    linked = build_app(query="?deal=42")
    panel = linked.play_panel
    assert not panel.resumed and panel.table.level == "random" and panel.pace == 0.3
    assert "Your own game is kept: open the app without ?deal= to go on with it." in panel.status.value
    act_once(panel)
    again = build_app(query="?deal=42")  # a reload of the link goes on with it
    assert again.play_panel.resumed and again.play_panel.table.state.step == panel.table.state.step
    assert _text(again.play_panel.status.value).startswith("Welcome back to deal 42: your game goes on")
    other = build_app(query="?deal=43")  # another link: that deal, from its start
    assert not other.play_panel.resumed
    assert other.play_panel.table.game.current.dealt != panel.table.game.current.dealt
    home = build_app(query="")  # and the learner's own game is untouched
    assert home.play_panel.resumed and home.play_panel.table.state.step == own_step
    assert saved.deal_game_path().exists() and saved.game_path() == kept


def test_when_the_game_cannot_be_kept_play_goes_on_and_says_so_once(monkeypatch, tmp_path):
    (tmp_path / "blocker").write_text("a file where a folder must be")
    monkeypatch.setenv(saved.GAME_FILE_ENV, str(tmp_path / "blocker" / "game.pickle"))
    app = _app()
    panel = app.play_panel
    assert not panel.keep
    assert "This game cannot be kept for your next visit" in panel.status.value
    act_once(panel)
    assert "cannot be kept" not in panel.status.value  # said once
    assert "rook-error" not in panel.status.value


def test_a_finished_game_followed_by_other_rules_says_so(kept):
    first = _app()
    first.settings.variant.value = "dixie"
    first.settings.apply_button.click()  # chosen for the next game while a CrowsNest game is on
    _finish(first.play_panel)
    panel = build_app(query="").play_panel
    assert panel.table.rules.variant == "dixie"
    assert "a new game has started with the rules you chose for it (Dixie Rook)" in panel.status.value
