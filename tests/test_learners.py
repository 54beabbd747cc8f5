"""Tests for rookcore.learners: a game per learner (issue 27 item 1) — the learner id checked strictly, each
learner's folder of kept games, the clean-up of old ones, the single per-account file adopted once, and a deal link
that never touches the learner's own game."""
from __future__ import annotations

import os
import pathlib
import random
import shutil
import time

import pytest

from rookcore import learners, saved
from rookcore.hand import Phase
from rookcore.table import Table

FIXTURES = pathlib.Path(__file__).resolve().parent / "fixtures"
DAY = 86_400.0
ID_A = "0123456789abcdef0123456789abcdef"
ID_B = "fedcba9876543210fedcba9876543210"



def _acted_table(seed: int, actions: int = 1) -> Table:
    """A table where the learner has made ``actions`` moves (the AIs in between)."""
    table, rng = Table(seed=seed), random.Random(seed)
    for _ in range(actions):
        table.run_ai()
        if table.state.phase is Phase.DISCARD:
            table.learner_discard(rng.sample(table.discard_options(), table.rules.nest_size))
        elif table.is_learner_turn():
            table.learner_act(rng.choice(table.legal_for_learner()))
    return table


# ----- the learner id ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("value, expected", [
    (ID_A, ID_A),
    (ID_A.upper(), ID_A),
    ("01234567-89ab-cdef-0123-456789abcdef", ID_A),
    ("01234567-89AB-CDEF-0123-456789ABCDEF", ID_A),
])
def test_a_learner_id_is_32_hex_digits_or_a_uuid(value, expected):
    assert learners.parse_learner_id(value) == expected


@pytest.mark.parametrize("value", [
    None, "", 123, 0x0123456789abcdef0123456789abcdef, b"0123456789abcdef0123456789abcdef", ["x"], {"id": ID_A},
    ID_A[:-1], ID_A + "0", ID_A[:-1] + "g", " " + ID_A, ID_A + "\n", ID_A + "\x00", "0x" + ID_A[:30],
    "../" + ID_A[:29], "..", "../../etc/passwd", "/tmp/" + ID_A[:27], ID_A[:16] + "/" + ID_A[17:],
    "0123456789abcdef0123456789abcde\u0661",  # an Arabic-Indic digit: a digit, not an ASCII hex digit
    "01234567-89ab-cdef-0123-456789abcde", "0123456789ab-cdef-0123-4567-89abcdef",  # dashes in the wrong places
    "a" * 10_000,
])
def test_anything_else_is_no_learner_id(value):
    assert learners.parse_learner_id(value) is None


def test_fresh_ids_are_valid_and_differ():
    ids = {learners.new_learner_id() for _ in range(50)}
    assert len(ids) == 50 and all(learners.parse_learner_id(i) == i for i in ids)


@pytest.mark.parametrize("value", ["../" + ID_A[:29], ID_A.upper(), "", "x" * 32, None])
def test_only_a_canonical_id_reaches_a_path(value, kept_dir):
    with pytest.raises(ValueError, match="not a learner id"):
        learners.learner_dir(value)
    assert not kept_dir.exists()


# ----- where a learner's games are kept ------------------------------------------------------------------------
def test_each_learner_has_a_folder_beside_the_kept_file(kept_dir):
    assert learners.learners_dir() == kept_dir / "learners"
    a = learners.open_session(ID_A)
    assert a.learner == ID_A and a.kept and a.note == ""
    assert a.game == kept_dir / "learners" / ID_A / "game.json"
    assert a.deal == kept_dir / "learners" / ID_A / "deal.json"
    b = learners.open_session("FEDCBA98-7654-3210-FEDC-BA9876543210")
    assert b.game == kept_dir / "learners" / ID_B / "game.json"
    saved.save_table(Table(seed=1), a.game)
    saved.save_table(Table(seed=2), b.game)
    assert saved.load_table(a.game).table.seed == 1 and saved.load_table(b.game).table.seed == 2
    assert sorted(p.name for p in (kept_dir / "learners").iterdir()) == sorted([ID_A, ID_B])


