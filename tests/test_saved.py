"""Tests for rookcore.saved: the game in play kept between visits (save, load, refuse what cannot be resumed)."""
from __future__ import annotations

import json
import os
import pathlib
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
    assert saved.game_path().name == "game.json" and saved.game_path().parent.name == ".crowsnest-rook"


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


def _rewrite(path, change) -> None:
    """Change the kept JSON file at ``path``: ``change(doc)`` edits the document in place."""
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


def test_a_file_of_another_format_is_refused(tmp_path):
    path = saved.save_table(Table(seed=1), tmp_path / "g.json")
    _rewrite(path, lambda doc: doc.update(format="crowsnest-kept-game/9"))
    with pytest.raises(saved.SavedGameError, match="is not a saved game of this app"):
        saved.load_table(path)


def test_a_file_without_a_table_is_refused(tmp_path):
    path = saved.save_table(Table(seed=1), tmp_path / "g.json")
    _rewrite(path, lambda doc: doc.update(table={"not": "a table"}))
    with pytest.raises(saved.SavedGameError, match="learner's seat is not a seat"):
        saved.load_table(path)


def test_an_inconsistent_hand_is_refused_and_never_written(tmp_path):
    table = Table(seed=5)
    _play(table, random.Random(0), 3)
    seat = table.learner
    card = next(iter(table.state.hands[seat]))
    table.state.hands[seat].discard(card)  # a card vanished: the record no longer replays to this position
    with pytest.raises(saved.SavedGameError, match="does not replay"):
        saved.check_table(table)
    with pytest.raises(saved.SavedGameError, match="does not replay"):
        saved.save_table(table, tmp_path / "g.json")
    assert not (tmp_path / "g.json").exists()


def test_a_score_that_does_not_add_up_is_refused(tmp_path):
    table = Table(seed=5)
    _play(table, random.Random(0), 30)
    assert table.game.hands, "a hand was scored"
    path = saved.save_table(table, tmp_path / "g.json")
    _rewrite(path, lambda doc: doc["game"]["score"].update(NS=doc["game"]["score"]["NS"] + 5))
    with pytest.raises(saved.SavedGameError, match=r"its game record is not valid: \$\.score: the hands add up"):
        saved.load_table(path)
    table.game.scores[0] += 5
    with pytest.raises(saved.SavedGameError, match="score does not add up"):
        saved.save_table(table, tmp_path / "g.json")


def test_a_crafted_file_cannot_run_code(tmp_path):
    """The unpickler builds only this package's classes: a file naming os.system is refused before it runs."""
    import os

    class Crafted:
        def __reduce__(self):
            return (os.system, (f"touch {tmp_path / 'ran'}",))

    path = tmp_path / "game.pickle"
    path.write_bytes(pickle.dumps({"format": saved.LEGACY_FORMAT, "table": Crafted()}))
    with pytest.raises(saved.SavedGameError, match="is not a saved game"):
        saved.load_table(path)
    assert not (tmp_path / "ran").exists()
    # a global of a module that this package imports is refused too
    path.write_bytes(b"\x80\x04\x95\x1e\x00\x00\x00\x00\x00\x00\x00\x8c\x0erookcore.saved\x94\x8c\x02os\x94\x93\x94.")
    with pytest.raises(saved.SavedGameError, match="is not a saved game"):
        saved.load_table(path)
    # and so is a class of this package that a kept game does not hold
    path.write_bytes(pickle.dumps({"format": saved.LEGACY_FORMAT, "table": saved.GameStart(None)}))
    with pytest.raises(saved.SavedGameError, match="is not a saved game"):
        saved.load_table(path)
    assert not (tmp_path / "ran").exists()


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


# ----- the kept game as data (issue 27 item 2) -------------------------------------------------------------------
FIXTURES = pathlib.Path(__file__).resolve().parent / "fixtures"


