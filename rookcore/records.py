"""Hand and game records: ``rook-hand/1`` and ``rook-game/1`` (record-format.md).

Verbs follow the json module: `loads`/`load` read and validate (JSON Schema in
``rookcore/schema/`` plus a move-by-move replay), `dumps`/`dump` write. A round
trip is exact up to key order. `score_report` gives the ``score`` command's output.
"""
from __future__ import annotations

import heapq
import itertools
import json
import os
import re
import stat
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import IO, Any, Iterator

from .actions import PASS, Action, Discard, NameTrump, Play, bid
from .cards import Card, CardError, first_repeat
from .game import game_winner
from .hand import SEATS, TEAMS, DealError, HandState, IllegalAction, Phase
from .rules import VARIANTS, Rules, RulesError, get_rules

HAND_FORMAT = "rook-hand/1"
GAME_FORMAT = "rook-game/1"
MAX_RECORD_BYTES = 1_000_000
MAX_MESSAGE_CHARS = 300
"""The longest error message (characters): a `RecordError` is one line of at most this many characters, long values
in it cut with their length named (`one_line`)."""
CARD_NAME = re.compile(r"[RYGB](?:[1-9]|1[0-4])|[Cc][Rr][Oo][Ww]|[Rr][Oo][Oo][Kk]")
"""A card as record-format.md "Cards" writes it, exactly (use with ``fullmatch``): a capital colour letter and 1-14,
or the bird, CROW or ROOK in any case; no space or newline around it (the schema's pattern, read by Python's
``re.search``, would let "R14\n" through)."""
STEP_KEY = re.compile(r"0|[1-9][0-9]*")
"""A ``marks`` key: a step number in canonical form (no sign, space or leading zero), so no two keys name one step
(the schema's ``propertyNames`` pattern; use it with ``fullmatch``, where Python's ``$`` would let "9\\n" through)."""
MAX_STEP_DIGITS = 9
"""Digits of the longest ``marks`` key read as a number: a longer one is past the end of any hand."""


def _every_rule_set() -> list[Rules]:
    """Every rule set with each of its own option choices (rules.md §2), e.g. Buckeye with ``bid_min`` 70."""
    found = list(VARIANTS.values())
    for rules in VARIANTS.values():
        found += [rules.with_options({name: value}) for name, values in rules.option_choices.items()
                  for value in values]
    return found


MAX_CALLS = max(len(r.legal_bids(None)) for r in _every_rule_set()) + 4
"""The most calls an auction of any rule set can have: every bid once (each bid is higher than the last) and one
pass from each seat (a seat that passed is out: rules.md §1.2)."""
MAX_HAND_CARDS = max(r.hand_size for r in VARIANTS.values())
"""The most cards any rule set deals to one seat (and so the most tricks of a hand)."""
MAX_NEST_CARDS = max(r.nest_size for r in VARIANTS.values())
"""The most cards any rule set deals to the nest (and so the most a declarer puts back)."""
MAX_STEPS = MAX_CALLS + 2 + 4 * MAX_HAND_CARDS
"""The most steps (record-format.md "comments") a hand of any rule set has: calls, discard, trump, cards."""


class RecordError(ValueError):
    """A record that is not valid: the message names the problem and where (JSON path or step). The message is
    made one line of at most `MAX_MESSAGE_CHARS` characters (`one_line`), whatever value it quotes."""

    def __init__(self, message: str) -> None:
        """``message``: the problem in words (str); stored as `one_line` gives it."""
        super().__init__(one_line(str(message)))