@pytest.mark.parametrize("value, stored", [("../../escape", True), (None, True), (ID_A, False)])
def test_a_bad_or_unkept_id_keeps_nothing_and_says_so(kept_dir, value, stored):
    session = learners.open_session(value, stored=stored)
    assert not session.kept and session.deal is None
    assert session.note == ("This browser keeps no learner id for this app, so the game on this page is not kept for "
                            "your next visit.")
    assert not kept_dir.exists()  # nothing written anywhere
    assert not (kept_dir.parent / "escape").exists()


def test_a_server_that_keeps_nothing_needs_no_id(monkeypatch):
    monkeypatch.setenv(saved.GAME_FILE_ENV, "")
    assert learners.learners_dir() is None
    session = learners.open_session(ID_A)
    assert not session.kept and session.note == ""
    with pytest.raises(ValueError, match="nothing is kept"):
        learners.learner_dir(ID_A)


# ----- the clean-up of old games -------------------------------------------------------------------------------
@pytest.mark.parametrize("value, days, problem", [
    (None, 30.0, False), ("", 30.0, False), ("7", 7.0, False), (" 0.5 ", 0.5, False), ("0", None, False),
    ("never", None, False), ("NEVER", None, False), ("abc", 30.0, True), ("-3", 30.0, True), ("nan", 30.0, True),
    ("inf", 30.0, True), ("1e9", 30.0, True),
])
def test_keep_days_comes_from_the_environment(monkeypatch, value, days, problem):
    if value is None:
        monkeypatch.delenv(learners.KEEP_DAYS_ENV, raising=False)
    else:
        monkeypatch.setenv(learners.KEEP_DAYS_ENV, value)
    got, said = learners.keep_days()
    assert got == days and bool(said) == problem
    if problem:
        assert said.startswith("$ROOK_KEEP_DAYS is a number of days > 0") and len(said) < 200


def _folder(base: pathlib.Path, name: str, age_days: float, now: float) -> pathlib.Path:
    """A learner folder ``name`` under ``base`` holding a game file, last changed ``age_days`` before ``now``."""
    folder = base / name
    folder.mkdir(parents=True)
    (folder / "game.json").write_text("{}")
    os.utime(folder / "game.json", (now - age_days * DAY,) * 2)
    os.utime(folder, (now - age_days * DAY,) * 2)
    return folder


def _aged(path: pathlib.Path, age_days: float, now: float) -> pathlib.Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("x")
    os.utime(path, (now - age_days * DAY,) * 2)
    return path


def test_old_learners_folders_and_set_aside_files_are_removed(tmp_path):
    now = time.time() + 1000 * DAY  # a clock far ahead: every file made now is 1000 days old unless dated
    base = tmp_path / "learners"
    old = _folder(base, ID_A, 31, now)
    recent = _folder(base, ID_B, 29, now)
    mine = _folder(base, "11111111111111111111111111111111", 400, now)
    other = _folder(base, "notes", 400, now)  # not a learner's folder: never touched
    os.utime(base.parent, (now,) * 2)
    old_bad = _aged(recent / "game.json.bad-20200101-000000", 31, now)
    new_bad = _aged(recent / "game.json.bad-20200102-000000", 1, now)
    single_bad = _aged(tmp_path / "game.json.bad-20200101-000000", 45, now)  # beside the single file
    single = _aged(tmp_path / "game.json", 45, now)  # the single file itself is adopted, not cleaned
    os.utime(recent, (now - 29 * DAY,) * 2)  # (the files made in it renewed its time)
    removed = learners.clean_old(30, base, now, keep=mine.name)
    assert sorted(removed) == sorted([old, old_bad, single_bad])
    assert not old.exists() and not old_bad.exists() and not single_bad.exists()
    assert recent.exists() and new_bad.exists() and (recent / "game.json").exists()
    assert mine.exists() and other.exists() and single.exists()
    assert learners.clean_old(None, base, now + 1000 * DAY) == []  # never: nothing removed
    assert recent.exists()
    assert learners.clean_old(30, base, now + 2 * DAY, keep=mine.name) == [recent]  # its turn comes