def test_the_kept_file_is_a_game_record_with_the_settings(tmp_path):
    """JSON, no pickle: a rook-game/1 record that any reader of the format takes, the settings beside it."""
    table = Table(get_rules("crowsnest"), seed=3)
    _play(table, random.Random(4), 25)
    table.set_bird(False)
    path = saved.save_table(table, tmp_path / "game.json", extra={"pending_rules": get_rules("dixie"),
                                                                  "pace": 0.5, "deal": 7})
    doc = json.loads(path.read_text("utf-8"))
    assert doc["format"] == saved.FORMAT
    game = records.from_json(doc["game"])
    report = records.score_report(game)
    assert [report["score"]["NS"], report["score"]["EW"]] == table.game.scores
    assert doc["settings"] == {"level": "rules", "pace": 0.5, "bird_next": False, "extra": {"deal": 7},
                               "pending_rules": {"variant": "dixie", "options": {}}}
    back = saved.load_table(path)
    assert back.extra == {"pending_rules": get_rules("dixie"), "pace": 0.5, "deal": 7}
    assert back.table.bird_next_game is False and back.table.game.scores == table.game.scores
    assert back.table.score_sheet() == table.score_sheet() and back.table.hand_number == table.hand_number
    assert [e.step for e in back.table.log] == [e.step for e in table.log]
    assert [d.summary() for d in back.table.decisions] == [d.summary() for d in table.decisions]


def test_a_won_game_is_kept_with_the_deal_after_it(tmp_path):
    table = Table(get_rules("crowsnest", {"target": 50}), seed=8)
    _play(table, random.Random(1), 400)
    assert table.game.is_over
    back = saved.load_table(saved.save_table(table, tmp_path / "g.json")).table
    assert back.game.is_over and back.game.winner == table.game.winner and back.game.scores == table.game.scores
    assert back.state.step == table.state.step and back.game.current.dealt == table.game.current.dealt


def test_a_game_kept_by_the_previous_release_resumes(tmp_path):
    """tests/fixtures/previous-release-game.pickle was written by the release before this format (a pickle of the
    Table, `make_previous_release_game.py`): it is converted, and play goes on as it would have gone on then."""
    import shutil
    import sys

    sys.path.insert(0, str(FIXTURES))
    from make_previous_release_game import game_json, play  # noqa: PLC0415

    expected = json.loads((FIXTURES / "previous-release-game.expected.json").read_text())
    path = tmp_path / "game.pickle"
    shutil.copy(FIXTURES / "previous-release-game.pickle", path)
    back = saved.load_table(path)
    table = back.table
    assert (table.hand_number, table.state.step, table.game.scores) == (
        expected["hand_number"], expected["step"], expected["scores"])
    assert table.level == expected["level"] and table.bird_next_game == expected["bird_next_game"]
    assert back.extra == {"pending_rules": get_rules("buckeye"), "pace": 0.4}
    assert game_json(table) == expected["game"]
    assert [d.summary() for d in table.decisions] == expected["decisions"]
    play(table, random.Random(2), 12)  # the AIs' generators came back: the same moves give the same game
    assert game_json(table) == expected["after_12_actions"]
    saved.save_table(table, path, back.extra)  # kept as JSON from now on, at the same path
    assert path.read_bytes()[:1] == b"{" and saved.load_table(path).table.state.step == table.state.step


