"""Hand and game records: ``rook-hand/1`` and ``rook-game/1`` (record-format.md).

Verbs follow the json module: `loads`/`load` read and validate (JSON Schema in
``rookcore/schema/`` plus a move-by-move replay), `dumps`/`dump` write. A round
trip is exact up to key order. `score_report` gives the ``score`` command's output.
"""
from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import IO, Any, Iterator

from .actions import PASS, Action, Discard, NameTrump, Play, bid
from .cards import Card, CardError, first_repeat
from .game import game_winner
from .hand import SEATS, TEAMS, DealError, HandState, IllegalAction, Phase
from .rules import Rules, RulesError, get_rules

HAND_FORMAT = "rook-hand/1"
GAME_FORMAT = "rook-game/1"
MAX_RECORD_BYTES = 1_000_000
STEP_KEY = re.compile(r"0|[1-9][0-9]*")
"""A ``marks`` key: a step number in canonical form (no sign, space or leading zero), so no two keys name one step
(the schema's ``propertyNames`` pattern; use it with ``fullmatch``, where Python's ``$`` would let "9\\n" through)."""
MAX_STEP_DIGITS = 9
"""Digits of the longest ``marks`` key read as a number: a longer one is past the end of any hand."""


class RecordError(ValueError):
    """A record that is not valid: the message names the problem and where (JSON path or step)."""


@lru_cache(maxsize=None)
def schema(fmt: str) -> dict:
    """The JSON Schema (dict) shipped for ``fmt`` ("rook-hand/1" or "rook-game/1")."""
    name = fmt.replace("/", "-") + ".json"
    return json.loads(resources.files("rookcore.schema").joinpath(name).read_text("utf-8"))


def _jsonschema():
    # jsonschema imports rfc3987_syntax (when installed) only for the "iri" format checks, and that
    # module builds a grammar at import: seconds per CLI call. Our schemas use no formats, so skip it.
    sys.modules.setdefault("rfc3987_syntax", None)
    import jsonschema  # noqa: PLC0415

    return jsonschema


def _check_schema(doc: dict, fmt: str, where: str = "$") -> None:
    jsonschema = _jsonschema()
    validator = jsonschema.Draft202012Validator(schema(fmt))
    error = jsonschema.exceptions.best_match(validator.iter_errors(doc))
    if error is not None:
        path = _json_path(where, error.absolute_path)
        message = error.message
        if error.validator == "pattern" and error.validator_value == schema(HAND_FORMAT)["$defs"]["card"]["pattern"]:
            message = (f"{error.instance!r} is not a card name (a capital colour letter R, Y, G, B and 1-14, or "
                       "ROOK / CROW in any case)")
        elif error.validator == "enum" and error.json_path.endswith(".variant"):
            message = (f"unknown variant {error.instance!r} (known, in lower case: "
                       f"{', '.join(error.validator_value)})")
        elif "propertyNames" in error.relative_schema_path and list(error.absolute_path) == ["marks"]:
            raise RecordError(_bad_step_key(path, error.instance))
        raise RecordError(f"{path}: {message}")


def _json_path(where: str, parts) -> str:
    """The JSON path below ``where`` of the schema error's ``absolute_path`` parts (keys and list indexes), written
    as `_member` writes keys (``$.hands.N[9]``, ``$.marks.9``, ``$.marks["9 "]``): one style in every message."""
    path = where
    for part in parts:
        path = f"{path}[{part}]" if isinstance(part, int) else _member(path, str(part))
    return path


def _member(path: str, key: str) -> str:
    """The JSON path of member ``key`` of the object at ``path``: ``$.marks.09``, or ``$.marks["9\\n"]`` for a key
    that is not plain letters and digits (the error stays one line)."""
    return f"{path}.{key}" if re.fullmatch(r"[A-Za-z0-9_]+", key) else f"{path}[{json.dumps(key)}]"


def _bad_step_key(path: str, key: str) -> str:
    """The error of a ``marks`` key (at ``path``, the marks object) that is not a step number in canonical form."""
    return (f"{_member(path, key)}: not a step number: a mark's key is the step written \"0\" or without leading "
            f"zeros (\"9\", not \"09\"), so that no two keys name one step")


def _record_rules(variant: str, options: dict | None) -> Rules:
    """The `Rules` of a record's ``variant`` and ``options``; raises RecordError at ``$.variant`` or ``$.options``."""
    try:
        return get_rules(variant, options)
    except RulesError as e:
        where = "$.variant" if str(e).startswith(("unknown variant", "variant")) else "$.options"
        raise RecordError(f"{where}: {e}") from e


