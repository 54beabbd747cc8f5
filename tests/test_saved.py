"""Tests for rookcore.saved: the game in play kept between visits (save, load, refuse what cannot be resumed)."""
from __future__ import annotations

import pickle
import random

import pytest

from rookcore import records, saved
from rookcore.hand import Phase
from rookcore.rules import get_rules
from rookcore.table import Table


def _learner_move(table: Table, rng: random.Random) -> None:
    """One learner action picked from the Table's own offers."""
    if table.state.phase is Phase.DISCARD:
        table.learner_discard(rng.sample(table.discard_options(), table.rules.nest_size))
    else:
        table.learner_act(rng.choice(table.legal_for_learner()))


def _play(table: Table, rng: random.Random, actions: int) -> None:
    """Up to ``actions`` learner actions (AIs in between), across hands; stops early when the game is over."""
    for _ in range(actions):
        table.run_ai()
        if table.game.is_over:
            return
        if table.state.is_over:
            table.new_hand()
            table.run_ai()
        if table.is_learner_turn():
            _learner_move(table, rng)


def _game_json(table: Table) -> str:
    return records.dumps(records.game_record(table.game.hands + [table.state], table.rules))


@pytest.mark.parametrize("level", ["rules", "strong"])
def test_a_resumed_game_goes_on_exactly_as_the_original(tmp_path, level):
    table = Table(get_rules("tournament"), seed=11, level=level)
    _play(table, random.Random(1), 14 if level == "rules" else 6)
    path = saved.save_table(table, tmp_path / "game.pickle", extra={"pending_rules": get_rules("buckeye")})

    back = saved.load_table(path)
    assert back.extra["pending_rules"] == get_rules("buckeye")
    assert back.table.level == level and back.table.hand_number == table.hand_number
    assert _game_json(back.table) == _game_json(table)
    # the same learner actions from here give the same game: deals, AI seeds and AI decisions all came back
    _play(table, random.Random(2), 6)
    _play(back.table, random.Random(2), 6)
    assert _game_json(back.table) == _game_json(table)
    assert [d.action for d in back.table.decisions] == [d.action for d in table.decisions]


def test_a_strong_ai_that_has_solved_endgames_can_be_kept(tmp_path):
    table = Table(seed=4, level="strong")
    rng = random.Random(3)
    while not (table.state.phase is Phase.PLAY and len(table.state.tricks) >= 5):
        table.run_ai()
        if table.is_learner_turn():
            _learner_move(table, rng)
    table.run_ai()
    assert any(p._solver is not None for p in table.players.values()), "an AI has used its endgame solver"
    back = saved.load_table(saved.save_table(table, tmp_path / "g.pickle"))
    assert all(p._solver is None for p in back.table.players.values())  # a cache: made again when needed
    _play(back.table, rng, 4)  # and the resumed AIs still play


def test_keeping_nothing_when_the_variable_is_empty(monkeypatch, tmp_path):
    monkeypatch.setenv(saved.GAME_FILE_ENV, "")
    assert saved.game_path() is None
    assert saved.save_table(Table(seed=1)) is None
    assert saved.load_table() is None
    monkeypatch.setenv(saved.GAME_FILE_ENV, str(tmp_path / "kept.pickle"))
    assert saved.game_path() == tmp_path / "kept.pickle"
    assert saved.load_table() is None  # no file yet: nothing to resume
    saved.save_table(Table(seed=1))
    assert saved.load_table().table.seed == 1
    monkeypatch.delenv(saved.GAME_FILE_ENV)
    assert saved.game_path().name == "game.pickle" and saved.game_path().parent.name == ".crowsnest-rook"


def test_a_save_replaces_the_file_whole_and_leaves_no_temporary_file(tmp_path):
    path = tmp_path / "deep" / "folder" / "game.pickle"
    saved.save_table(Table(seed=1), path)
    saved.save_table(Table(seed=2), path)
    assert saved.load_table(path).table.seed == 2
    assert [p.name for p in path.parent.iterdir()] == ["game.pickle"]


def test_a_save_where_a_file_stands_in_the_way_raises_oserror(tmp_path):
    (tmp_path / "blocker").write_text("x")
    with pytest.raises(OSError):
        saved.save_table(Table(seed=1), tmp_path / "blocker" / "game.pickle")


@pytest.mark.parametrize("content, words", [
    (b"", "is not a saved game"),
    (b"garbage", "is not a saved game"),
    (pickle.dumps({"format": "something-else"}), "is not a saved game of this app"),
    (pickle.dumps([1, 2, 3]), "is not a saved game of this app"),
])
def test_a_damaged_or_foreign_file_is_refused_and_left_alone(tmp_path, content, words):
    path = tmp_path / "game.pickle"
    path.write_bytes(content)
    with pytest.raises(saved.SavedGameError, match=words):
        saved.load_table(path)
    assert path.read_bytes() == content


def _rewrite(path, **changes) -> None:
    doc = pickle.loads(path.read_bytes())
    doc.update(changes)
    path.write_bytes(pickle.dumps(doc))


