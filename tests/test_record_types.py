"""Every field of both record schemas given a value of each JSON type it does not allow (issue 31 item 5).

The cases are made from the shipped schemas (``rookcore/schema/rook-hand-1.json``, ``rook-game-1.json``): a valid
hand record and a valid game record holding every field the schemas name (``options``, ``discard``, ``trump``,
``comments``, the ``marks`` extension, ``meta``; a game's ``score`` and ``winner``) are walked member by member and
item by item (an array's first and last item), nested fields included (a game's hands are walked as hand records),
and each place gets a value of every JSON type (null, boolean, integer, non-integer number, string, array, object)
that the schema does not allow there. The documented options (README "Command line": ``bird``, ``target``,
``first_lead``) are walked too, their types written here since the schema leaves ``options`` open.

Each bad record must be refused by `records.loads` with `records.RecordError`, and by the real command line's
``score`` and ``analyze`` (`rookcore.cli.main` in-process, its stdout/stderr captured: hundreds of cases; and a few
as real subprocesses) with exit 2, nothing on stdout and one line of at most 300 characters on stderr, no traceback,
naming the field or a part that holds it. Before the fix, ``comments`` given as an object made both commands print
a traceback and exit 1.
"""
from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rookcore import cli, records
from rookcore.actions import PASS
from rookcore.examples import example_text
from rookcore.hand import HandState
from rookcore.rules import get_rules

ROOT = Path(__file__).resolve().parent.parent
LINE = records.MAX_MESSAGE_CHARS

OPTION_TYPES = {"bird": {"boolean"}, "target": {"integer"}, "first_lead": {"string"}}
"""The documented options of the base record's rule set (CrowsNest) and the JSON type each takes (rules.py
``with_options``); the schema itself says only that ``options`` is an object."""


