"""Under JupyterHub the learner is the signed-in user (issue 31 item 4, `rookcore.learners.hub_user`): a
single-user server's ``$JUPYTERHUB_USER`` names them, their kept game lives in their own home folder under a learner
id made from the user name (`hub_learner`), and whatever a browser reports is not used; Binder (anonymous launches)
and ``$ROOK_LEARNER_FROM=browser`` keep learners by browser. The real JupyterHub is in tests/test_jupyterhub.py."""
from __future__ import annotations

import logging
import uuid

import pytest

from rookcore import learners, saved
from rookcore.table import Table

ID_A = "0123456789abcdef" * 2


@pytest.fixture
def hub(monkeypatch, tmp_path):
    """A JupyterHub single-user server's environment: ``$JUPYTERHUB_USER`` alice, her home folder ``<tmp>/alice``,
    the kept game where the app keeps it by default (no ``$ROOK_GAME_FILE``), no Binder variable."""
    home = tmp_path / "alice"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv(learners.HUB_USER_ENV, "alice")
    for name in (saved.GAME_FILE_ENV, learners.LEARNER_FROM_ENV, learners.KEEP_DAYS_ENV, *learners.BINDER_ENVS):
        monkeypatch.delenv(name, raising=False)
    return home


@pytest.mark.parametrize("env, user", [
    ({}, None),
    ({"JUPYTERHUB_USER": ""}, None),
    ({"JUPYTERHUB_USER": "alice"}, "alice"),
    ({"JUPYTERHUB_USER": "alice", "ROOK_LEARNER_FROM": "hub"}, "alice"),
    ({"JUPYTERHUB_USER": "alice", "ROOK_LEARNER_FROM": " HUB "}, "alice"),
    ({"JUPYTERHUB_USER": "alice", "ROOK_LEARNER_FROM": "browser"}, None),
    ({"JUPYTERHUB_USER": "alice", "ROOK_LEARNER_FROM": ""}, "alice"),
    ({"JUPYTERHUB_USER": "abc-123", "BINDER_REPO_URL": "https://github.com/crowsnest/rook"}, None),
    ({"JUPYTERHUB_USER": "abc-123", "BINDER_LAUNCH_HOST": "https://mybinder.org/"}, None),
    ({"JUPYTERHUB_USER": "abc-123", "BINDER_REQUEST": "v2/gh/crowsnest/rook/main"}, None),
    ({"JUPYTERHUB_USER": "abc-123", "BINDER_REPO_URL": "x", "ROOK_LEARNER_FROM": "hub"}, "abc-123"),
    ({"ROOK_LEARNER_FROM": "hub"}, None),
])
def test_the_hub_user_is_the_learner_except_on_binder_or_when_told(env, user):
    assert learners.hub_user(env) == user


def test_another_choice_is_said_in_the_log_and_the_default_used(caplog):
    with caplog.at_level(logging.WARNING, logger="rookcore.learners"):
        assert learners.hub_user({"JUPYTERHUB_USER": "alice", "ROOK_LEARNER_FROM": "teacher"}) == "alice"
    assert "$ROOK_LEARNER_FROM is hub or browser, not 'teacher'" in caplog.text


def test_a_hub_user_s_learner_id_is_theirs_at_every_visit():
    ids = {name: learners.hub_learner(name) for name in ("alice", "bob", "Alice", "ålice", "a" * 200, "x@y.org")}
    assert len(set(ids.values())) == len(ids)  # one id a user, never shared
    for name, learner in ids.items():
        assert learners.parse_learner_id(learner) == learner  # a valid id: it may name a folder
        assert learner == uuid.uuid5(learners.HUB_NAMESPACE, name).hex == learners.hub_learner(name)
    # the namespace is fixed: a new release that changed it would lose every hub user's kept game
    assert learners.hub_learner("alice") == "42c70a749a0153a18f4872f75375444c"


def test_no_hub_user_no_hub_learner(monkeypatch):
    monkeypatch.delenv(learners.HUB_USER_ENV, raising=False)
    assert learners.hub_learner() is None and learners.hub_learner("") is None


def test_the_hub_user_s_game_is_in_their_home_whatever_the_browser_says(hub):
    want = hub / ".crowsnest-rook" / "learners" / learners.hub_learner("alice")
    for reported, stored in ((None, True), (ID_A, True), (ID_A, False), ("../../escape", True)):
        session = learners.open_session(reported, stored=stored)
        assert session.learner == learners.hub_learner("alice") and session.note == ""
        assert session.game == want / "game.json" and session.deal == want / "deal.json"
    saved.save_table(Table(seed=5), session.game)
    assert saved.load_table(want / "game.json").table.seed == 5
    assert sorted(p.name for p in (hub / ".crowsnest-rook" / "learners").iterdir()) == [want.name]


def test_two_hub_users_sharing_one_home_still_keep_two_games(hub, monkeypatch):
    alice = learners.open_session(None)
    monkeypatch.setenv(learners.HUB_USER_ENV, "bob")
    bob = learners.open_session(None)
    assert alice.game != bob.game and alice.game.parent.parent == bob.game.parent.parent


def test_a_hub_user_adopts_the_game_of_their_home_s_earlier_release(hub):
    old = hub / ".crowsnest-rook" / "game.json"
    saved.save_table(Table(seed=9), old)
    session = learners.open_session(None)
    assert session.adopted and not old.exists()
    assert saved.load_table(session.game).table.seed == 9


def test_a_hub_user_s_folder_is_not_cleaned_when_they_come_back_late(hub, monkeypatch):
    first = learners.open_session(None)
    saved.save_table(Table(seed=3), first.game)
    monkeypatch.setenv(learners.KEEP_DAYS_ENV, "1")
    again = learners.open_session(None, now=__import__("time").time() + 10 * 86_400)
    assert again.game == first.game and saved.load_table(again.game).table.seed == 3


@pytest.mark.parametrize("binder, choice", [("BINDER_REPO_URL", ""), (None, "browser")])
def test_on_binder_or_when_told_the_browser_s_id_is_used(hub, monkeypatch, binder, choice):
    if binder:
        monkeypatch.setenv(binder, "https://github.com/crowsnest/rook")
    monkeypatch.setenv(learners.LEARNER_FROM_ENV, choice)
    session = learners.open_session(ID_A)
    assert session.learner == ID_A
    assert session.game == hub / ".crowsnest-rook" / "learners" / ID_A / "game.json"
    assert not learners.open_session(None).kept  # no browser id: nothing kept, as on a plain server


def test_a_hub_server_that_keeps_nothing_keeps_nothing(hub, monkeypatch):
    monkeypatch.setenv(saved.GAME_FILE_ENV, "")
    session = learners.open_session(None)
    assert not session.kept and session.deal is None and session.note == ""
