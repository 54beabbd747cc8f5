"""A game per learner (issue 27 item 1) at the widget level: the page waits for the browser's learner id (a bounded
wait), keeps each learner's game in their own folder, and a deep link never takes the learner's kept game over.
The browser's report is simulated by setting the id widget's ``report`` as its script does."""
from __future__ import annotations

import re
import time

import pytest

from rookcore import learners, saved
from panel_actions import act_once
from widgets.app import build_app
from widgets.learner import AppPage, LearnerId

pytestmark = pytest.mark.usefixtures("no_callback_errors")

ID_A = "a" * 32
ID_B = "0123456789abcdef" * 2
NOT_KEPT = "This browser keeps no learner id for this app, so the game on this page is not kept for your next visit."
WENT_ON = ("Your game went on in another page after this one opened: moves made here are not kept (reload this page "
           "to go on with the game).")
NEWER = "This game is open in a newer page"



def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def _page(learner=ID_A, query: str = "", stored: bool = True) -> AppPage:
    """A page whose browser reported ``learner`` (as learner_id.js does), its AIs instant."""
    page = AppPage(query=query, timer=False)
    page.learner_id.report = {"id": learner, "stored": stored}
    page.app.play_panel.pace = 0
    return page



def _where(panel) -> tuple:
    t = panel.table
    return t.hand_number, t.state.step, t.state.hands


def test_the_page_waits_for_the_id_then_opens_the_learner_s_game(kept_dir):
    page = AppPage(query="", timer=False)
    assert page.session is None and page.app.play_panel is None and isinstance(page.children[0], LearnerId)
    assert page.children == (page.learner_id, page.app)  # the app is drawn, its Play tab waits for the game
    assert "Opening your game…" in page.opening.value and page.opening in page.app.play_tab.children
    assert not kept_dir.exists()  # nothing is kept before the learner is known
    page.learner_id.report = {"id": ID_A, "stored": True}
    assert page.app.play_panel is not None and page.children == (page.learner_id, page.app)
    assert page.opening not in page.app.play_tab.children
    assert page.session.learner == ID_A and page.learner_id.learner == ID_A
    assert (kept_dir / "learners" / ID_A / "game.json").is_file()
    assert page.app.play_panel.keep and page.app.session is page.session


def test_two_learners_on_one_server_keep_two_games_through_reloads(kept_dir):
    a, b = _page(ID_A).app.play_panel, _page(ID_B).app.play_panel
    for _ in range(3):
        act_once(a)
    act_once(b)
    want_a, want_b = _where(a), _where(b)
    assert want_a != want_b
    again_a, again_b = _page(ID_A).app.play_panel, _page(ID_B).app.play_panel  # each reloads their page
    assert _where(again_a) == want_a and _where(again_b) == want_b
    assert _text(again_a.status.value).startswith("Welcome back: your game goes on")
    assert _text(again_b.status.value).startswith("Welcome back: your game goes on")
    assert NEWER not in again_a.status.value + again_a.header.value
    act_once(again_b)  # B's page keeps B's game, A's file is not touched
    assert saved.load_table(kept_dir / "learners" / ID_A / "game.json").table.state.step == want_a[1]
    assert saved.load_table(kept_dir / "learners" / ID_B / "game.json").table.state.step == again_b.table.state.step


@pytest.mark.parametrize("bad", ["../../../etc", "A" * 31, "", None, 42, ["x"], "a" * 33])
def test_a_bad_id_from_the_browser_gets_a_fresh_one_and_never_a_path(kept_dir, bad):
    page = AppPage(query="", timer=False)
    page.learner_id.report = {"id": bad, "stored": True}
    fresh = page.learner_id.learner
    assert learners.parse_learner_id(fresh) == fresh and fresh != bad  # given back for the browser to keep
    assert page.session.learner == fresh and page.app.play_panel.keep
    assert [p.name for p in (kept_dir / "learners").iterdir()] == [fresh]
    assert sorted(p.name for p in kept_dir.iterdir()) == ["learners"]
    assert "rook-error" not in page.app.play_panel.status.value


def test_a_report_that_is_not_a_report_does_not_break_the_page(kept_dir):
    page = AppPage(query="", timer=False)
    page.learner_id.report = {"stored": "yes", "other": [1, 2]}
    assert page.app is not None and page.session.kept is False  # stored must be true itself
    assert NOT_KEPT in _text(page.app.play_panel.status.value)


def test_a_browser_that_cannot_keep_the_id_plays_a_game_kept_nowhere(kept_dir):
    page = _page(ID_A, stored=False)
    panel = page.app.play_panel
    assert not page.session.kept and not panel.keep
    assert NOT_KEPT in _text(panel.status.value)
    act_once(panel)
    assert NOT_KEPT not in panel.status.value  # said once, quietly
    assert not kept_dir.exists()


def test_no_id_in_time_opens_a_game_of_the_page_s_own_and_says_so(kept_dir):
    page = AppPage(query="", wait=0.2)  # the real clock
    deadline = time.monotonic() + 30
    while page.session is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert page.session is not None, "the page waited without bound"
    panel = page.app.play_panel
    assert page.session.learner is None and not panel.keep
    assert NOT_KEPT in _text(panel.status.value) and "rook-error" not in panel.status.value
    assert not kept_dir.exists()


def test_the_words_before_the_app_opens_are_in_the_link_s_language(kept_dir):
    page = AppPage(query="?lang=de", timer=False)
    assert "Ihr Spiel wird geöffnet" in page.opening.value
    page.time_out()
    english = learners.open_session(None).note
    assert page.session.note and page.session.note != english  # the page-only game's note, said in German
    assert page.app.lang == "de"


