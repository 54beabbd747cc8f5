"""Records: exact round trips, malformed records each with its error, game records, the CLI."""
import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rookcore import records
from rookcore.hand import SEATS
from rookcore.examples import example_text
from rookcore.records import RecordError

DATA = Path(__file__).resolve().parent.parent / "rookcore" / "data" / "records"
EXAMPLES = sorted(p for p in DATA.glob("*.json") if not p.name.endswith(".expected.json"))


def example(name="crowsnest-made"):
    return json.loads((DATA / f"{name}.json").read_text())


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_round_trip_is_exact(path):
    doc = json.loads(path.read_text())
    assert json.loads(records.dumps(records.loads(path.read_text()))) == doc


def test_round_trip_of_played_hand_and_game():
    from rookcore.ai import RuleBasedPlayer
    from rookcore.rules import get_rules
    from rookcore.selfplay import play_hands
    players = [RuleBasedPlayer(seed=s) for s in range(4)]
    game = play_hands(get_rules("crowsnest"), players, 3, seed=5)
    text = records.dumps(game)
    again = records.loads(text)
    assert records.dumps(again) == text
    assert again.score == game.score


def mutate(path, value):
    doc = example()
    target = doc
    for key in path[:-1]:
        target = target[key]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return doc


DELETE = object()
MALFORMED = [
    ("not-json", "{not json", "not JSON"),
    ("empty", " \n", "not JSON: the file is empty"),
    ("binary", b"\x89PNG\r\n\xd2", "not JSON: not a UTF-8 text file (byte 0 cannot be read as text)"),
    ("not-object", "[1, 2]", "not a Rook record"),
    ("wrong-format", mutate(["format"], "rook-hand/9"), "unknown format"),
    ("unknown-variant", mutate(["variant"], "pinochle"), "$.variant: unknown variant 'pinochle'"),
    ("unknown-option", mutate(["options"], {"jokers": True}), "$.options: unknown option 'jokers'"),
    ("bad-option-value", mutate(["options"], {"target": -5}), "option target must be a positive integer"),
    ("bad-dealer", mutate(["dealer"], "X"), "$.dealer"),
    ("missing-hands", mutate(["hands"], DELETE), "'hands' is a required property"),
    ("bad-card", mutate(["hands", "N", 0], "R15"), "$.hands.N[0]: 'R15' is not a card name"),
    ("card-not-in-deck", mutate(["hands", "N", 0], "R1"), "R1 is not a card of CrowsNest"),
    ("short-hand", mutate(["hands", "N"], ["R12", "G11"]), "N holds 2 cards"),
    ("duplicate-card", mutate(["nest", 0], "R14"), "dealt twice"),
    ("bid-too-low", mutate(["auction", 0], 60), "step 0: E cannot bid 60: the lowest bid is 70"),
    ("bid-not-higher", mutate(["auction", 1], 70), "step 1: S cannot bid 70: a bid must be higher than 70"),
    ("bid-off-step", mutate(["auction", 1], 77), "bids go in steps of 5"),
    ("bad-call", mutate(["auction", 0], "double"), "$.auction[0]"),
    ("discard-wrong-size", mutate(["discard"], ["CROW", "G5"]), "must put back exactly 5 cards, not 2"),
    ("discard-not-held", mutate(["discard", 0], "B13"), "cannot discard B13: not in hand or nest"),
    ("bad-trump", mutate(["trump"], "P"), "$.trump"),
    ("missing-discard", mutate(["discard"], DELETE), "discard is missing"),
    ("revoke", mutate(["tricks", 0, 1], "B8"), "step 10: S cannot play B8"),
    ("card-not-held", mutate(["tricks", 0, 0], "R14"), "does not hold it"),
    ("trick-too-long", mutate(["tricks", 0], ["G13", "G12", "G6", "G11", "G9"]), "$.tricks[0]"),
    ("comment-past-end", mutate(["comments"], [{"step": 999, "text": "x"}]), "past the end"),
    ("extra-key", mutate(["bogus"], 1), "Additional properties are not allowed"),
    ("mark-past-the-end", mutate(["marks"], {"99999": "?"}), "$.marks.99999: step 99999 is past the last action"),
    ("auction-after-end", mutate(["auction"], [70, 75, "pass", 80, "pass", 85, "pass", "pass"]),
     "step 7: cannot call now"),
    # a hand, the nest and the discard are sets: a card listed twice is not dropped silently (rules.md §5)
    ("card-twice-in-hand", mutate(["hands", "N"], example()["hands"]["N"] + ["R12"]), "$.hands.N[9]: R12 is listed twice"),
    ("card-twice-in-nest", mutate(["nest"], example()["nest"] + ["G12"]), "$.nest[5]: G12 is listed twice"),
    ("card-twice-in-discard", mutate(["discard"], example()["discard"] + [example()["discard"][0]]),
     "$.discard[5]: CROW is listed twice"),
    ("short-nest", mutate(["nest"], example()["nest"][1:]), "$.nest: the nest has 4 cards; CrowsNest has 5"),
    ("lower-case-colour", mutate(["hands", "N", 0], "r12"), "$.hands.N[0]: 'r12' is not a card name"),
    ("variant-not-lower-case", mutate(["variant"], "CrowsNest"), "$.variant: unknown variant 'CrowsNest'"),
    ("bird-option-elsewhere", {**example("buckeye-made"), "options": {"bird": False}},
     "$.options: option bird does not apply to Buckeye Rook"),
    ("short-trick-before-the-last", mutate(["tricks", 3], example()["tricks"][3][:2]),
     "$.tricks[3]: a trick before the last must have 4 cards, this one has 2"),
    ("lone-surrogate", json.dumps(mutate(["meta"], {"note": "\ud800"})), "unpaired surrogate"),
    # a marks key is a step number in canonical form: "09" and "9" would name one step, and one mark be dropped
    ("mark-key-leading-zero", mutate(["marks"], {"09": "!", "9": "?"}), "$.marks.09: not a step number"),
    ("mark-key-zero-zero", mutate(["marks"], {"00": "!"}), "$.marks.00: not a step number"),
    ("mark-key-final-newline", mutate(["marks"], {"9\n": "!", "9": "?"}), '$.marks["9\\n"]: not a step number'),
    ("mark-key-huge", mutate(["marks"], {"1" * 5000: "?"}), "step number too large: past the last action"),
    # one path style in every message: the schema's own errors too (it wrote $.marks['9'])
    ("mark-value-unknown", mutate(["marks"], {"9": "x"}), "$.marks.9: 'x' is not one of"),
]


