"""Strict, bounded input (issue 27 item 3): every class of bad record that ``score`` and ``analyze`` took or choked on
is refused with exit 2 and one short line, in bounded time; valid records of any size up to the limit are read in
time linear in their size; only regular files are opened.

The hostile inputs are made here (nothing big is committed). Each command test has a wall-clock bound against a
hang (pytest-timeout, ``func_only``: the making of the input is not timed; generous, since the suite runs on every
core at once) and a bound on the command's CPU seconds, which a loaded machine hardly changes (before the fix: a million calls took 17-30 s, a 10 MB game of passed-out hands
25-30 s, a named pipe blocked forever)."""
from __future__ import annotations

import copy
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from rookcore import records
from rookcore.actions import PASS
from rookcore.examples import example_text
from rookcore.hand import HandState
from rookcore.records import RecordError
from rookcore.rules import get_rules

ROOT = Path(__file__).resolve().parent.parent
LINE = records.MAX_MESSAGE_CHARS


def example() -> dict:
    """The bundled CrowsNest hand (a made contract) as a dict."""
    return json.loads(example_text("crowsnest-made"))


def passed_out_hand() -> dict:
    """A passed-out CrowsNest hand record (dealer N) as a dict."""
    state = HandState.deal(get_rules(), 0, 1)
    for _ in range(4):
        state.apply(PASS)
    return records.HandRecord.from_state(state).to_json()


def passed_out_game(size: int) -> str:
    """A valid game record of about ``size`` bytes: passed-out hands only (the same dealer deals every one)."""
    hand = passed_out_hand()
    count = size // len(json.dumps(hand))
    return json.dumps({"format": "rook-game/1", "variant": "crowsnest", "hands": [hand] * count,
                       "score": {"NS": 0, "EW": 0}, "winner": None})


def with_part(path: list, value) -> str:
    """The bundled hand with the part at ``path`` (keys and indexes) set to ``value``, as JSON text."""
    doc = example()
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return json.dumps(doc)


def newline_card() -> str:
    doc = example()
    doc["hands"]["N"][0] += "\n"
    return json.dumps(doc)


def duplicate_key() -> str:
    text = json.dumps(example())
    return text[:-1] + ', "variant": "dixie"}'  # Python's json kept the last: a Dixie hand, refused for its cards


def game_with_hostile_second_hand() -> str:
    hand = passed_out_hand()
    bad = copy.deepcopy(hand)
    bad["auction"] = ["pass"] * 1_000_000
    return json.dumps({"format": "rook-game/1", "variant": "crowsnest", "hands": [hand, bad]})


HOSTILE = {  # name: (maker of the file's text, words the one line must hold)
    "card-with-a-newline": (newline_card, r"$.hands.N[0]: 'R12\n' is not a card name"),
    "duplicate-key": (duplicate_key, "the key 'variant' is written twice in one object"),
    "huge-value": (lambda: with_part(["variant"], "R" * 10_000_000),
                   "$.variant: unknown variant 'RRRRRRRRRRRRRRRRRRRR'… (10,000,000 characters)"),
    "million-calls": (lambda: with_part(["auction"], [70] + ["pass"] * 1_000_000),
                      f"$.auction: 1,000,001 calls, at most {records.MAX_CALLS}"),
    "trick-of-a-million-cards": (lambda: with_part(["tricks", 0], ["R14"] * 1_000_000),
                                 "$.tricks[0]: 1,000,000 cards, at most 4"),
    "million-tricks": (lambda: with_part(["tricks"], [["R14", "R5", "R6", "R7"]] * 1_000_000),
                       f"$.tricks: 1,000,000 tricks, at most {records.MAX_HAND_CARDS}"),
    "game-with-a-million-calls-in-a-hand": (game_with_hostile_second_hand, "$.hands[1].auction: 1,000,000 calls"),
}


@pytest.fixture(scope="module")
def hostile_files(tmp_path_factory) -> dict[str, Path]:
    """Each `HOSTILE` record written to a file (made once for the module)."""
    folder = tmp_path_factory.mktemp("hostile")
    files = {}
    for name, (make, _words) in HOSTILE.items():
        files[name] = folder / f"{name}.json"
        files[name].write_text(make(), encoding="utf-8")
    return files