def test_an_id_that_comes_late_still_opens_the_learner_s_game_unless_the_page_was_used(kept_dir):
    own = _page(ID_A).app.play_panel
    act_once(own)
    want = _where(own)
    late = AppPage(query="", timer=False)
    late.time_out()
    assert not late.session.kept
    late.learner_id.report = {"id": ID_A, "stored": True}
    assert late.session.learner == ID_A and _where(late.app.play_panel) == want
    used = AppPage(query="", timer=False)
    used.time_out()
    first = used.app.play_panel
    first.pace = 0
    act_once(first)
    used.learner_id.report = {"id": ID_A, "stored": True}
    assert used.app.play_panel is first and used.session.learner is None  # the game played on the page stays


def test_a_server_that_keeps_nothing_opens_at_once(monkeypatch):
    monkeypatch.setenv(saved.GAME_FILE_ENV, "")
    page = AppPage(query="", timer=False)
    assert page.app is not None and page.children == (page.app,)
    assert not page.app.play_panel.keep and NOT_KEPT not in page.app.play_panel.status.value


def test_the_first_learner_adopts_the_game_of_the_single_file(kept_dir):
    single = build_app(query="").play_panel  # the previous layout: one file for the account
    single.pace = 0
    for _ in range(2):
        act_once(single)
    want = _where(single)
    page = _page(ID_A)
    assert page.session.adopted and _where(page.app.play_panel) == want
    assert _text(page.app.play_panel.status.value).startswith("Welcome back: your game goes on")
    assert not (kept_dir / "game.json").exists()
    other = _page(ID_B)
    assert not other.session.adopted and not other.app.play_panel.resumed


# ----- deep links beside the learner's own game --------------------------------------------------------------------
def _own_game(learner=ID_A):
    """The learner's own page, after two actions: (its panel, the kept file, its bytes)."""
    panel = _page(learner).app.play_panel
    act_once(panel)
    act_once(panel)
    path = panel._keep_target()
    return panel, path, path.read_bytes()


def test_a_deal_link_plays_beside_the_learner_s_game(kept_dir):
    own, path, before = _own_game()
    linked = _page(ID_A, "?deal=42").app.play_panel
    assert linked._keep_target() == kept_dir / "learners" / ID_A / "deal.json"
    assert "Your own game is kept: open the app without ?deal= to go on with it." in linked.status.value
    act_once(linked)
    assert path.read_bytes() == before
    act_once(own)  # the first page goes on keeping its game: no "newer page"
    assert own.keep and NEWER not in own.status.value + own.header.value
    assert saved.load_table(path).table.state.step == own.table.state.step
    again = _page(ID_A, "?deal=42").app.play_panel  # a reload of the link goes on with the link's game
    assert again.resumed and _where(again) == _where(linked)
    home = _page(ID_A).app.play_panel
    assert _where(home) == _where(own)


@pytest.mark.parametrize("query", ["?record=crowsnest-set", "?record=../../README&deal=1e5", "?deal=x",
                                   "?variant=dixie", "?record=missing.json"])
def test_another_link_shows_the_learner_s_game_without_taking_it_over(kept_dir, query):
    own, path, before = _own_game()
    stamp = saved.file_stamp(path)
    page = _page(ID_A, query)
    linked = page.app.play_panel
    assert _where(linked) == _where(own)  # the learner's own game, on show
    assert saved.file_stamp(path) == stamp and saved.keeper(path) == own.page  # not taken over
    act_once(own)  # the first page keeps its game
    assert own.keep and NEWER not in own.status.value + own.header.value
    after = path.read_bytes()
    assert after != before
    act_once(linked)  # moves on the link's page now: the game went on elsewhere, so they are not kept
    assert not linked.keep and WENT_ON in _text(linked.status.value)
    assert path.read_bytes() == after and saved.keeper(path) == own.page
    act_once(own)
    assert own.keep and NEWER not in own.status.value


def test_a_link_page_keeps_the_game_once_the_learner_plays_there(kept_dir):
    own, path, before = _own_game()
    linked = _page(ID_A, "?record=crowsnest-made").app.play_panel
    assert path.read_bytes() == before
    act_once(linked)  # nothing happened elsewhere: this page takes the game on, as a newer page would
    assert linked.keep and saved.keeper(path) == linked.page
    assert saved.load_table(path).table.state.step == linked.table.state.step
    act_once(own)
    assert not own.keep and NEWER in own.status.value


def test_a_plain_page_still_takes_the_game_over(kept_dir):
    """One learner, two plain tabs: the newest keeps the game once the learner acts in it (a tab only opened gives
    it back to the page in use: tests/widgets/test_app_resume.py)."""
    first, path, _before = _own_game()
    second = _page(ID_A).app.play_panel
    assert saved.keeper(path) == second.page
    act_once(second)
    act_once(first)
    assert not first.keep and NEWER in first.status.value


def test_a_link_page_without_a_learner_file_changes_nothing_until_played(kept_dir):
    page = AppPage(query="?record=crowsnest-set", timer=False)
    page.learner_id.report = {"id": ID_A, "stored": True}
    assert not (kept_dir / "learners" / ID_A / "game.json").exists()  # a look at a record writes no game
    page.app.play_panel.pace = 0  # a change made on the page: from now on it keeps the game
    assert (kept_dir / "learners" / ID_A / "game.json").exists()