@dataclass
class HandRecord:
    """One hand as recorded (record-format.md "Hand record"). Cards keep their order as written.

    dealer: seat index; hands: 4 card lists (N, E, S, W); auction: ints and "pass";
    discard/trump/tricks: None when absent; comments: [{"step": int, "text": str}];
    marks: {step: "!"|"?"|"??"} annotation marks (an extension; see the schema); meta: free-form.
    """

    variant: str
    dealer: int
    hands: list[list[Card]]
    nest: list[Card]
    auction: list[int | str] = field(default_factory=list)
    options: dict | None = None
    discard: list[Card] | None = None
    trump: str | None = None
    tricks: list[list[Card]] | None = None
    comments: list[dict] | None = None
    marks: dict[int, str] | None = None
    meta: dict | None = None

    @property
    def rules(self) -> Rules:
        """The `Rules` value of this record's variant and options (raises RecordError if unknown)."""
        return _record_rules(self.variant, self.options)

    def actions(self) -> list[Action]:
        """The engine actions in step order: calls, discard (one step), trump (one step), cards."""
        acts: list[Action] = [PASS if c == "pass" else bid(c) for c in self.auction]
        if self.discard is not None:
            acts.append(Discard(self.discard))
        if self.trump is not None:
            acts.append(NameTrump(self.trump))
        for trick in self.tricks or ():
            acts.extend(Play(c) for c in trick)
        return acts

    def initial_state(self) -> HandState:
        """The hand as dealt (before the first call). Raises RecordError for a bad deal."""
        try:
            return HandState(self.rules, self.dealer, self.hands, self.nest)
        except DealError as e:
            raise RecordError(f"$.{e.part}: {e}") from e

    def states(self) -> Iterator[HandState]:
        """Yield the state before step 0, then after each step (clones). Raises RecordError at a bad step."""
        state = self.initial_state()
        yield state.clone()
        for step, action in enumerate(self.actions()):
            _apply_step(state, step, action, self)
            yield state.clone()

    def replay(self, upto: int | None = None) -> HandState:
        """The state after the first ``upto`` steps (all steps if None). Raises RecordError at a bad step."""
        state = self.initial_state()
        for step, action in enumerate(self.actions()[:upto]):
            _apply_step(state, step, action, self)
        return state

    def comment_at(self, step: int) -> str:
        """Comments attached to ``step`` joined by newlines ("" if none)."""
        return "\n".join(c["text"] for c in self.comments or () if c["step"] == step)

    def to_json(self) -> dict:
        """The record as a JSON-ready dict in record-format.md key order; absent fields stay absent."""
        name = self.rules.card_name
        doc: dict[str, Any] = {"format": HAND_FORMAT, "variant": self.variant}
        if self.options is not None:
            doc["options"] = self.options
        doc["dealer"] = SEATS[self.dealer]
        doc["hands"] = {SEATS[s]: [name(c) for c in self.hands[s]] for s in range(4)}
        doc["nest"] = [name(c) for c in self.nest]
        doc["auction"] = list(self.auction)
        if self.discard is not None:
            doc["discard"] = [name(c) for c in self.discard]
        if self.trump is not None:
            doc["trump"] = self.trump
        if self.tricks is not None:
            doc["tricks"] = [[name(c) for c in t] for t in self.tricks]
        if self.comments is not None:
            doc["comments"] = self.comments
        if self.marks is not None:
            doc["marks"] = {str(k): v for k, v in sorted(self.marks.items())}
        if self.meta is not None:
            doc["meta"] = self.meta
        return doc

    @classmethod
    def from_state(cls, state: HandState, comments: list[dict] | None = None, meta: dict | None = None,
                   variant: str | None = None) -> "HandRecord":
        """Record a (finished or unfinished) `HandState`: its deal and every action so far."""
        rules = state.rules
        rec = cls(variant=variant or rules.variant, dealer=state.dealer,
                  hands=[sorted(h) for h in state.dealt], nest=sorted(state.dealt_nest),
                  options=dict(rules.options) or None, comments=comments, meta=meta)
        for _seat, action, _saved in state.history:
            if isinstance(action, Discard):
                rec.discard = sorted(action.cards)
            elif isinstance(action, NameTrump):
                rec.trump = action.colour
            elif isinstance(action, Play):
                rec.tricks = rec.tricks or []
                if not rec.tricks or len(rec.tricks[-1]) == 4:
                    rec.tricks.append([])
                rec.tricks[-1].append(action.card)
            else:
                rec.auction.append(action.notation())
        return rec