@pytest.mark.parametrize("name,doc,message", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_record_is_rejected_with_its_error(name, doc, message):
    text = doc if isinstance(doc, (str, bytes)) else json.dumps(doc)
    with pytest.raises(RecordError) as info:
        records.loads(text)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "rookcore", *args], capture_output=True, text=True, timeout=120)


def test_score_command_rejects_malformed_with_exit_2_and_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(mutate(["tricks", 0, 1], "B8")))
    result = run_cli("score", str(bad))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().count("\n") == 0 and "step 10: S cannot play B8: must follow G" in result.stderr


def test_score_command_missing_file_exits_2(tmp_path):
    result = run_cli("score", str(tmp_path / "nope.json"))
    assert result.returncode == 2 and "cannot read" in result.stderr


def test_unfinished_hand_reports_known_fields():
    doc = example()
    doc["tricks"] = doc["tricks"][:2] + [doc["tricks"][2][:2]]
    report = records.score_report(records.loads(json.dumps(doc)))
    assert report["complete"] is False and report["declarer"] == "S" and len(report["tricks"]) == 2
    assert report["current_trick"] == {"leader": report["tricks"][1]["winner"], "cards": doc["tricks"][2]}
    assert "score" not in report


def test_unfinished_hand_between_tricks_has_no_current_trick():
    doc = example()
    doc["tricks"] = doc["tricks"][:2]
    report = records.score_report(records.loads(json.dumps(doc)))
    assert report["complete"] is False and len(report["tricks"]) == 2 and "current_trick" not in report