def run_cli(*args: str) -> tuple[subprocess.CompletedProcess, float]:
    """Run ``python -m rookcore ARGS`` from the project folder: (the completed process, its CPU seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = subprocess.run([sys.executable, "-m", "rookcore", *args], capture_output=True, text=True, cwd=ROOT,
                            timeout=120)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return result, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def assert_refused(result: subprocess.CompletedProcess, words: str) -> None:
    """Exit 2, nothing on stdout, one line on stderr of at most `LINE` characters holding ``words``."""
    assert result.returncode == 2, result.stderr[:500]
    assert result.stdout == ""
    line = result.stderr
    assert line.endswith("\n") and line.count("\n") == 1, line[:500]
    assert len(line.rstrip("\n")) <= LINE, line[:500]
    assert words in line, line


@pytest.mark.timeout(60, func_only=True)
@pytest.mark.parametrize("command", ["score", "analyze"])
@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_record_is_refused_at_once_in_one_short_line(hostile_files, name, command):
    result, cpu = run_cli(command, str(hostile_files[name]))
    assert_refused(result, HOSTILE[name][1])
    assert cpu < 4, f"{cpu:.1f} CPU seconds"


@pytest.mark.timeout(60, func_only=True)
def test_a_10_mb_game_of_passed_out_hands_is_scored_in_linear_time(tmp_path):
    """It took 25-30 s (JSON Schema checks of every hand); a plain check accepts a conforming hand at once."""
    path = tmp_path / "passed.json"
    path.write_text(passed_out_game(10_000_000))
    result, cpu = run_cli("score", str(path))
    assert result.returncode == 0, result.stderr[:500]
    report = json.loads(result.stdout)
    assert report["score"] == {"NS": 0, "EW": 0} and len(report["hands"]) > 20_000
    assert cpu < 10, f"{cpu:.1f} CPU seconds"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
@pytest.mark.timeout(60)  # against a hang (a blocked pipe waits forever), not a speed goal: the command starts Python
@pytest.mark.parametrize("command", ["score", "analyze"])
@pytest.mark.parametrize("kind", ["named pipe", "folder", "character device"])
def test_only_a_regular_file_is_opened(tmp_path, command, kind):
    """A named pipe given as FILE blocked forever (open waits for a writer); a folder and a device are refused too."""
    if kind == "named pipe":
        path = tmp_path / "pipe"
        os.mkfifo(path)
    elif kind == "folder":
        path = tmp_path
    else:
        path = Path("/dev/zero")
    result, _cpu = run_cli(command, str(path))
    assert_refused(result, f"{path}: cannot read: it is a {kind}, not a regular file")


# ----- the same classes in process (records.loads), with more variants --------------------------------------
@pytest.mark.timeout(5)
@pytest.mark.parametrize("card", ["R12\n", " R12", "R12 ", "\tR12", "r12", "R012", "R١٢", "CROW\n", "ＲＯＯＫ", "+R12"])
def test_a_card_must_be_written_exactly(card):
    doc = example()
    doc["hands"]["N"][0] = card
    with pytest.raises(RecordError) as info:
        records.loads(json.dumps(doc))
    assert str(info.value) == f"$.hands.N[0]: {card!r} is {records._NOT_A_CARD}"


@pytest.mark.parametrize("card", ["CROW", "crow", "Crow", "rOoK", "ROOK"])
def test_the_bird_is_read_in_any_case(card):
    doc = example()
    where = next((seat, i) for seat in "NESW" for i, c in enumerate(doc["hands"][seat]) if c == "CROW") \
        if any("CROW" in h for h in doc["hands"].values()) else None
    if where is None:
        doc["nest"] = [card if c == "CROW" else c for c in doc["nest"]]
        doc["discard"] = [card if c == "CROW" else c for c in doc.get("discard", [])]
    else:
        doc["hands"][where[0]][where[1]] = card
    records.loads(json.dumps(doc))


@pytest.mark.timeout(5)
@pytest.mark.parametrize("text, key", [
    ('{"format": "rook-hand/1", "format": "rook-hand/1"}', "format"),
    (json.dumps(example())[:-1] + ', "meta": {"a": 1, "a": 2}}', "a"),
    (json.dumps(example()).replace('"N": [', '"N": [], "N": ['), "N"),
])
def test_a_key_written_twice_is_refused(text, key):
    with pytest.raises(RecordError, match=f"the key '{key}' is written twice in one object"):
        records.loads(text)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(constant):
    with pytest.raises(RecordError, match=f"not JSON: {constant} is not a JSON number"):
        records.loads(json.dumps(example())[:-1] + f', "meta": {{"x": {constant}}}}}')


HUGE = "x" * 1_000_000
HUGE_VALUES = {  # where the value goes: a maker of the JSON text, and the cut value the message must hold
    "format": (lambda: with_part(["format"], HUGE), "'xxxxxxxxxxxxxxxxxxxx'… (1,000,000 characters)"),
    "dealer": (lambda: with_part(["dealer"], HUGE), "'xxxxxxxxxxxxxxxxxxxx'… (1,000,000 characters)"),
    "card": (lambda: with_part(["hands", "N", 0], HUGE),
             "$.hands.N[0]: 'xxxxxxxxxxxxxxxxxxxx'… (1,000,000 characters)"),
    "call": (lambda: with_part(["auction", 0], HUGE), "$.auction[0]"),
    "unknown-member": (lambda: with_part([HUGE], 1),
                       "'xxxxxxxxxxxxxxxxxxxx'… (1,000,000 characters) was unexpected"),
    "option-name": (lambda: with_part(["options"], {HUGE: 1}), "(1,000,000 characters)"),
    "mark-key": (lambda: with_part(["marks"], {HUGE: "!"}),
                 '$.marks["xxxxxxxxxxxxxxxxxxxx"… (1,000,000 characters)]'),
    "mark-digits": (lambda: with_part(["marks"], {"1" * 1_000_000: "!"}),
                    "(1,000,000 characters)]: step number too large"),
    "comment-text": (lambda: with_part(["comments"], [{"step": 0, "text": [HUGE]}]), "$.comments[0].text"),
    "bid": (lambda: with_part(["auction", 0], int("9" * 4000)), "cannot bid 99999999999999999999… (4,000 characters):"),
    "score": (lambda: json.dumps({"format": "rook-game/1", "variant": "crowsnest", "hands": [],
                                  "score": {"NS": int("9" * 4000), "EW": 0}}), "$.score"),
    "a-million-unknown-members": (lambda: json.dumps({**example(), **{f"k{i}": 0 for i in range(1_000_000)}}),
                                  "'k0', 'k1', 'k10' and 999,997 more were unexpected"),
}


@pytest.fixture
def made(request) -> str:
    """The JSON text that the test's parameter (a maker) makes, made before the timed test."""
    return request.param()