def json_type(value) -> str:
    """The JSON Schema type name of a decoded JSON value ("integer" for an int, "number" for a float)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    return {str: "string", list: "array", dict: "object"}[type(value)]


def wrong_values(original) -> dict[str, list]:
    """The candidate values of each JSON type for a place holding ``original``: empty and non-empty containers
    (the non-empty ones wrap the original value, a likely confusion)."""
    return {"null": [None], "boolean": [True, False], "integer": [7], "number": [2.5], "string": ["x"],
            "array": [[], [copy.deepcopy(original)]], "object": [{}, {"step": 0, "text": "x"},
                                                                   {"0": copy.deepcopy(original)}]}


def resolve(node: dict | None, root: dict) -> dict | None:
    """``node`` with its ``$ref`` (``#/$defs/...``) followed."""
    while node is not None and "$ref" in node:
        node = root["$defs"][node["$ref"].rsplit("/", 1)[1]]
    return node


def allowed_types(node: dict | None, root: dict) -> set[str] | None:
    """The JSON types the schema ``node`` allows (None: any), from ``type``, ``const``, ``enum`` and ``anyOf``."""
    node = resolve(node, root)
    if node is None:
        return None
    found: set[str] | None = None

    def narrow(types: set[str]) -> None:
        nonlocal found
        found = types if found is None else found & types

    if "type" in node:
        narrow({node["type"]} if isinstance(node["type"], str) else set(node["type"]))
    if "const" in node:
        narrow({json_type(node["const"])})
    if "enum" in node:
        narrow({json_type(v) for v in node["enum"]})
    if "anyOf" in node:
        parts = [allowed_types(sub, root) for sub in node["anyOf"]]
        narrow(set().union(*parts) if all(p is not None for p in parts) else {"null", "boolean", "integer", "number",
                                                                               "string", "array", "object"})
    return found


def is_allowed(kind: str, types: set[str]) -> bool:
    """True if a value of JSON type ``kind`` is allowed where ``types`` are (an integer is also a number)."""
    return kind in types or (kind == "integer" and "number" in types)


def child_schema(node: dict | None, key, root: dict) -> dict | None:
    """The schema of member ``key`` (str) or item ``key`` (int) of a value with schema ``node`` (None: any)."""
    node = resolve(node, root)
    if node is None:
        return None
    if isinstance(key, int):
        return node.get("items")
    props = node.get("properties", {})
    if key in props:
        return props[key]
    extra = node.get("additionalProperties")
    return extra if isinstance(extra, dict) else None


def places(value, node: dict | None, root: dict, path: tuple = ()):
    """Yield (path, schema types or None) for ``value`` and every member and first/last item below it."""
    yield path, allowed_types(node, root)
    if isinstance(value, dict):
        for key, item in value.items():
            yield from places(item, child_schema(node, key, root), root, path + (key,))
    elif isinstance(value, list):
        for index in sorted({0, len(value) - 1} if value else set()):
            yield from places(value[index], child_schema(node, index, root), root, path + (index,))


def get(doc, path: tuple):
    """The part of ``doc`` at ``path`` (keys and indexes)."""
    for key in path:
        doc = doc[key]
    return doc


def with_value(doc, path: tuple, value):
    """A deep copy of ``doc`` with the part at ``path`` replaced by ``value`` (the whole document if ``path`` is
    empty)."""
    if not path:
        return copy.deepcopy(value)
    doc = copy.deepcopy(doc)
    get(doc, path[:-1])[path[-1]] = copy.deepcopy(value)
    return doc


def json_path(path: tuple) -> str:
    """``path`` written as the records module writes a JSON path (``$.hands.N[0]``, ``$.marks.0``)."""
    text = "$"
    for key in path:
        text += f"[{key}]" if isinstance(key, int) else f".{key}"
    return text


def base_hand() -> dict:
    """The bundled CrowsNest hand with every optional field of rook-hand/1: options, marks (and its comments,
    discard, trump, tricks, meta)."""
    doc = json.loads(example_text("crowsnest-made"))
    doc["options"] = {"bird": True, "target": 300, "first_lead": "left-of-dealer"}
    doc["marks"] = {"0": "!", "12": "??"}
    doc["comments"].append({"step": 12, "text": "A costly card.", "by": "teacher"})
    return doc


def base_game() -> dict:
    """A rook-game/1 record with every field: the base hand, then a passed-out hand dealt by E; score and winner."""
    first = base_hand()
    state = HandState.deal(get_rules(), 1, 5)
    for _ in range(4):
        state.apply(PASS)
    second = records.HandRecord.from_state(state).to_json()
    score = records.score_report(records.from_json(copy.deepcopy(first)))["score"]
    return {"format": "rook-game/1", "variant": "crowsnest", "options": dict(first["options"]),
            "hands": [first, second], "score": score, "winner": None, "meta": {"event": "class"}}


def cases() -> list[tuple[str, str]]:
    """(id, JSON text) of every bad record: each place of both base records with each JSON type not allowed."""
    hand_schema, game_schema = records.schema(records.HAND_FORMAT), records.schema(records.GAME_FORMAT)
    hand, game = base_hand(), base_game()
    found: dict[str, str] = {}

    def add(doc: dict, prefix: tuple, node: dict, root: dict, skip_nested_hands: bool = False) -> None:
        for path, types in places(get(doc, prefix), node, root, prefix):
            if skip_nested_hands and len(path) > 2 and path[0] == "hands":
                continue  # a game's hands: walked as hand records below
            if path[len(prefix):len(prefix) + 1] == ("options",) and len(path) == len(prefix) + 2:
                types = OPTION_TYPES[path[-1]]
            if types is None:
                continue
            original = get(doc, path)
            for kind, values in wrong_values(original).items():
                if is_allowed(kind, types):
                    continue
                for n, value in enumerate(values):
                    found[f"{doc['format'][5:9]}-{json_path(path)}-{kind}{n or ''}"] = json.dumps(
                        with_value(doc, path, value))

    add(hand, (), hand_schema, hand_schema)
    add(game, (), game_schema, game_schema, skip_nested_hands=True)
    for i in range(len(game["hands"])):
        add(game, ("hands", i), hand_schema, hand_schema)
    return sorted(found.items())


CASES = cases()


def test_the_base_records_are_valid_and_hold_every_field():
    """The walk starts from valid records that hold every member the schemas name (else a field goes untested)."""
    for doc, fmt in ((base_hand(), records.HAND_FORMAT), (base_game(), records.GAME_FORMAT)):
        records.loads(json.dumps(doc))
        assert set(doc) == set(records.schema(fmt)["properties"])
    assert set(base_game()["hands"][0]) == set(records.schema(records.HAND_FORMAT)["properties"])
    ids = {name for name, _ in CASES}
    for must in ("hand-$.comments-object", "hand-$.marks.0-integer", "hand-$.comments[1].step-number",
                 "hand-$.options.bird-string", "game-$.score.NS-boolean", "game-$.hands[0].comments-object",
                 "game-$.hands[1].auction[3]-null", "game-$.winner-object", "hand-$.hands.W[8]-array",
                 "hand-$.tricks[8][3]-null"):
        assert must in ids, must
    assert len(CASES) > 400


def names_where(line: str, case_id: str) -> bool:
    """True if the error ``line`` names the changed place (its JSON path) or a part that holds it."""
    path = case_id.split("-", 1)[1].rsplit("-", 1)[0]
    if path == "$":
        return line.startswith("not a Rook record")
    named = re.match(r"(\$[^\s:]*)", line)
    if not named:
        return False
    where = re.sub(r"\[\"?([^\]\"]*)\"?\]", r"[\1]", named[1])
    return path == where or path.startswith((where + ".", where + "["))


@pytest.mark.parametrize("case_id, text", CASES, ids=[name for name, _ in CASES])
def test_loads_refuses_each_wrong_type(case_id, text):
    with pytest.raises(records.RecordError) as refused:
        records.loads(text)
    message = str(refused.value)
    assert "\n" not in message and len(message) <= LINE
    assert names_where(message, case_id), message


@pytest.mark.parametrize("command", [["score"], ["analyze", "--budget", "1", "--max-seconds", "5"]],
                         ids=["score", "analyze"])
@pytest.mark.parametrize("case_id, text", CASES, ids=[name for name, _ in CASES])
def test_the_commands_refuse_each_wrong_type_in_one_line(case_id, text, command, tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    code = cli.main([command[0], str(path), *command[1:]])
    out, err = capsys.readouterr()
    assert code == cli.EXIT_BAD_INPUT, err
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1 and len(err) - 1 <= LINE, err
    assert "Traceback" not in err
    assert names_where(err, case_id), err


SUBPROCESS_CASES = ["hand-$.comments-object1", "hand-$.comments[0]-string", "game-$.hands[0].comments-object",
                    "hand-$.marks-array1", "game-$.score-array"]


@pytest.mark.parametrize("command", ["score", "analyze"])
@pytest.mark.parametrize("case_id", SUBPROCESS_CASES)
def test_the_real_command_refuses_in_one_line(case_id, command, tmp_path):
    """A few cases as a user runs them: ``python -m rookcore score|analyze FILE`` in its own process."""
    path = tmp_path / "bad.json"
    path.write_text(dict(CASES)[case_id], encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "rookcore", command, str(path)], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and len(done.stderr) - 1 <= LINE, done.stderr
    assert "Traceback" not in done.stderr
    assert names_where(done.stderr, case_id), done.stderr