@pytest.mark.parametrize("args", [["score"], ["score", "a.json", "b.json"], [], ["play", "--hands", "x"]])
def test_usage_errors_are_one_line_with_exit_2(args):
    result = run_cli(*args)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip() and result.stderr.strip().count("\n") == 0 and "see --help" in result.stderr


def test_play_command_output_error_is_one_line(tmp_path):
    if not Path("/dev/full").exists():
        pytest.skip("needs /dev/full")
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "rookcore", "play", "--seed", "3"], stdout=full,
                                stderr=subprocess.PIPE, text=True, timeout=120)
    assert result.returncode == 2 and result.stderr.strip() == "cannot write the output: No space left on device"


def test_play_command_writes_the_variant_in_lower_case():
    result = run_cli("play", "--variant", "CROWSNEST", "--seed", "1")
    assert result.returncode == 0 and json.loads(result.stdout)["variant"] == "crowsnest"


def test_score_command_reads_records_over_the_app_upload_limit(tmp_path):
    big = tmp_path / "big.json"
    big.write_text(json.dumps(mutate(["meta"], {"notes": "x" * (records.MAX_RECORD_BYTES + 10)})))
    result = run_cli("score", str(big))
    assert result.returncode == 0, result.stderr
    with pytest.raises(RecordError, match="larger than 1 MB"):
        records.loads(big.read_text())


def test_game_record_checks_score_dealer_and_winner():
    hands = [example("crowsnest-passed-out"), example("crowsnest-made")]
    hands[0]["dealer"] = "N"  # the same dealer deals again after the passed-out hand
    game = {"format": "rook-game/1", "variant": "crowsnest", "hands": hands, "score": {"NS": 85, "EW": 15},
            "winner": None}
    loaded = records.loads(json.dumps(game))
    assert records.score_report(loaded)["score"] == {"NS": 85, "EW": 15}
    wrong = copy.deepcopy(game)
    wrong["score"] = {"NS": 100, "EW": 15}
    with pytest.raises(RecordError, match=r"\$.score"):
        records.loads(json.dumps(wrong))
    rotated = copy.deepcopy(game)
    rotated["hands"][0]["dealer"] = "W"
    with pytest.raises(RecordError, match="same dealer after a passed-out hand"):
        records.loads(json.dumps(rotated))


def test_game_hands_must_give_the_games_rules_however_written():
    hands = [example("crowsnest-passed-out"), example("crowsnest-made")]
    hands[0]["dealer"] = "N"
    hands[1]["options"] = {"bird": True}  # the default spelt out: the same rules as the game's
    game = {"format": "rook-game/1", "variant": "crowsnest", "options": {"target": 300}, "hands": hands,
            "score": {"NS": 85, "EW": 15}, "winner": None}
    assert records.score_report(records.loads(json.dumps(game)))["score"] == {"NS": 85, "EW": 15}
    other = copy.deepcopy(game)
    other["options"] = {"target": 500}
    wanted = r"""\$.hands\[0\]: .*game's rules \(CrowsNest, options \{"target": 500\}\), not CrowsNest$"""
    with pytest.raises(RecordError, match=wanted):
        records.loads(json.dumps(other))


@pytest.mark.parametrize("variant", ["crowsnest", "dixie"])
def test_play_command_writes_a_valid_record(tmp_path, variant):
    out = tmp_path / "hand.json"
    result = run_cli("play", "--variant", variant, "--seed", "7", "--out", str(out))
    assert result.returncode == 0, result.stderr
    record = records.loads(out.read_text())
    assert isinstance(record, records.HandRecord) and record.variant == variant
    again = run_cli("play", "--variant", variant, "--seed", "7")
    assert json.loads(again.stdout) == json.loads(out.read_text())


def test_numbers_longer_than_python_reads_are_refused_in_words(tmp_path):
    """Python refuses to read an integer of more than 4,300 digits; each place that reads one says so in a line."""
    huge = "9" * 5000
    result = run_cli("play", "--options", f'{{"target": {huge}}}')
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip() == "--options is not valid JSON: a number in it has more than 4,300 digits"
    result = run_cli("play", "--seed", huge)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "of at most 4,300 digits, not '99999999999999999999'… (5,000 characters)" in result.stderr
    with pytest.raises(RecordError, match="^not JSON: a number in it has more than 4,300 digits$"):
        records.loads('{"variant": "crowsnest", "bid": ' + huge + "}")