@pytest.mark.timeout(60, func_only=True)
@pytest.mark.parametrize("made, words", list(HUGE_VALUES.values()), ids=list(HUGE_VALUES), indirect=["made"])
def test_an_error_about_a_huge_value_is_one_short_line(made, words):
    with pytest.raises(RecordError) as info:
        records.loads(made, max_bytes=64_000_000)
    message = str(info.value)
    assert words in message and len(message) <= LINE and "\n" not in message, message


COUNTS = {  # part: (maker of the JSON text, words)
    "hand": (lambda: with_part(["hands", "N"], ["R5"] * 1_000_000), "$.hands.N: 1,000,000 cards, at most 14"),
    "nest": (lambda: with_part(["nest"], ["R5"] * 1_000_000),
             f"$.nest: 1,000,000 cards, at most {records.MAX_NEST_CARDS}"),
    "discard": (lambda: with_part(["discard"], ["R5"] * 1_000_000), "$.discard: 1,000,000 cards"),
    "marks": (lambda: with_part(["marks"], {str(i): "!" for i in range(1_000_000)}),
              f"1,000,000 marks, at most {records.MAX_STEPS}"),
    "hands-members": (lambda: with_part(["hands", "X"], []),
                      "$.hands: Additional properties are not allowed ('X' was unexpected)"),
}