_LINE_BREAKS = re.compile(r"[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
"""The characters at which ``str.splitlines`` breaks a line."""
_LONG_TOKEN = re.compile(r"\S{61,}")
"""A run of more than 60 characters without a space in a message: a value quoted whole (`one_line` cuts it)."""


def _cut_token(match: re.Match) -> str:
    """A long token of a message (``match``) as its first 20 characters, "…" and its length, its closing
    punctuation kept; a quoted one keeps its quotes, as `quoted` writes it
    (``'RRRRRRRRRRRRRRRRRRRR'… (10,000,000 characters)``)."""
    token = match[0]
    core = token.rstrip(",:;.)]")
    tail = token[len(core):]
    quote = core[:1] if core[:1] in ("'", '"') else ""
    if quote and len(core) > 1 and core.endswith(quote):
        inner = core[1:-1]
        return f"{quote}{inner[:20]}{quote}… ({len(inner):,} characters){tail}"
    return f"{core[:20]}… ({len(core):,} characters){tail}"


def one_line(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``text`` (an error message, str) as one line of at most ``limit`` characters (int, > 40): each line break
    written as its escape (``\\n``), each run of more than 60 characters without a space (a value quoted whole)
    cut to its first 20 characters with its length named (`_cut_token`), and what is still too long cut at
    ``limit`` with the total length named. Returns the str; raises nothing."""
    text = _LINE_BREAKS.sub(lambda m: json.dumps(m[0])[1:-1], text)
    if len(text) <= limit:
        return text
    text = _LONG_TOKEN.sub(_cut_token, text)
    if len(text) <= limit:
        return text
    tail = f"… ({len(text):,} characters in all)"
    return text[:limit - len(tail)] + tail


def brief(value: Any) -> str:
    """A JSON value for a one-line message: its repr when short, else a string's first 20 characters and its length
    (`quoted`), an integer's first 20 digits and its number of digits, or an array's / object's size. Raises
    nothing."""
    if isinstance(value, str):
        return quoted(value)
    if isinstance(value, list) and len(value) > 4:
        return f"an array of {len(value):,} items"
    if isinstance(value, dict) and len(value) > 4:
        return f"an object of {len(value):,} members"
    if type(value) is int and abs(value) >= 10 ** 40:
        try:
            digits = str(value)
        except ValueError:  # past Python's 4,300-digit limit (JSON text cannot hold one: `json_problem`)
            return "an integer of more than 4,300 digits"
        return f"{digits[:20]}… ({len(digits.lstrip('-')):,} digits)"
    return one_line(repr(value), 80)


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


@lru_cache(maxsize=None)
def _validator(fmt: str):
    """The jsonschema validator of ``fmt``'s schema (built once: building one takes milliseconds)."""
    jsonschema = _jsonschema()
    return jsonschema.Draft202012Validator(schema(fmt))


def _check_schema(doc: Any, fmt: str, where: str = "$") -> None:
    """Check ``doc`` (a decoded JSON value) against ``fmt``'s JSON Schema (``rookcore/schema/``); ``where``: its
    JSON path. Raises RecordError with the schema's first problem (jsonschema's ``best_match``, its path in our
    style, values cut: `one_line`).

    Time linear in the size of ``doc``: a plain check (`_conforms`) accepts a conforming document at once and only
    a document it does not accept goes to jsonschema, cut down first to a bounded part that holds its first problem
    (`_bounded`; the parts whose length `_check_sizes` does not bound: a hand's comments, checked here item by item
    in the schema's words, `_check_comments`, and a game's hands, of which only those up to the first that is not an
    object are kept). The plain check is stricter than the schema (never looser): what it refuses and jsonschema
    accepts (a bid written 70.0, a card "R14\\n") goes on to the checks after the schema, which refuse it in words."""
    comments = doc.get("comments") if fmt == HAND_FORMAT and type(doc) is dict else None
    if type(comments) is list:
        doc = {k: v for k, v in doc.items() if k != "comments"}
    if not _conforms(doc, fmt):
        _schema_error(_bounded(doc, fmt), fmt, where)
    if type(comments) is list:
        _check_comments(comments, f"{where}.comments")


def _schema_error(doc: Any, fmt: str, where: str) -> None:
    """Raise RecordError with jsonschema's first problem of ``doc`` against ``fmt``'s schema (``where``: its JSON
    path), if any; return None when jsonschema finds none."""
    jsonschema = _jsonschema()
    error = jsonschema.exceptions.best_match(_validator(fmt).iter_errors(doc))
    if error is None:
        return
    path = _json_path(where, error.absolute_path)
    message = error.message
    if isinstance(error.instance, str) and len(error.instance) > 40:  # the schema's messages quote it whole
        message = message.replace(repr(error.instance), brief(error.instance))
    if error.validator == "pattern" and error.validator_value == schema(HAND_FORMAT)["$defs"]["card"]["pattern"]:
        message = f"{brief(error.instance)} is {_NOT_A_CARD}"
    elif error.validator == "enum" and error.json_path.endswith(".variant"):
        message = (f"unknown variant {brief(error.instance)} (known, in lower case: "
                   f"{', '.join(error.validator_value)})")
    elif "propertyNames" in error.relative_schema_path and list(error.absolute_path) == ["marks"]:
        raise RecordError(_bad_step_key(path, error.instance))
    raise RecordError(f"{path}: {message}")


_NOT_A_CARD = "not a card name (a capital colour letter R, Y, G, B and 1-14, or ROOK / CROW in any case)"
_HAND_MEMBERS = ("format", "variant", "options", "dealer", "hands", "nest", "auction", "discard", "trump", "tricks",
                 "comments", "marks", "meta")
"""The members of a hand record (rook-hand/1's ``properties``; no others are allowed)."""
_GAME_MEMBERS = ("format", "variant", "options", "hands", "score", "winner", "meta")
"""The members of a game record (rook-game/1's ``properties``; no others are allowed)."""
_VARIANT_NAMES = frozenset(schema(HAND_FORMAT)["properties"]["variant"]["enum"])
_MARK_SYMBOLS = frozenset(schema(HAND_FORMAT)["properties"]["marks"]["additionalProperties"]["enum"])
_COLOUR_LETTERS = frozenset(schema(HAND_FORMAT)["properties"]["trump"]["enum"])


def _case_forms(word: str) -> set[str]:
    """Every way of writing ``word`` in capital and small letters ("crow", "Crow", "cRoW", ...)."""
    return {"".join(letters) for letters in itertools.product(*((ch.lower(), ch.upper()) for ch in word))}


_CARD_NAMES = frozenset({f"{colour}{number}" for colour in "RYGB" for number in range(1, 15)}
                        | _case_forms("crow") | _case_forms("rook"))
"""Every card name `CARD_NAME` accepts."""


def _is_cards(value: Any) -> bool:
    """True if ``value`` is a list of card names written exactly (`CARD_NAME`, as a set: `_CARD_NAMES`)."""
    if type(value) is not list:
        return False
    try:
        return _CARD_NAMES.issuperset(value)
    except TypeError:  # an array or object among the items
        return False


def _one_of(value: Any, allowed: frozenset | tuple) -> bool:
    """True if ``value`` is a str among ``allowed`` (an enum of strings)."""
    return type(value) is str and value in allowed


def _conforms(doc: Any, fmt: str) -> bool:
    """True if ``doc`` certainly conforms to ``fmt``'s schema; False when it may not (then jsonschema decides).
    Stricter than the schema: integers only of type int, card names only as `CARD_NAME` writes them, and a hand
    with a ``comments`` member is never taken (`_check_schema` takes a comments list out and checks it item by
    item, `_check_comments`; one that is left is not a list: before issue 31 it went through unchecked and a
    ``comments`` object or string crashed the replay's check). Time linear in the size of ``doc``; raises
    nothing."""
    if type(doc) is not dict:
        return False
    if fmt == GAME_FORMAT:
        score = doc.get("score", {"NS": 0, "EW": 0})
        return (doc.keys() <= set(_GAME_MEMBERS) and doc.get("format") == GAME_FORMAT
                and _one_of(doc.get("variant"), _VARIANT_NAMES) and type(doc.get("options", {})) is dict
                and type(doc.get("hands")) is list and all(type(h) is dict for h in doc["hands"])
                and type(score) is dict and score.keys() == {"NS", "EW"}
                and type(score["NS"]) is int and type(score["EW"]) is int
                and doc.get("winner") in ("NS", "EW", None) and type(doc.get("meta", {})) is dict)
    hands, tricks, marks = doc.get("hands"), doc.get("tricks", []), doc.get("marks", {})
    return (doc.keys() <= set(_HAND_MEMBERS) and "comments" not in doc and doc.get("format") == HAND_FORMAT
            and _one_of(doc.get("variant"), _VARIANT_NAMES) and type(doc.get("options", {})) is dict
            and _one_of(doc.get("dealer"), SEATS) and type(hands) is dict and hands.keys() == set(SEATS)
            and all(_is_cards(h) for h in hands.values()) and _is_cards(doc.get("nest"))
            and type(doc.get("auction")) is list and all(type(c) is int or c == "pass" for c in doc["auction"])
            and _is_cards(doc.get("discard", [])) and ("trump" not in doc or _one_of(doc["trump"], _COLOUR_LETTERS))
            and type(tricks) is list and all(_is_cards(t) and 1 <= len(t) <= 4 for t in tricks)
            and type(marks) is dict and all(STEP_KEY.fullmatch(k) and _one_of(v, _MARK_SYMBOLS)
                                            for k, v in marks.items())
            and type(doc.get("meta", {})) is dict)


def _bounded(doc: Any, fmt: str) -> Any:
    """``doc`` for jsonschema: a game's ``hands`` cut after the first that is not an object (only objects: none),
    so that the schema's problem is found in time bounded by `_check_sizes`' limits, at the same JSON path."""
    if fmt != GAME_FORMAT or type(doc) is not dict or type(doc.get("hands")) is not list:
        return doc
    bad = next((i for i, h in enumerate(doc["hands"]) if type(h) is not dict), None)
    return {**doc, "hands": [] if bad is None else doc["hands"][:bad + 1]}


def _check_comments(comments: list, where: str) -> None:
    """Check a hand's ``comments`` list (at JSON path ``where``) item by item against the schema: each an object
    with an integer ``step`` ≥ 0 and a string ``text`` (other members allowed). Raises RecordError in the schema's
    words ("'step' is a required property") at the item's path; time linear in the number of comments."""
    for i, comment in enumerate(comments):
        at = f"{where}[{i}]"
        if type(comment) is not dict:
            raise RecordError(f"{at}: {brief(comment)} is not of type 'object'")
        for key in ("step", "text"):
            if key not in comment:
                raise RecordError(f"{at}: {key!r} is a required property")
        step, text = comment["step"], comment["text"]
        if not (type(step) is int or (type(step) is float and step.is_integer())):  # JSON Schema's "integer"
            raise RecordError(f"{at}.step: {brief(step)} is not of type 'integer'")
        if step < 0:
            raise RecordError(f"{at}.step: {brief(step)} is less than the minimum of 0")
        if type(text) is not str:
            raise RecordError(f"{at}.text: {brief(text)} is not of type 'string'")


def _check_sizes(doc: Any, fmt: str, where: str) -> None:
    """Refuse a record whose parts are larger than any rule set allows, before the schema and the replay read them
    item by item, so that a hostile record (a million calls, a trick of a million cards, a million unknown members)
    is refused at once. ``doc``: a decoded hand (``fmt`` HAND_FORMAT) or game document at JSON path ``where``.
    Limits: `MAX_CALLS` calls, `MAX_HAND_CARDS` cards a seat and tricks, 4 cards a trick, `MAX_NEST_CARDS` cards
    in the nest and the discard, `MAX_STEPS` marks; no member that the schema does not name. Raises RecordError
    naming the part and its size; anything else (types, values) is left to the schema."""
    if type(doc) is not dict:
        return
    _check_members(doc, _GAME_MEMBERS if fmt == GAME_FORMAT else _HAND_MEMBERS, where)
    if fmt == GAME_FORMAT:
        if type(doc.get("score")) is dict:
            _check_members(doc["score"], ("NS", "EW"), f"{where}.score")
        return
    if type(doc.get("hands")) is dict:
        _check_members(doc["hands"], SEATS, f"{where}.hands")
        for seat in SEATS:
            _check_count(doc["hands"].get(seat), MAX_HAND_CARDS, f"{where}.hands.{seat}", "cards",
                         "no rule set deals more to a seat")
    _check_count(doc.get("nest"), MAX_NEST_CARDS, f"{where}.nest", "cards", "no rule set has a larger nest")
    _check_count(doc.get("discard"), MAX_NEST_CARDS, f"{where}.discard", "cards", "no rule set has a larger nest")
    _check_count(doc.get("auction"), MAX_CALLS, f"{where}.auction", "calls",
                 "in every rule set: each bid once, one pass from each seat")
    tricks = doc.get("tricks")
    _check_count(tricks, MAX_HAND_CARDS, f"{where}.tricks", "tricks", "no rule set deals more cards to a seat")
    for i, trick in enumerate(tricks if type(tricks) is list else ()):
        _check_count(trick, 4, f"{where}.tricks[{i}]", "cards", "one from each seat")
    _check_count(doc.get("marks"), MAX_STEPS, f"{where}.marks", "marks", "a mark is on an action, and no hand of "
                 "any rule set has more")


def _check_members(obj: dict, allowed: tuple, where: str) -> None:
    """Raise RecordError, in the schema's words, if the object ``obj`` (at ``where``) has a member not in
    ``allowed``: the first three such keys (in sorted order, as jsonschema lists them) and how many more."""
    extras = [key for key in obj if key not in allowed]
    if not extras:
        return
    first = heapq.nsmallest(3, extras)
    names = ", ".join(brief(key) for key in first)
    more = f" and {len(extras) - 3:,} more" if len(extras) > 3 else ""
    verb = "was" if len(extras) == 1 else "were"
    raise RecordError(f"{where}: Additional properties are not allowed ({names}{more} {verb} unexpected)")


def _check_count(value: Any, most: int, where: str, noun: str, why: str) -> None:
    """Raise RecordError if ``value`` (a list or object at ``where``) has more than ``most`` items: "<where>: <n>
    <noun>, at most <most> (<why>)"."""
    if type(value) in (list, dict) and len(value) > most:
        raise RecordError(f"{where}: {len(value):,} {noun}, at most {most} ({why})")


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
    if len(key) > 40:  # a key quoted whole could fill the line
        return f"{path}[{json.dumps(key[:20])}… ({len(key):,} characters)]"
    return f"{path}.{key}" if re.fullmatch(r"[A-Za-z0-9_]+", key) else f"{path}[{json.dumps(key)}]"


def _bad_step_key(path: str, key: str) -> str:
    """The error of a ``marks`` key (at ``path``, the marks object) that is not a step number in canonical form."""
    return (f"{_member(path, key)}: not a step number: a mark's key is the step written \"0\" or without leading "
            f"zeros (\"9\", not \"09\"), so that no two keys name one step")


def _record_rules(variant: str, options: dict | None) -> Rules:
    """The `Rules` of a record's ``variant`` and ``options``; raises RecordError at ``$.variant`` or ``$.options``.
    The same variant and options give the same `Rules` value, built once (a game record names them in every hand)."""
    try:  # 1 and 1.0 and true stay apart, as get_rules tells them apart
        key = "null" if options is None else json.dumps(options, sort_keys=True)
    except (TypeError, ValueError):  # options built in Python, not read from JSON: not cached
        key = None
    try:
        return _cached_rules(variant, key) if key is not None and isinstance(variant, str) else get_rules(
            variant, options)
    except RulesError as e:
        where = "$.variant" if str(e).startswith(("unknown variant", "variant")) else "$.options"
        raise RecordError(f"{where}: {e}") from e


@lru_cache(maxsize=256)
def _cached_rules(variant: str, options_json: str) -> Rules:
    """`get_rules` of ``variant`` and the options written as JSON (``options_json``). Raises RulesError."""
    return get_rules(variant, json.loads(options_json))


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
    bytes; `MAX_RECORD_BYTES` by default, the app's upload limit). Raises RecordError with one line of at most
    `MAX_MESSAGE_CHARS` characters naming the problem and where: for a text that is not JSON (``NaN`` included), an
    object with a key written twice, a part larger than any rule set allows (checked before the rest: `_check_sizes`),
    a schema problem, a card not written exactly as record-format.md "Cards" says, an illegal step. Time linear in
    the length of ``text``.
    """
    if len(text) > max_bytes:
        raise RecordError(f"record is larger than {max_bytes / 1_000_000:g} MB")
    doc = parse_json(text)
    return from_json(doc)


def parse_json(text: str | bytes) -> Any:
    """The JSON value of ``text`` (str, or bytes in UTF-8), read strictly: a key written twice in one object
    (`_object`), ``NaN``/``Infinity`` and an unpaired surrogate escape are refused. Raises RecordError (one line:
    "not JSON: …", "not valid text: …", "not a valid record: …")."""
    if not text.strip():
        raise RecordError("not JSON: the file is empty")
    try:
        doc = json.loads(text, object_pairs_hook=_object, parse_constant=_no_constant)
    except RecordError:
        raise
    except UnicodeDecodeError as e:
        raise RecordError(f"not JSON: not a UTF-8 text file (byte {e.start} cannot be read as text)") from e
    except (ValueError, RecursionError) as e:  # JSONDecodeError, over-long integers, deep nesting
        raise RecordError(f"not JSON: {json_problem(e)}") from e
    try:  # a \ud800 escape decodes to a lone surrogate, which no UTF-8 file (and no saved record) can hold
        json.dumps(doc, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as e:
        raise RecordError(f"not valid text: an unpaired surrogate escape (\\u{ord(e.object[e.start]):04x}) is not "
                          "a character") from e
    return doc


def _object(pairs: list[tuple[str, Any]]) -> dict:
    """A JSON object of the record as a dict (``json.loads``' ``object_pairs_hook``). Raises RecordError for a key
    written twice in one object: JSON leaves its meaning open (Python keeps the last value, other readers the
    first), so a record reads one way only."""
    doc = dict(pairs)
    if len(doc) != len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise RecordError(f"not a valid record: the key {brief(key)} is written twice in one object")
            seen.add(key)
    return doc


def _no_constant(name: str) -> Any:
    """``json.loads``' ``parse_constant``: raises RecordError for ``NaN``, ``Infinity`` and ``-Infinity``, which
    Python reads but JSON does not have."""
    raise RecordError(f"not JSON: {name} is not a JSON number")


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


def _hand_from_json(doc: Any, where: str) -> HandRecord:
    """The `HandRecord` of the decoded hand document ``doc`` at JSON path ``where``: sizes (`_check_sizes`),
    schema (`_check_schema`), rules and card names checked; the replay is `_check_consistency`'s. Raises
    RecordError."""
    _check_sizes(doc, HAND_FORMAT, where)
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
            raise RecordError(f"{_member(where, key)}: step number too large: past the last action of the hand")
        steps[int(key)] = mark
    return steps


@lru_cache(maxsize=64)
def _deck_names(rules: Rules) -> dict[str, Card]:
    """The cards of ``rules``' deck by each name `CARD_NAME` accepts ("R14"; the bird as CROW and ROOK in any
    case)."""
    names = {card.notation("crow"): card for card in rules.deck}
    if "CROW" in names:
        names.update({name: names["CROW"] for name in _case_forms("crow") | _case_forms("rook")})
    return names


def _cards(texts: list[str], rules: Rules, where: str, once: bool = False) -> list[Card]:
    """The cards of a record's card list at JSON path ``where``; with ``once``, a card listed twice is an error
    (a hand, the nest and the discard are sets of cards: rules.md §5, "every card ... dealt exactly once")."""
    cards: list[Card] = []
    deck = _deck_names(rules)
    for i, text in enumerate(texts):
        card = deck.get(text)
        if card is not None:
            cards.append(card)
            continue
        if not CARD_NAME.fullmatch(text):  # exactly as written in record-format.md "Cards": no "R14\n", no " R14"
            raise RecordError(f"{where}[{i}]: {brief(text)} is {_NOT_A_CARD}")
        try:  # not in this deck: the rules say so in their words
            cards.append(rules.parse_card(text))
        except (CardError, RulesError) as e:
            raise RecordError(f"{where}[{i}]: {e}") from e
    twice = first_repeat(cards) if once else None
    if twice is not None:
        raise RecordError(f"{where}[{twice}]: {rules.card_name(cards[twice])} is listed twice")
    return cards


def _check_consistency(record: HandRecord, where: str) -> HandState:
    """Replay the record step by step and check the parts fit together (raises RecordError). Returns the state
    after the last step."""
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
    actions = len(record.actions())
    for i, c in enumerate(record.comments or ()):
        if c["step"] > actions:
            raise RecordError(f"{where}.comments[{i}].step: step {c['step']} is past the end of the hand")
    for step in sorted(record.marks or ()):  # a mark is on an action: steps 0 .. actions - 1
        if step >= actions:
            raise RecordError(f"{where}.marks.{step}: step {step} is past the last action of the hand")
    return state


def _game_from_json(doc: dict) -> GameRecord:
    """The `GameRecord` of a decoded game document: sizes, schema, every hand (`_hand_from_json`, its dealer and
    replay), the rules of every hand and the score (`_check_game`). Raises RecordError. Time linear in the size of
    the document (each hand is replayed once)."""
    _check_sizes(doc, GAME_FORMAT, "$")
    _check_schema(doc, GAME_FORMAT)
    hands, finals = [], []
    game_rules = _record_rules(doc["variant"], doc.get("options"))
    for i, h in enumerate(doc["hands"]):
        rec = _hand_from_json(h, f"$.hands[{i}]")
        if hands:  # before the replay: with the wrong dealer, the calls and cards go to the wrong seats
            _check_dealer(hands[-1], rec, i)
        finals.append(_check_consistency(rec, f"$.hands[{i}]"))
        if rec.rules != game_rules:  # the same rules however written (an alias, a default spelt out)
            raise RecordError(f"$.hands[{i}]: variant and options must give the game's rules "
                              f"({_rules_text(game_rules)}), not {_rules_text(rec.rules)}")
        hands.append(rec)
    game = GameRecord(variant=doc["variant"], hands=hands, options=doc.get("options"), score=doc.get("score"),
                      winner=doc.get("winner"), has_winner="winner" in doc, meta=doc.get("meta"))
    _check_game(game, finals)
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


def _check_game(game: GameRecord, finals: list[HandState] | None = None) -> None:
    """Running score and winner must follow the rules (rules.md §1.8, "Game end"); no hand after the game is won.
    (The dealer sequence is checked hand by hand as the game is read: `_check_dealer`.) ``finals``: each hand's
    state after its last step when known (else each hand is replayed). Raises RecordError."""
    totals, winner = [0, 0], None
    for i, rec in enumerate(game.hands):
        if winner is not None:
            raise RecordError(f"$.hands[{i}]: the game was already won after hand {i - 1}")
        state = finals[i] if finals is not None else rec.replay()
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


_NOT_REGULAR = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"),
                (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))
"""What a path that is not a regular file is, in words (`open_regular`)."""


def open_regular(path: str | os.PathLike) -> IO[bytes]:
    """``path`` (str or path-like) opened for reading in binary (a file object), if it is a regular file. It is
    opened without blocking (``O_NONBLOCK``: opening a named pipe with no writer would wait forever) and checked on
    the open file (``fstat``: no swap between a check and the open), so a named pipe, a folder or a device is
    refused at once.
    Raises OSError: the system's (no such file, no permission) or, for what is not a regular file, one saying
    what it is ("... is a named pipe, not a regular file")."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            what = next((words for test, words in _NOT_REGULAR if test(mode)), "not a file")
            raise OSError(f"it is {what}, not a regular file")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


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