def test_a_game_that_never_ends_says_where_it_stopped(monkeypatch, capsys):
    """``play --game`` stops at `MAX_GAME_HANDS` and says so on stderr (the record has no winner)."""
    from rookcore import cli
    monkeypatch.setattr(cli, "MAX_GAME_HANDS", 2)
    assert cli.main(["play", "--game", "--seed", "1", "--options", '{"target": 100000}']) == 0
    out, err = capsys.readouterr()
    game = records.loads(out)
    assert len(game.hands) == 2 and game.winner is None
    assert err.strip() == "note: no team reached the target in 2 hands; the record stops there, with no winner"


@pytest.mark.parametrize("command", [["play"], ["arena", "--deals", "1"]])
def test_a_negative_seed_is_a_usage_error(command):
    # random.Random(-7) is random.Random(7): a negative seed would silently replay another seed's deals
    result = run_cli(*command, "--seed", "-7")
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and "must be a whole number ≥ 0, not '-7'" in result.stderr


def test_play_command_game(tmp_path):
    out = tmp_path / "game.json"
    result = run_cli("play", "--seed", "3", "--game", "--out", str(out))
    assert result.returncode == 0, result.stderr
    game = records.loads(out.read_text())
    assert isinstance(game, records.GameRecord) and game.winner in ("NS", "EW")
    assert max(game.score.values()) >= 300


def test_play_command_unknown_variant_exits_2():
    result = run_cli("play", "--variant", "euchre")
    assert result.returncode == 2 and "unknown variant" in result.stderr


@pytest.mark.parametrize("text", ["[" * 100000 + "]" * 100000, '{"format": "rook-hand/1", "auction": [' + "9" * 5000 + "]}"],
                         ids=["deep-nesting", "huge-integer"])
def test_pathological_json_is_a_record_error(text):
    with pytest.raises(RecordError, match="not JSON"):
        records.loads(text)


def test_play_command_unwritable_out_exits_2(tmp_path):
    result = run_cli("play", "--seed", "1", "--out", str(tmp_path))
    assert result.returncode == 2 and "cannot write" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("first_float", [True, False])
def test_a_decimal_bid_is_refused_whatever_was_read_before(first_float):
    """70.0 == 70 in Python: a record with a decimal bid must neither spoil the bid 70 for every later record nor be
    accepted because a whole-number 70 was read first (the engine's bids are interned by amount)."""
    good = example()
    amount = next(c for c in good["auction"] if c != "pass")
    bad = copy.deepcopy(good)
    bad["auction"][bad["auction"].index(amount)] = float(amount)
    order = [bad, good] if first_float else [good, bad]
    for doc in order:
        if doc is bad:
            with pytest.raises(RecordError, match=f"a bid must be a whole number of points, not {float(amount)!r}"):
                records.from_json(doc).replay()
        else:
            assert records.from_json(doc).replay().is_over
    from rookcore.actions import Bid, bid
    assert type(bid(amount).amount) is int and bid(amount) is bid(amount)
    assert type(bid(float(amount)).amount) is float and isinstance(bid(float(amount)), Bid)


def test_marks_may_be_on_every_action_and_no_further():
    n = len(records.from_json(example()).actions())
    assert records.from_json(mutate(["marks"], {"0": "!", str(n - 1): "??", "3": "!?"})).marks == {
        0: "!", n - 1: "??", 3: "!?"}
    with pytest.raises(RecordError, match=f"step {n} is past the last action"):
        records.from_json(mutate(["marks"], {str(n): "?"}))


def test_the_schemas_name_every_rule_set():
    from rookcore.rules import ALIASES, VARIANTS
    for fmt in (records.HAND_FORMAT, records.GAME_FORMAT):
        assert set(records.schema(fmt)["properties"]["variant"]["enum"]) == set(VARIANTS) | set(ALIASES)


@pytest.mark.parametrize("key,valid", [("0", True), ("9", True), ("10", True), ("09", False), ("00", False),
                                       ("+9", False), (" 9", False), ("9.0", False)])