def test_a_game_saved_by_other_code_is_refused(tmp_path):
    path = saved.save_table(Table(seed=1), tmp_path / "g.pickle")
    _rewrite(path, code="0123456789abcdef")
    with pytest.raises(saved.SavedGameError, match="another version of the app"):
        saved.load_table(path)


def test_a_file_without_a_table_is_refused(tmp_path):
    path = saved.save_table(Table(seed=1), tmp_path / "g.pickle")
    _rewrite(path, table={"not": "a table"})
    with pytest.raises(saved.SavedGameError, match="holds no game"):
        saved.load_table(path)


def test_an_inconsistent_hand_is_refused(tmp_path):
    table = Table(seed=5)
    _play(table, random.Random(0), 3)
    seat = table.learner
    card = next(iter(table.state.hands[seat]))
    table.state.hands[seat].discard(card)  # a card vanished: the record no longer replays to this position
    with pytest.raises(saved.SavedGameError, match="does not replay"):
        saved.check_table(table)
    path = saved.save_table(table, tmp_path / "g.pickle")
    with pytest.raises(saved.SavedGameError, match="does not replay"):
        saved.load_table(path)


def test_a_score_that_does_not_add_up_is_refused(tmp_path):
    table = Table(seed=5)
    _play(table, random.Random(0), 30)
    assert table.game.hands, "a hand was scored"
    table.game.scores[0] += 5
    with pytest.raises(saved.SavedGameError, match="score does not add up"):
        saved.load_table(saved.save_table(table, tmp_path / "g.pickle"))


def test_a_crafted_file_cannot_run_code(tmp_path):
    """The unpickler builds only this package's classes: a file naming os.system is refused before it runs."""
    import os

    class Crafted:
        def __reduce__(self):
            return (os.system, (f"touch {tmp_path / 'ran'}",))

    path = tmp_path / "game.pickle"
    path.write_bytes(pickle.dumps({"format": saved.FORMAT, "table": Crafted()}))
    with pytest.raises(saved.SavedGameError, match="is not a saved game"):
        saved.load_table(path)
    assert not (tmp_path / "ran").exists()
    # a global of a module that this package imports is refused too
    path.write_bytes(b"\x80\x04\x95\x1e\x00\x00\x00\x00\x00\x00\x00\x8c\x0erookcore.saved\x94\x8c\x02os\x94\x93\x94.")
    with pytest.raises(saved.SavedGameError, match="is not a saved game"):
        saved.load_table(path)


def test_the_deal_link_game_is_kept_beside_the_own_game(monkeypatch, tmp_path):
    monkeypatch.setenv(saved.GAME_FILE_ENV, str(tmp_path / "kept.pickle"))
    assert saved.deal_game_path() == tmp_path / "kept-deal.pickle"
    monkeypatch.setenv(saved.GAME_FILE_ENV, "")
    assert saved.deal_game_path() is None


def test_the_newest_claim_names_the_keeper(tmp_path):
    path = tmp_path / "sub" / "g.pickle"
    assert saved.keeper(path) is None and saved.keeper(None) is None
    saved.claim(path, "page-a")
    assert saved.keeper(path) == "page-a"
    saved.claim(path, "page-b")
    assert saved.keeper(path) == "page-b"
    assert sorted(p.name for p in path.parent.iterdir()) == ["g.pickle.page"]


def test_a_kept_game_the_learner_never_acted_in_is_no_welcome_back(monkeypatch, tmp_path):
    """A page fetched and never used (a health check, a link preview) keeps a game: the next visitor is new."""
    monkeypatch.setenv(saved.GAME_FILE_ENV, str(tmp_path / "game.pickle"))
    table = Table(seed=5)
    table.run_ai()  # the AIs before South may have called: still the learner's first hand, untouched
    saved.save_table(table)
    start = saved.start_game()
    assert start.welcome == "" and start.table.state.step == table.state.step
    assert saved.start_game(deal=9).welcome == ""  # nor is that game "your own game" beside a link
    _learner_move(table, random.Random(0))
    saved.save_table(table)
    assert saved.start_game().welcome.startswith("Welcome back: your game goes on (hand 1")
    assert "Your own game is kept" in saved.start_game(deal=9).welcome


def test_a_deal_link_never_acted_in_is_no_welcome_back(monkeypatch, tmp_path):
    monkeypatch.setenv(saved.GAME_FILE_ENV, str(tmp_path / "game.pickle"))
    first = saved.start_game(deal=42)
    saved.save_table(first.table, first.path, first.extra)
    again = saved.start_game(deal=42)
    assert again.welcome == "" and again.table.game.current.dealt == first.table.game.current.dealt
    first.table.run_ai()
    _learner_move(first.table, random.Random(0))
    saved.save_table(first.table, first.path, first.extra)
    assert saved.start_game(deal=42).welcome.startswith("Welcome back to deal 42: your game goes on")