def _apply_step(state: HandState, step: int, action: Action, record: HandRecord) -> None:
    try:
        state.apply(action)
    except IllegalAction as e:
        raise RecordError(f"step {step}: {e}") from e


@dataclass
class GameRecord:
    """A game (record-format.md "Game record"): hand records in order, the running score and the winner."""

    variant: str
    hands: list[HandRecord]
    options: dict | None = None
    score: dict | None = None
    winner: str | None = None
    has_winner: bool = False
    meta: dict | None = None

    def to_json(self) -> dict:
        """The record as a JSON-ready dict; absent fields stay absent."""
        doc: dict[str, Any] = {"format": GAME_FORMAT, "variant": self.variant}
        if self.options is not None:
            doc["options"] = self.options
        doc["hands"] = [h.to_json() for h in self.hands]
        if self.score is not None:
            doc["score"] = self.score
        if self.has_winner:
            doc["winner"] = self.winner
        if self.meta is not None:
            doc["meta"] = self.meta
        return doc


# ----- reading -----------------------------------------------------------------
def quoted(text: str, limit: int = 40) -> str:
    """``text`` quoted for a one-line message: its repr, or when longer than ``limit`` characters its first 20
    characters' repr, "…" and its length (e.g. ``'99999999999999999999'… (5,000 characters)``)."""
    return repr(text) if len(text) <= limit else f"{text[:20]!r}… ({len(text):,} characters)"