def test_the_schema_takes_only_canonical_step_numbers_as_mark_keys(key, valid):
    """The shipped schema alone (for other readers of the format) refuses a marks key that is not a step number
    written "0" or without leading zeros, so that no two keys name one step."""
    import jsonschema
    doc = mutate(["marks"], {key: "!"})
    assert jsonschema.Draft202012Validator(records.schema(records.HAND_FORMAT)).is_valid(doc) is valid


def test_score_command_refuses_two_keys_for_one_step(tmp_path):
    """`score` used to accept {"09": "!", "9": "?"} (exit 0), and a re-save dropped one of the marks."""
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(mutate(["marks"], {"09": "!", "9": "?"})))
    result = run_cli("score", str(bad))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().count("\n") == 0 and result.stderr.startswith("$.marks.09: not a step number")


def test_marks_and_comments_round_trip_exactly():
    """Marks on several steps, and several comments on one step (a list: none is lost), read and written back."""
    doc = mutate(["marks"], {"12": "?", "0": "!", "3": "!?"})
    doc["comments"] = [{"step": 9, "text": "a"}, {"step": 9, "text": "b"}, {"step": 2, "text": "c", "by": "S"}]
    again = json.loads(records.dumps(records.from_json(doc)))
    assert again == doc and list(again["marks"]) == ["0", "3", "12"]


def test_game_dealer_is_checked_before_the_hand_is_replayed():
    """A wrong dealer is reported as such, not as the illegal step it causes when the hand is replayed with it (the
    calls and cards then belong to other seats)."""
    game = json.loads(run_cli("play", "--game", "--seed", "3").stdout)
    assert game["hands"][1]["auction"] != ["pass"] * 4  # the deal passes left after hand 1
    expected = SEATS[(SEATS.index(game["hands"][1]["dealer"]) + 1) % 4]
    for seat in sorted(set(SEATS) - {expected}):
        wrong = copy.deepcopy(game)
        wrong["hands"][2]["dealer"] = seat
        with pytest.raises(RecordError) as info:
            records.loads(json.dumps(wrong))
        assert str(info.value) == f"$.hands[2].dealer: must be {expected} (the deal passes left)"
    # after a passed-out hand, the same dealer deals again
    hands = [example("crowsnest-passed-out"), example("crowsnest-made")]
    hands[0]["dealer"] = "N"
    assert hands[1]["dealer"] == "N"
    hands[1]["dealer"] = "E"
    passed = {"format": "rook-game/1", "variant": "crowsnest", "hands": hands}
    with pytest.raises(RecordError) as info:
        records.loads(json.dumps(passed))
    assert str(info.value) == "$.hands[1].dealer: must be N (same dealer after a passed-out hand)"


def test_read_record_reads_no_more_than_its_cap(tmp_path):
    """`read_record` with a cap refuses a longer file after reading cap + 1 bytes (the app's Load uses 1 MB)."""
    from rookcore.cli import read_record

    path = tmp_path / "big.json"
    path.write_text(example_text("crowsnest-made") + " " * 5000)
    with pytest.raises(records.RecordError, match="larger than"):
        read_record(str(path), 2000)
    assert read_record(str(path)).variant == "crowsnest"  # the CLI's cap (64 MB) takes it


@pytest.mark.parametrize("text, message", [
    ("-7", "a whole number ≥ 0, not '-7'"), ("abc", "a whole number ≥ 0, not 'abc'"),
    ("x" * 50, "a whole number ≥ 0, not 'xxxxxxxxxxxxxxxxxxxx'… (50 characters)"),
    ("9" * 5000, "a whole number ≥ 0 of at most 4,300 digits, not '99999999999999999999'… (5,000 characters)")])
def test_read_seed_refuses_in_words(text, message):
    """One reader of typed seeds (``--seed``, ``?deal=``): the digit limit is named only for a number too long."""
    with pytest.raises(ValueError) as caught:
        records.read_seed(text)
    assert str(caught.value) == message
    assert records.read_seed(" 42 ") == 42 and records.read_seed("9" * 50) == int("9" * 50)