def test_the_previous_release_s_default_file_is_read_when_there_is_no_json(monkeypatch, tmp_path):
    import shutil

    monkeypatch.delenv(saved.GAME_FILE_ENV, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    folder = tmp_path / ".crowsnest-rook"
    folder.mkdir()
    shutil.copy(FIXTURES / "previous-release-game.pickle", folder / "game.pickle")
    start = saved.start_game()
    assert start.resumed and start.welcome.startswith("Welcome back: your game goes on (hand 4")
    assert start.path == folder / "game.json" and start.pending_rules == get_rules("buckeye") and start.pace == 0.4
    saved.save_table(start.table, start.path, {"pending_rules": start.pending_rules, "pace": start.pace})
    assert saved.load_table().table.state.step == start.table.state.step


def _kept_doc(tmp_path) -> dict:
    table = Table(seed=5)
    _play(table, random.Random(0), 8)
    return json.loads(saved.save_table(table, tmp_path / "source.json").read_text())


def _log_lies(doc):
    doc["table"]["log"][0]["decision"]["action"] = {"bid": 995}


HOSTILE_FILES = {  # name: (how the file is made from a good document, words of the note)
    "truncated": (lambda doc: json.dumps(doc)[:-30], "is not a saved game (not JSON"),
    "duplicate-key": (lambda doc: json.dumps(doc)[:-1] + ', "format": "x"}', "is written twice"),
    "nan": (lambda doc: json.dumps(doc)[:-1] + ', "x": NaN}', "NaN is not a JSON number"),
    "unknown-level": (lambda doc: json.dumps({**doc, "settings": {**doc["settings"], "level": "os.system"}}),
                      "its AI level is not one of this app's"),
    "illegal-call": (lambda doc: json.dumps(doc).replace('"auction": [', '"auction": [5, ', 1),
                     "its game record is not valid: $.hands[0]: step 0:"),
    "bad-generator": (lambda doc: json.dumps({**doc, "table": {**doc["table"], "random": {
        "table": [3, [0] * 10, None], "game": doc["table"]["random"]["game"]}}}),
                      "the table's random generator is not a generator's state"),
    "reasoning-that-lies": (lambda doc: (_log_lies(doc), json.dumps(doc))[1], "does not match the move made"),
    "pickle-of-other-code": (lambda doc: pickle.dumps({"format": "crowsnest-table/1", "table": os.getcwd}),
                             "is not a saved game"),
    "not-an-object": (lambda doc: "[1, 2, 3]", "is not a saved game of this app"),
}


@pytest.mark.timeout(10)
@pytest.mark.parametrize("name", list(HOSTILE_FILES))
def test_a_bad_file_is_set_aside_with_a_note_and_a_new_game_starts(monkeypatch, tmp_path, name):
    make, words = HOSTILE_FILES[name]
    content = make(_kept_doc(tmp_path))
    path = tmp_path / "game.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    with pytest.raises(saved.SavedGameError) as info:
        saved.load_table(path)
    assert words in str(info.value) and "\n" not in str(info.value) and len(str(info.value)) < 400
    assert path.exists()  # load_table leaves the file alone; start_game sets it aside
    monkeypatch.setenv(saved.GAME_FILE_ENV, str(path))
    start = saved.start_game()
    assert not start.resumed and start.table.hand_number == 1
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("game.json.bad-")]
    assert len(aside) == 1 and not path.exists()
    assert start.welcome.startswith("Your saved game could not be resumed: ")
    assert f"It was set aside as {aside[0].name}. A new game has started." in start.welcome
    assert saved.start_game().welcome == ""  # set aside once: the next visit is a plain new game


@pytest.mark.timeout(10)
@pytest.mark.parametrize("kind", ["named pipe", "folder"])
def test_a_kept_path_that_is_not_a_regular_file_is_refused_at_once(tmp_path, kind):
    path = tmp_path / "game.json"
    os.mkfifo(path) if kind == "named pipe" else path.mkdir()
    with pytest.raises(saved.SavedGameError, match=f"it is a {kind}, not a regular file"):
        saved.load_table(path)


def test_a_kept_file_larger_than_the_limit_is_not_read(monkeypatch, tmp_path):
    path = saved.save_table(Table(seed=1), tmp_path / "game.json")
    monkeypatch.setattr(saved, "MAX_KEPT_BYTES", 1000)
    with pytest.raises(saved.SavedGameError, match="larger than"):
        saved.load_table(path)