def read_seed(text: str) -> int:
    """A deal or game seed typed as text (``--seed``, the app's ``?deal=``): a whole number ≥ 0 (int). Python's
    random seeds with the absolute value, so -7 would silently replay seed 7. Raises ValueError ("a whole number ≥ 0,
    not '-7'"; naming Python's 4,300-digit limit for a longer number) otherwise."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        limit = " of at most 4,300 digits" if text.strip().isdecimal() else ""  # digits only, yet refused: too many
        raise ValueError(f"a whole number ≥ 0{limit}, not {quoted(text)}")
    return value


def json_problem(error: Exception) -> str:
    """One line saying why ``json.loads`` refused a text (``error``: the ValueError or RecursionError it raised):
    the decoder's own message (at most 200 characters), or in words for an integer of more than Python's 4,300
    digits and for nesting too deep to read."""
    text = str(error)
    if "integer string conversion" in text:
        return "a number in it has more than 4,300 digits"
    if isinstance(error, RecursionError):
        return "arrays or objects nested too deeply to read"
    return text[:200] or type(error).__name__


def loads(text: str | bytes, max_bytes: int = MAX_RECORD_BYTES) -> HandRecord | GameRecord:
    """Parse and fully validate a hand or game record (schema, deal, every step legal).

    ``text``: the JSON text (str, or bytes in UTF-8); ``max_bytes``: the longest text accepted (characters or
    bytes; `MAX_RECORD_BYTES` by default, the app's upload limit). Raises RecordError with one line naming the
    problem and where.
    """
    if len(text) > max_bytes:
        raise RecordError(f"record is larger than {max_bytes / 1_000_000:g} MB")
    if not text.strip():
        raise RecordError("not JSON: the file is empty")
    try:
        doc = json.loads(text)
    except UnicodeDecodeError as e:
        raise RecordError(f"not JSON: not a UTF-8 text file (byte {e.start} cannot be read as text)") from e
    except (ValueError, RecursionError) as e:  # JSONDecodeError, over-long integers, deep nesting
        raise RecordError(f"not JSON: {json_problem(e)}") from e
    try:  # a \ud800 escape decodes to a lone surrogate, which no UTF-8 file (and no saved record) can hold
        json.dumps(doc, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as e:
        raise RecordError(f"not valid text: an unpaired surrogate escape (\\u{ord(e.object[e.start]):04x}) is not "
                          "a character") from e
    return from_json(doc)


def load(fp: IO) -> HandRecord | GameRecord:
    """`loads` on the contents of an open file."""
    return loads(fp.read())


def from_json(doc: Any) -> HandRecord | GameRecord:
    """Validate a decoded JSON document and return its record. Raises RecordError."""
    if not isinstance(doc, dict) or "format" not in doc:
        raise RecordError("not a Rook record: expected a JSON object with \"format\": \"rook-hand/1\" or \"rook-game/1\"")
    if doc["format"] == GAME_FORMAT:
        return _game_from_json(doc)
    if doc["format"] != HAND_FORMAT:
        raise RecordError(f"$.format: unknown format {doc['format']!r} (expected {HAND_FORMAT!r} or {GAME_FORMAT!r})")
    record = _hand_from_json(doc, "$")
    _check_consistency(record, "$")
    return record


def _hand_from_json(doc: dict, where: str) -> HandRecord:
    _check_schema(doc, HAND_FORMAT, where)
    record = HandRecord(variant=doc["variant"], dealer=SEATS.index(doc["dealer"]),
                        hands=[], nest=[], auction=list(doc["auction"]), options=doc.get("options"),
                        trump=doc.get("trump"), comments=doc.get("comments"), meta=doc.get("meta"))
    try:
        rules = record.rules
    except RecordError as e:
        raise RecordError(f"{where}{str(e)[1:]}") from e
    record.hands = [_cards(doc["hands"][s], rules, f"{where}.hands.{s}", once=True) for s in SEATS]
    record.nest = _cards(doc["nest"], rules, f"{where}.nest", once=True)
    if "discard" in doc:
        record.discard = _cards(doc["discard"], rules, f"{where}.discard", once=True)
    if "tricks" in doc:
        record.tricks = [_cards(t, rules, f"{where}.tricks[{i}]") for i, t in enumerate(doc["tricks"])]
    if "marks" in doc:
        record.marks = _marks(doc["marks"], f"{where}.marks")
    return record


def _marks(marks: dict[str, str], where: str) -> dict[int, str]:
    """The ``marks`` object at JSON path ``where`` (schema-checked) by step number. Raises RecordError for a key
    that is not a step number in canonical form (`STEP_KEY`; the schema's pattern lets a final newline through),
    so two keys cannot name one step, and for one too long to be a step of any hand."""
    steps: dict[int, str] = {}
    for key, mark in marks.items():
        if not STEP_KEY.fullmatch(key):
            raise RecordError(_bad_step_key(where, key))
        if len(key) > MAX_STEP_DIGITS:  # int() would refuse a key of thousands of digits
            raise RecordError(f"{where}.{key}: step number too large: past the last action of the hand")
        steps[int(key)] = mark
    return steps


def _cards(texts: list[str], rules: Rules, where: str, once: bool = False) -> list[Card]:
    """The cards of a record's card list at JSON path ``where``; with ``once``, a card listed twice is an error
    (a hand, the nest and the discard are sets of cards: rules.md §5, "every card ... dealt exactly once")."""
    cards: list[Card] = []
    for i, text in enumerate(texts):
        try:
            cards.append(rules.parse_card(text))
        except (CardError, RulesError) as e:
            raise RecordError(f"{where}[{i}]: {e}") from e
    twice = first_repeat(cards) if once else None
    if twice is not None:
        raise RecordError(f"{where}[{twice}]: {rules.card_name(cards[twice])} is listed twice")
    return cards


def _check_consistency(record: HandRecord, where: str) -> None:
    """Replay the record step by step and check the parts fit together (raises RecordError)."""
    rules = record.rules
    prefix = "" if where == "$" else f"{where}: "
    if record.discard is not None and not rules.nest_size:
        raise RecordError(f"{where}.discard: {rules.title} has no nest, so a record has no discard")
    for i, trick in enumerate(record.tricks or ()):  # before the replay, which sees the cards but not the tricks
        if len(trick) < 4 and i != len(record.tricks) - 1:
            raise RecordError(f"{where}.tricks[{i}]: a trick before the last must have 4 cards, this one has "
                              f"{len(trick)}")
    state = record.initial_state()
    for step, action in enumerate(record.actions()):
        if state.phase is Phase.DISCARD and isinstance(action, (NameTrump, Play)):
            raise RecordError(f"{prefix}step {step}: the declarer's discard is missing before "
                              f"{'trump' if isinstance(action, NameTrump) else 'the first card'}")
        if state.phase is Phase.TRUMP and isinstance(action, Play):
            raise RecordError(f"{prefix}step {step}: trump is missing before the first card")
        try:
            state.apply(action)
        except IllegalAction as e:
            raise RecordError(f"{prefix}step {step}: {e}") from e
    for i, c in enumerate(record.comments or ()):
        if c["step"] > len(record.actions()):
            raise RecordError(f"{where}.comments[{i}].step: step {c['step']} is past the end of the hand")
    for step in sorted(record.marks or ()):  # a mark is on an action: steps 0 .. actions - 1
        if step >= len(record.actions()):
            raise RecordError(f"{where}.marks.{step}: step {step} is past the last action of the hand")


def _game_from_json(doc: dict) -> GameRecord:
    _check_schema(doc, GAME_FORMAT)
    hands = []
    game_rules = _record_rules(doc["variant"], doc.get("options"))
    for i, h in enumerate(doc["hands"]):
        rec = _hand_from_json(h, f"$.hands[{i}]")
        if hands:  # before the replay: with the wrong dealer, the calls and cards go to the wrong seats
            _check_dealer(hands[-1], rec, i)
        _check_consistency(rec, f"$.hands[{i}]")
        if rec.rules != game_rules:  # the same rules however written (an alias, a default spelt out)
            raise RecordError(f"$.hands[{i}]: variant and options must give the game's rules "
                              f"({_rules_text(game_rules)}), not {_rules_text(rec.rules)}")
        hands.append(rec)
    game = GameRecord(variant=doc["variant"], hands=hands, options=doc.get("options"), score=doc.get("score"),
                      winner=doc.get("winner"), has_winner="winner" in doc, meta=doc.get("meta"))
    _check_game(game)
    return game


def _rules_text(rules: Rules) -> str:
    """A rule set and its options for an error message, e.g. 'CrowsNest, options {"target": 500}'."""
    options = dict(rules.options)
    return rules.title + (f", options {json.dumps(options)}" if options else "")


def _check_dealer(prev: HandRecord, rec: HandRecord, i: int) -> None:
    """Hand ``i`` of a game (``rec``, after ``prev``) must be dealt by the seat left of the last dealer, or by the
    same dealer after a passed-out hand (record-format.md "Game record"; rules.md §1.2). Raises RecordError at
    ``$.hands[i].dealer``. Called before hand ``i`` is replayed, whose errors would only be a consequence."""
    passed = prev.auction == ["pass"] * 4
    expected = prev.dealer if passed else (prev.dealer + 1) % 4
    if rec.dealer != expected:
        raise RecordError(f"$.hands[{i}].dealer: must be {SEATS[expected]} "
                          f"({'same dealer after a passed-out hand' if passed else 'the deal passes left'})")


def _check_game(game: GameRecord) -> None:
    """Running score and winner must follow the rules (rules.md §1.8, "Game end"); no hand after the game is won.
    (The dealer sequence is checked hand by hand as the game is read: `_check_dealer`.)"""
    totals, winner = [0, 0], None
    for i, rec in enumerate(game.hands):
        if winner is not None:
            raise RecordError(f"$.hands[{i}]: the game was already won after hand {i - 1}")
        state = rec.replay()
        if not state.is_over:
            if i != len(game.hands) - 1:
                raise RecordError(f"$.hands[{i}]: only the last hand of a game may be unfinished")
            continue
        ns, ew = state.score()
        totals = [totals[0] + ns, totals[1] + ew]
        if not state.passed_out:
            win = game_winner(totals, rec.rules.target)
            winner = None if win is None else TEAMS[win]
    if game.score is not None and game.score != {"NS": totals[0], "EW": totals[1]}:
        raise RecordError(f"$.score: the hands add up to NS {totals[0]}, EW {totals[1]}, not "
                          f"NS {game.score['NS']}, EW {game.score['EW']}")
    if game.has_winner and game.winner != winner:
        raise RecordError(f"$.winner: the winner is {winner!r} by the rules, not {game.winner!r}")


# ----- writing -----------------------------------------------------------------
def dumps(record: HandRecord | GameRecord, indent: int | None = 1) -> str:
    """The record as JSON text (UTF-8 safe, ``indent`` spaces)."""
    return json.dumps(record.to_json(), indent=indent, ensure_ascii=False)


def dump(record: HandRecord | GameRecord, fp: IO, indent: int | None = 1) -> None:
    """Write `dumps(record)` to an open text file, with a final newline."""
    fp.write(dumps(record, indent) + "\n")


def save(record: HandRecord | GameRecord, path: str | os.PathLike) -> str:
    """Write ``record`` (`dump`) to the file ``path`` (str or path-like), creating its parent folders; returns the
    path as a str. Raises ValueError for an empty path, a folder, a NUL character or a file where a folder on the
    way must be, OSError if the file cannot be written."""
    path = os.fspath(path)
    path = path.strip() if isinstance(path, str) else path
    if not path:
        raise ValueError("enter a file name to save to")
    if "\x00" in path:
        raise ValueError("the file name contains a NUL character")
    if os.path.isdir(path):
        raise ValueError(f"{path} is a folder: enter a file name")
    folder = os.path.dirname(path)
    blocker = _file_in_the_way(folder)
    if blocker:
        raise ValueError(f"{path}: cannot save there: {blocker} is a file, not a folder")
    if folder:
        os.makedirs(folder, exist_ok=True)
    with open(path, "w", encoding="utf-8") as fp:
        dump(record, fp)
    return path


def _file_in_the_way(folder: str) -> str | None:
    """The first existing non-folder on the way to ``folder`` (which `save` would have to create), else None."""
    while folder and not os.path.isdir(folder):
        if os.path.lexists(folder):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return None


def game_record(hands: list[HandState], rules: Rules, meta: dict | None = None) -> GameRecord:
    """A `GameRecord` of played hands in order, with the running score and winner (None if unfinished)."""
    records = [HandRecord.from_state(h) for h in hands]
    totals, winner = [0, 0], None
    for h in hands:
        if h.is_over:
            ns, ew = h.score()
            totals = [totals[0] + ns, totals[1] + ew]
            if not h.passed_out:
                win = game_winner(totals, rules.target)
                winner = None if win is None else TEAMS[win]
    return GameRecord(variant=rules.variant, hands=records, options=dict(rules.options) or None,
                      score={"NS": totals[0], "EW": totals[1]}, winner=winner, has_winner=True, meta=meta)


# ----- the score command's report ------------------------------------------------
def score_report(record: HandRecord | GameRecord) -> dict:
    """The ``score`` command's JSON object for a hand record (record-format.md "Commands").

    For a game record: {"variant", "hands": [report per hand], "score", "winner"}.
    """
    if isinstance(record, GameRecord):
        reports = [score_report(h) for h in record.hands]
        totals = [sum(r["score"]["NS"] for r in reports if "score" in r),
                  sum(r["score"]["EW"] for r in reports if "score" in r)]
        rules = get_rules(record.variant, record.options)
        win = None
        running = [0, 0]
        for r in reports:
            if "score" in r and not r.get("passed_out"):
                running = [running[0] + r["score"]["NS"], running[1] + r["score"]["EW"]]
                w = game_winner(running, rules.target)
                win = None if w is None else TEAMS[w]
        return {"variant": record.variant, "hands": reports, "score": {"NS": totals[0], "EW": totals[1]},
                "winner": win}
    state = record.replay()
    return hand_report(state, record.variant)


def hand_report(state: HandState, variant: str | None = None) -> dict:
    """Score report (record-format.md "Commands", ``score``) of a `HandState`, finished or not: a dict of JSON
    values. ``variant``: the name to report (default ``state.rules.variant``). An unfinished hand has
    ``"complete": false``, the fields known so far and, while a trick is being played, ``"current_trick"``:
    {"leader": seat, "cards": [cards played to it so far]}. Raises nothing."""
    rules = state.rules
    variant = variant or rules.variant
    if state.passed_out:
        return {"variant": variant, "passed_out": True, "score": {"NS": 0, "EW": 0}}
    report: dict[str, Any] = {"variant": variant}
    if state.phase is not Phase.AUCTION:
        report["declarer"] = SEATS[state.declarer]
    if state.high_bid is not None:
        report["bid"] = state.high_bid
    if state.trump is not None:
        report["trump"] = state.trump
    name = rules.card_name
    report["tricks"] = [{"leader": SEATS[t.leader], "cards": [name(c) for c in t.cards],
                         "winner": SEATS[t.winner], "points": t.points} for t in state.tricks]
    if state.tricks:
        report["tricks_won"] = {"NS": state.tricks_won[0], "EW": state.tricks_won[1]}
    if not state.is_over:
        if state.trick:
            report["current_trick"] = {"leader": SEATS[state.trick_leader], "cards": [name(c) for c in state.trick]}
        report["captured"] = {"NS": state.captured[0], "EW": state.captured[1]}
        report["complete"] = False
        return report
    report["nest_points"] = rules.points_of(state.nest)
    report["last_trick"] = TEAMS[state.tricks[-1].winner & 1]
    report["tricks_won"] = report.pop("tricks_won")
    report["captured"] = {"NS": state.captured[0], "EW": state.captured[1]}
    report["made"] = bool(state.made)
    ns, ew = state.score()
    report["score"] = {"NS": ns, "EW": ew}
    return report