def test_the_clean_up_follows_no_link(tmp_path):
    now = time.time()
    outside = _folder(tmp_path / "elsewhere", ID_B, 400, now)
    base = tmp_path / "learners"
    base.mkdir()
    link = base / ID_A
    link.symlink_to(outside, target_is_directory=True)
    os.utime(link, (now - 400 * DAY,) * 2, follow_symlinks=False)
    bad_link = base / ID_B
    bad_link.mkdir()
    (bad_link / "game.json.bad-1").symlink_to(outside / "game.json")
    os.utime(bad_link / "game.json.bad-1", (now - 400 * DAY,) * 2, follow_symlinks=False)
    learners.clean_old(30, base, now)
    assert (outside / "game.json").exists() and link.is_symlink()
    assert (bad_link / "game.json.bad-1").is_symlink()  # a link, not a file of ours: left
    # nor is a base that is itself a link cleaned through
    linked_base = tmp_path / "linked-learners"
    linked_base.symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    assert learners.clean_old(30, linked_base, now) == [] and outside.exists()


def test_the_app_start_cleans_by_rook_keep_days(kept_dir, monkeypatch):
    base = kept_dir / "learners"
    now = time.time()
    stale = _folder(base, ID_B, 10, now)
    monkeypatch.setenv(learners.KEEP_DAYS_ENV, "30")
    learners.open_session(ID_A)
    assert stale.exists()
    monkeypatch.setenv(learners.KEEP_DAYS_ENV, "5")
    learners.open_session(ID_A)
    assert not stale.exists() and (base / ID_A).exists() is False  # opening writes nothing by itself
    monkeypatch.setenv(learners.KEEP_DAYS_ENV, "0")
    stale = _folder(base, ID_B, 10_000, now)
    learners.open_session(ID_A)
    assert stale.exists()


def test_a_learner_coming_back_late_keeps_their_game(kept_dir, monkeypatch):
    now = time.time()
    mine = _folder(kept_dir / "learners", ID_A, 100, now)
    monkeypatch.setenv(learners.KEEP_DAYS_ENV, "30")
    assert learners.open_session(ID_A).game == mine / "game.json" and mine.exists()


def test_a_save_renews_the_folder_s_time(kept_dir):
    session = learners.open_session(ID_A)
    saved.save_table(Table(seed=1), session.game)
    folder = session.game.parent
    os.utime(folder, (1.0, 1.0))
    saved.save_table(Table(seed=1), session.game)
    assert os.stat(folder).st_mtime > time.time() - 60


# ----- the single per-account file of the previous layout is adopted once ---------------------------------------
def test_the_first_learner_adopts_the_single_file(kept_dir):
    table = _acted_table(7, 3)
    single = saved.save_table(table)
    deal_table = _acted_table(8)
    saved.save_table(deal_table, saved.deal_game_path(), {"deal": 8})
    saved.claim(single, "an-old-page")
    data = single.read_bytes()
    a = learners.open_session(ID_A)
    assert a.adopted and a.game.read_bytes() == data
    assert not single.exists() and not saved.deal_game_path().exists()
    assert not single.with_name(single.name + ".page").exists()
    back = saved.load_table(a.game)
    assert back.table.state.step == table.state.step and back.table.state.hands == table.state.hands
    assert saved.load_table(a.deal).extra["deal"] == 8
    b = learners.open_session(ID_B)  # the second learner: nothing left to adopt
    assert not b.adopted and not b.game.exists()
    assert learners.open_session(ID_A).adopted is False  # once