@pytest.mark.timeout(60, func_only=True)
@pytest.mark.parametrize("made, words", list(COUNTS.values()), ids=list(COUNTS), indirect=["made"])
def test_a_part_larger_than_any_rule_set_allows_is_refused_before_it_is_read(made, words):
    with pytest.raises(RecordError) as info:
        records.loads(made, max_bytes=64_000_000)
    assert words in str(info.value) and len(str(info.value)) <= LINE


def million_comments(last: dict | None = None) -> str:
    """The bundled hand with a million comments (31 MB), and ``last`` after them."""
    doc = example()
    doc["comments"] = [{"step": 0, "text": "a note"}] * 1_000_000 + ([last] if last else [])
    return json.dumps(doc)


@pytest.mark.timeout(60, func_only=True)
@pytest.mark.parametrize("made", [million_comments], indirect=True)
def test_a_million_comments_are_read_in_linear_time(made):
    """No limit on comments (record-format.md has none; a step may have several): a plain check item by item."""
    assert len(records.loads(made, max_bytes=64_000_000).comments) == 1_000_000


@pytest.mark.timeout(60, func_only=True)
@pytest.mark.parametrize("made", [lambda: million_comments({"step": -1, "text": "x"})], indirect=True)
def test_a_bad_comment_after_a_million_is_named_in_the_schema_s_words(made):
    with pytest.raises(RecordError, match=r"^\$\.comments\[1000000\]\.step: -1 is less than the minimum of 0$"):
        records.loads(made, max_bytes=64_000_000)


def test_the_limits_come_from_the_rule_sets():
    """Buckeye with the 70 minimum has the most bids: 70..180 in steps of 5 (23), and four passes."""
    assert records.MAX_CALLS == 23 + 4
    assert records.MAX_HAND_CARDS == max(get_rules(v).hand_size for v in ("partnership", "dixie", "crowsnest"))


DATA = ROOT / "rookcore" / "data" / "records"


@pytest.mark.parametrize("path", sorted(p for p in DATA.glob("*.json") if not p.name.endswith(".expected.json")),
                         ids=lambda p: p.stem)
def test_every_bundled_record_takes_the_plain_check(path):
    """The plain schema check (`records._conforms`) accepts every bundled record, so none waits for jsonschema."""
    doc = json.loads(path.read_text())
    fmt = doc["format"]
    assert records._conforms({k: v for k, v in doc.items() if k != "comments"}, fmt)
    for hand in doc["hands"] if fmt == records.GAME_FORMAT else ():
        assert records._conforms({k: v for k, v in hand.items() if k != "comments"}, records.HAND_FORMAT)


def test_the_plain_check_is_never_looser_than_the_schema():
    """Whatever the plain check accepts, the shipped schema accepts (it only spares jsonschema's time)."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(records.schema(records.HAND_FORMAT))
    base = example()
    changes = [("variant", "Crowsnest"), ("variant", 1), ("dealer", "n"), ("dealer", ["N"]), ("trump", "R "),
               ("auction", [70.0]), ("auction", [True]), ("auction", ["Pass"]), ("tricks", [[]]),
               ("tricks", [["R5"] * 5]), ("marks", {"09": "!"}), ("marks", {"9": "x"}), ("meta", []),
               ("options", None), ("nest", "R5"), ("hands", {"N": [], "E": [], "S": []}), ("bogus", 1),
               ("discard", [1]), ("tricks", [["R5\n"]]), ("hands", {"N": [["R5"]], "E": [], "S": [], "W": []})]
    for key, value in changes:
        doc = {**base, key: value}
        if records._conforms(doc, records.HAND_FORMAT):
            assert validator.is_valid(doc), (key, value)
    assert records._conforms({k: v for k, v in base.items() if k != "comments"}, records.HAND_FORMAT)