def test_a_learner_with_a_game_of_their_own_adopts_nothing(kept_dir):
    mine = learners.open_session(ID_A)
    saved.save_table(Table(seed=1), mine.game)
    single = saved.save_table(Table(seed=2))
    assert not learners.open_session(ID_A).adopted
    assert single.exists() and saved.load_table(mine.game).table.seed == 1


def test_adopting_never_replaces_a_file(kept_dir):
    single = saved.save_table(Table(seed=2))
    folder = learners.learner_dir(ID_A)
    folder.mkdir(parents=True)
    (folder / "deal.json").write_text("mine")
    saved.save_table(Table(seed=3), saved.deal_game_path(), {"deal": 3})
    assert learners.adopt_single_file(folder)  # the own game moves in,
    assert not single.exists() and (folder / "deal.json").read_text() == "mine"  # the deal file does not
    assert saved.deal_game_path().exists()


def test_a_game_kept_by_the_release_before_json_is_adopted_and_resumes(monkeypatch, tmp_path):
    """The default layout: ~/.crowsnest-rook/game.pickle (the release before the JSON format) moves into the first
    learner's folder as game.json, and resumes there."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv(saved.GAME_FILE_ENV, raising=False)
    monkeypatch.delenv(learners.KEEP_DAYS_ENV, raising=False)
    home = tmp_path / ".crowsnest-rook"
    home.mkdir()
    shutil.copy(FIXTURES / "previous-release-game.pickle", home / "game.pickle")
    session = learners.open_session(ID_A)
    assert session.adopted and session.game == home / "learners" / ID_A / "game.json"
    assert not (home / "game.pickle").exists()
    start = saved.start_game(own_path=session.game, deal_path=session.deal)
    assert start.resumed and start.welcome.startswith("Welcome back: your game goes on (hand 4")


# ----- a deal link plays beside the learner's own game ---------------------------------------------------------
def test_a_deal_link_never_touches_the_learner_s_own_game(kept_dir):
    session = learners.open_session(ID_A)
    saved.save_table(_acted_table(5, 2), session.game)
    before = session.game.read_bytes(), saved.file_stamp(session.game)
    start = saved.start_game(deal=42, own_path=session.game, deal_path=session.deal)
    assert start.path == session.deal and start.extra == {"deal": 42}
    saved.save_table(start.table, start.path, start.extra)
    assert (session.game.read_bytes(), saved.file_stamp(session.game)) == before
    assert "Your own game is kept" in start.welcome


def test_a_deal_link_leaves_a_damaged_own_game_where_it_is(kept_dir):
    session = learners.open_session(ID_A)
    session.game.parent.mkdir(parents=True)
    session.game.write_bytes(b"{not json")
    start = saved.start_game(deal=3, own_path=session.game, deal_path=session.deal)
    assert start.path == session.deal
    assert session.game.read_bytes() == b"{not json"
    assert [p.name for p in session.game.parent.iterdir()] == ["game.json"]  # not set aside by the link
    own = saved.start_game(own_path=session.game, deal_path=session.deal)  # the learner's own page does
    assert "could not be resumed" in own.welcome and not session.game.exists()


def test_nothing_kept_gives_a_game_with_no_path(kept_dir):
    start = saved.start_game(own_path=None, deal_path=None)
    assert start.path is None and not start.resumed
    linked = saved.start_game(deal=4, own_path=None, deal_path=None)
    assert linked.path is None and linked.table.game.current.dealt == Table(deal=4).game.current.dealt
    assert not kept_dir.exists()


def test_a_file_stamp_changes_with_every_save(tmp_path):
    path = tmp_path / "game.json"
    assert saved.file_stamp(path) is None and saved.file_stamp(None) is None
    saved.save_table(Table(seed=1), path)
    first = saved.file_stamp(path)
    saved.save_table(Table(seed=1), path)
    assert first is not None and saved.file_stamp(path) != first
