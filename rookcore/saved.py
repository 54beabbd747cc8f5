"""The game in play, kept between visits: the app saves its `Table` after every change and resumes it on the next
page load, so a reload, a closed tab or a restarted Binder session (same home folder) does not lose the game.

The file (`game_path`: ``$ROOK_GAME_FILE`` if set, ``""`` keeping nothing; else ``~/.crowsnest-rook/game.json``) is
JSON, data only (format `FORMAT`)::

    {"format": "crowsnest-kept-game/1", "saved": POSIX seconds,
     "game": a rook-game/1 record (record-format.md): the scored hands and, while the game goes on, the hand in play
             (the last, maybe unfinished; its calls and cards are the learner's and the AIs' moves so far),
     "settings": {"level": AI level, "pace": seconds or null, "pending_rules": {"variant", "options"} or null (the
                  rules chosen for the next game), "bird_next": true/false/null (`Table.set_bird`),
                  "extra": {...} (what the app keeps with it, e.g. {"deal": 42} for a deal link)},
     "table": {"learner": seat 0-3, "seed", "hint_seed", "on_show": "current" | "last" (the hand on show is the
               hand in play, or the last scored hand until New hand), "next_deal": a rook-hand/1 record of the deal
               after the last hand (only once the game is won, when the game record ends with its last hand),
               "random": {"table": state, "game": state} (Python's ``random.Random.getstate`` as JSON),
               "players": {seat letter: {"random": {attribute path: state}, "seed": int}} (each AI's generators, so
               the AIs go on deciding as they would have), "log": [{"step", "decision"}] (the AI reasoning of the
               hand on show; each decision's sentences in English, and in its "said" member (and each candidate's)
               as `rookcore.i18n.message_json` data, so that they are said in the page's language once resumed)}}

It is written at once (a temporary file beside it, then renamed: a reader never sees half a file) and read back by
replaying the record under the engine's rules (`table_from_document`), so a new version of the app resumes a game
kept by an older one: every part is checked before it is used, and a file that fails is refused
(`SavedGameError`) and set aside by `start_game` (renamed ``<name>.bad-<time>``, with a note on the status line),
never trusted and never run. A file of the release before this format (a pickle, `LEGACY_FORMAT`; at the same path,
or ``game.pickle`` beside the default ``game.json``) is converted once: read by an unpickler that builds only the
classes such a file holds (`_LegacyUnpickler`), turned into this document and then checked and replayed as any
other (`_document_from_legacy`).

A game started from a shared deal link is kept beside the learner's own (`deal_game_path`), so following a link
never replaces it; the newest page to open a game keeps it (`claim`). On a server, each learner has their own
folder of both files (`rookcore.learners`); the paths here are those of the single per-account file, which the first
learner adopts. `start_game` picks the game a new page starts
with. Hand and game records stay the way to keep a game for good; this file bridges one visit to the next.
"""
from __future__ import annotations

import datetime
import io
import json
import math
import os
import pathlib
import pickle
import random
import re
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

from . import records
from .actions import PASS, Action, Bid, Discard, NameTrump, Pass, Play, bid
from .cards import Card, CardError
from .game import Game
from .hand import SEATS, HandState, IllegalAction
from .i18n import Message, lazy, message_from_json, message_json
from .words import team_word as _team, title_word
from .records import RecordError
from .rules import Rules, RulesError, get_rules
from .table import LoggedDecision, Table

__all__ = ["FORMAT", "LEGACY_FORMAT", "GAME_FILE_ENV", "MAX_KEPT_BYTES", "SavedGame", "SavedGameError", "GameStart",
           "game_path", "deal_game_path", "file_stamp", "save_table", "load_table", "check_table", "table_document",
           "table_from_document", "set_aside", "claim", "keeper", "start_game"]

FORMAT = "crowsnest-kept-game/1"
"""The kept file's format tag (JSON, see the module doc)."""
LEGACY_FORMAT = "crowsnest-table/1"
"""The format tag of the previous release's kept file: a pickle of ``{"format", "code", "saved", "table",
"extra"}`` (converted once: `_document_from_legacy`)."""
GAME_FILE_ENV = "ROOK_GAME_FILE"
"""Environment variable naming the file the game is kept in (empty: keep nothing)."""
MAX_KEPT_BYTES = 16_000_000
"""The largest kept file read (bytes): a game of hundreds of hands and its reasoning is far smaller."""


class SavedGameError(ValueError):
    """A saved game that cannot be resumed: unreadable, not a kept game, or not a consistent game. The message
    says why in plain words (one line)."""


@dataclass
class SavedGame:
    """A resumed game: ``table`` (the `Table`), ``saved`` (POSIX seconds when it was written) and ``extra`` (the
    dict the app saved with it: ``pending_rules`` (a `Rules`) and ``pace`` (seconds) when they were set, and what
    else it kept, e.g. ``deal``)."""

    table: Table
    saved: float
    extra: dict = field(default_factory=dict)


def game_path() -> pathlib.Path | None:
    """Where the game is kept: ``$ROOK_GAME_FILE`` if set (empty: None, nothing is kept), else
    ``~/.crowsnest-rook/game.json``. Returns a Path or None; raises nothing."""
    if GAME_FILE_ENV in os.environ:
        return pathlib.Path(os.environ[GAME_FILE_ENV]) if os.environ[GAME_FILE_ENV] else None
    return pathlib.Path.home() / ".crowsnest-rook" / "game.json"


def deal_game_path() -> pathlib.Path | None:
    """Where a game started from a shared deal link (``?deal=``) is kept: beside `game_path`, named
    ``<name>-deal<suffix>`` (``~/.crowsnest-rook/game-deal.json``); None when nothing is kept."""
    main = game_path()
    return None if main is None else main.with_name(f"{main.stem}-deal{main.suffix}")


def _legacy_path(path: pathlib.Path) -> pathlib.Path | None:
    """Where the previous release kept the game that is now kept at ``path``: ``<stem>.pickle`` beside a default
    ``.json`` path (``~/.crowsnest-rook/game.pickle``); None when ``$ROOK_GAME_FILE`` names the file (the same
    path served both releases)."""
    if GAME_FILE_ENV in os.environ or path.suffix != ".json":
        return None
    return path.with_suffix(".pickle")


# ----- claiming a game (the newest page keeps it) -------------------------------------------------------------
def _keeper_path(path: str | os.PathLike) -> pathlib.Path:
    path = pathlib.Path(path)
    return path.with_name(path.name + ".page")


CLAIM_STATES = ("used", "opened", "back")
"""How a page holds the game it keeps (`claim`): "used" (the learner has acted in it), "opened" (only opened so
far), "back" (an older page took the game back from a newer one that was only opened)."""


def claim(path: str | os.PathLike, page: str, state: str = "used") -> None:
    """Make the page named ``page`` (a str, e.g. a UUID) the one that keeps the game at ``path``: the newest page to
    open a game keeps it, and an older page (another tab, or a page left by a reload whose AIs still move) stops
    saving over it (`keeper`). ``state``: one of `CLAIM_STATES` (`claim_state`): a page only "opened" gives the game
    back to an older page in which the learner acts (`rookcore.play.Keeper.learner_acted`). Written beside the game
    (``<path>.page``: the page's name, then its state). Raises ValueError for another state, OSError if it cannot be
    written."""
    if state not in CLAIM_STATES:
        raise ValueError(f"a claim's state is one of {', '.join(CLAIM_STATES)}, not {state!r}")
    _replace_file(_keeper_path(path), f"{page}\n{state}".encode("utf-8"))


def _claim_lines(path) -> list[str]:
    try:
        return _keeper_path(path).read_text(encoding="utf-8").split("\n") if path is not None else []
    except (OSError, ValueError):
        return []


def keeper(path: str | os.PathLike | None) -> str | None:
    """The page that keeps the game at ``path`` (`claim`), or None if none has claimed it. Raises nothing."""
    lines = _claim_lines(path)
    return lines[0] if lines else None


def claim_state(path: str | os.PathLike | None) -> str | None:
    """How the page that keeps the game at ``path`` holds it (one of `CLAIM_STATES`; "used" for a claim written
    before states were kept), or None when no page has claimed it. Raises nothing."""
    lines = _claim_lines(path)
    if not lines:
        return None
    return lines[1] if len(lines) > 1 and lines[1] in CLAIM_STATES else "used"


def file_stamp(path: str | os.PathLike | None) -> tuple[int, int, int] | None:
    """What identifies the content of the file at ``path`` without reading it: (modification time in ns, size in
    bytes, inode) — a save replaces the file, so any save changes it; None when there is no file (or no path).
    Raises nothing."""
    try:
        st = os.stat(path) if path is not None else None
    except (OSError, ValueError):
        return None
    return None if st is None else (st.st_mtime_ns, st.st_size, st.st_ino)


def _replace_file(target: pathlib.Path, data: bytes) -> None:
    """Write ``data`` to ``target`` at once (beside it, then renamed: a reader never sees half a file), creating
    its folder. Raises OSError if it cannot be written; no temporary file is left behind."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}-", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fp:
            fp.write(data)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# ----- writing --------------------------------------------------------------------------------------------------
def save_table(table: Table, path: str | os.PathLike | None = None, extra: dict | None = None) -> pathlib.Path | None:
    """Keep ``table`` at ``path`` (default `game_path`; None there: nothing is kept and None is returned) as JSON
    (`table_document`), with ``extra``: a dict whose ``pending_rules`` (a `Rules` or None) and ``pace`` (seconds or
    None) become settings and whose other members (JSON values, e.g. ``{"deal": 42}``) are kept as they are. The
    file is replaced at once (written beside it, then renamed). Returns the path written.

    Raises `SavedGameError` if the table is not a consistent game (`check_table`: nothing is written), TypeError or
    ValueError if ``extra`` holds what JSON cannot (a set, NaN), OSError if the folder or file cannot be written."""
    target = pathlib.Path(path) if path is not None else game_path()
    if target is None:
        return None
    check_table(table)
    text = json.dumps(table_document(table, extra), ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    _replace_file(target, text.encode("utf-8"))
    return target


def table_document(table: Table, extra: dict | None = None, saved: float | None = None) -> dict:
    """The kept-file document of ``table`` (module doc; `FORMAT`): its game as a rook-game/1 record, the settings
    (``extra`` as `save_table` takes it) and the table's own state (seats, seeds, random generators, the AI reasoning
    of the hand on show). ``saved``: POSIX seconds (default: now). Returns a dict of JSON values. Raises
    SavedGameError when the hand on show is neither the hand in play nor the last scored one (a damaged table),
    AttributeError or TypeError for an object that is not a `Table` of this package."""
    game = table.game
    on_show = "last" if table._recorded else "current"
    if table.state is not (game.hands[-1] if on_show == "last" and game.hands else game.current):
        raise SavedGameError("the hand on show is not a hand of the game")
    hands = list(game.hands) if game.is_over else [*game.hands, game.current]
    state: dict[str, Any] = {
        "learner": table.learner, "seed": table.seed, "hint_seed": table._hint_seed, "on_show": on_show,
        "random": {"table": _random_json(table._rng), "game": _random_json(game._rng)},
        "players": {SEATS[seat]: _player_json(player) for seat, player in sorted(table.players.items())},
        "log": [{"step": entry.step, "decision": _decision_json(entry.decision)} for entry in table.log]}
    if game.is_over:
        state["next_deal"] = records.HandRecord.from_state(game.current).to_json()
    return {"format": FORMAT, "saved": time.time() if saved is None else float(saved),
            "game": records.game_record(hands, table.rules).to_json(),
            "settings": _settings_json(table, extra), "table": state}


def _settings_json(table: Table, extra: dict | None) -> dict:
    """The ``settings`` member: the table's AI level and bird choice, and ``extra``'s ``pending_rules`` (a `Rules`,
    written as {"variant", "options"}), ``pace`` and other members (kept as they are). Raises TypeError or ValueError
    for a member that JSON cannot hold."""
    extra = dict(extra or {})
    pending, pace = extra.pop("pending_rules", None), extra.pop("pace", None)
    json.dumps(extra, allow_nan=False)  # refuse now what could not be written
    return {"level": table.level, "pace": pace, "bird_next": table._bird_next, "extra": extra,
            "pending_rules": None if pending is None else {"variant": pending.variant,
                                                          "options": dict(pending.options)}}


def _random_json(generator: random.Random) -> list:
    """``generator``'s state (``getstate``: version, 625 words, gauss) as a JSON list."""
    version, words, gauss = generator.getstate()
    return [version, list(words), gauss]


def _generators(player: Any) -> dict[str, random.Random]:
    """The random generators of an AI ``player`` by attribute path: its own (``rng``) and those of the players it
    holds (the strong AI's ``_fallback.rng``)."""
    found = {}
    for name, value in sorted(vars(player).items()):
        if isinstance(value, random.Random):
            found[name] = value
        elif hasattr(value, "__dict__") and not isinstance(value, type):
            found.update({f"{name}.{inner}": rng for inner, rng in sorted(vars(value).items())
                          if isinstance(rng, random.Random)})
    return found


def _player_json(player: Any) -> dict:
    """An AI player's part of the document: its generators' states and its seed (when it has one)."""
    doc: dict[str, Any] = {"random": {path: _random_json(rng) for path, rng in _generators(player).items()}}
    if type(getattr(player, "seed", None)) is int:
        doc["seed"] = player.seed
    return doc


def _action_json(action: Action) -> dict:
    """An engine action as JSON: {"bid": 85}, {"pass": true}, {"discard": [cards]}, {"trump": "G"},
    {"play": "R14"} (cards in record notation). Raises TypeError for anything else."""
    kind = type(action)
    if kind is Bid:
        return {"bid": action.amount}
    if kind is Pass:
        return {"pass": True}
    if kind is Discard:
        return {"discard": action.notation()}
    if kind is NameTrump:
        return {"trump": action.colour}
    if kind is Play:
        return {"play": action.notation()}
    raise TypeError(f"not an action of a hand: {action!r}")


_DECISION_TEXTS = ("explanation", "public_explanation", "score_meaning")
_CANDIDATE_TEXTS = ("note", "public_note")


def _said(thing: Any, names: tuple[str, ...]) -> dict:
    """The sentences of ``thing`` (a Decision or Candidate) that are `rookcore.i18n.Message` values, as
    ``{name: message_json}`` (the "said" member: a resumed game says them in the page's language)."""
    return {name: message_json(getattr(thing, name)) for name in names if isinstance(getattr(thing, name), Message)}


def _decision_json(decision: Any) -> dict:
    """An AI `Decision` (rookcore.ai.base) as JSON: its action, candidates (action, score, note, secret cards,
    public note), explanation, seat, kind, secret cards, public explanation and what its scores mean; the
    sentences in English, and those made as messages also as data ("said", `_said`)."""
    def candidate(c) -> dict:
        doc = {"action": _action_json(c.action), "score": c.score, "note": c.note,
               "secret": sorted(card.notation() for card in c.secret), "public_note": c.public_note}
        said = _said(c, _CANDIDATE_TEXTS)
        return {**doc, "said": said} if said else doc

    doc = {"seat": decision.seat, "kind": decision.kind, "action": _action_json(decision.action),
           "candidates": [candidate(c) for c in decision.candidates],
           "explanation": decision.explanation, "secret": sorted(card.notation() for card in decision.secret),
           "public_explanation": decision.public_explanation, "score_meaning": decision.score_meaning}
    said = _said(decision, _DECISION_TEXTS)
    return {**doc, "said": said} if said else doc


# ----- reading --------------------------------------------------------------------------------------------------
def load_table(path: str | os.PathLike | None = None) -> SavedGame | None:
    """The game kept at ``path`` (default `game_path`; a previous release's file beside the default path is read
    when there is none: `_legacy_path`), or None when there is none (no file, or keeping is off).

    Raises `SavedGameError` (nothing is changed, the file is left as it is) when the file cannot be read, is not a
    regular file, is larger than `MAX_KEPT_BYTES`, is not a kept game, or fails any check of
    `table_from_document`."""
    source = pathlib.Path(path) if path is not None else game_path()
    if source is None:
        return None
    if not os.path.lexists(source):
        legacy = _legacy_path(source)
        if legacy is None or not os.path.lexists(legacy):
            return None
        source = legacy
    data = _read(source)
    doc = _document_from_legacy(data) if data[:1] == b"\x80" else _document_from_json(data, source)
    table, saved, extra = table_from_document(doc)
    return SavedGame(table=table, saved=saved, extra=extra)


def _read(source: pathlib.Path) -> bytes:
    """The bytes of the regular file ``source`` (at most `MAX_KEPT_BYTES`). Raises SavedGameError."""
    try:
        with records.open_regular(source) as fp:
            data = fp.read(MAX_KEPT_BYTES + 1)
    except OSError as e:
        raise SavedGameError(f"cannot read {source.name}: {e.strerror or e}") from e
    if len(data) > MAX_KEPT_BYTES:
        raise SavedGameError(f"{source.name} is larger than {MAX_KEPT_BYTES // 1_000_000} MB")
    return data


def _document_from_json(data: bytes, source: pathlib.Path) -> dict:
    """The kept-file document in ``data`` (JSON read strictly: `records.parse_json`). Raises SavedGameError."""
    try:
        doc = records.parse_json(data)
    except RecordError as e:
        raise SavedGameError(f"{source.name} is not a saved game ({e})") from e
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SavedGameError(f"{source.name} is not a saved game of this app")
    return doc


class _LegacyUnpickler(pickle.Unpickler):
    """Reads a previous release's kept game (a pickle) building only the classes such a file holds (found by
    reading files of every rule set, level and phase) and ``random.Random`` (the pickle documentation's
    "restricting globals"): any other global a file names (``os.system``, a class of this package that a kept game
    does not hold) is refused before it is built."""

    ALLOWED = frozenset({
        ("random", "Random"), ("rookcore.actions", "Bid"), ("rookcore.actions", "Discard"),
        ("rookcore.actions", "NameTrump"), ("rookcore.actions", "Pass"), ("rookcore.actions", "Play"),
        ("rookcore.ai.base", "Candidate"), ("rookcore.ai.base", "Decision"), ("rookcore.ai.base", "RandomPlayer"),
        ("rookcore.ai.rules_based", "RuleBasedPlayer"), ("rookcore.ai.sampling", "SamplingPlayer"),
        ("rookcore.cards", "Card"), ("rookcore.game", "Game"), ("rookcore.hand", "HandState"),
        ("rookcore.hand", "Phase"), ("rookcore.hand", "Trick"), ("rookcore.hand", "TrickTables"),
        ("rookcore.rules", "Rules"), ("rookcore.table", "LoggedDecision"), ("rookcore.table", "Table")})

    def find_class(self, module: str, name: str):
        """The class ``module.name`` if it is in `ALLOWED`, else raises pickle.UnpicklingError naming it."""
        if (module, name) in self.ALLOWED:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a saved game")


def _document_from_legacy(data: bytes) -> dict:
    """The kept-file document (`FORMAT`) of a previous release's pickle ``data`` (`LEGACY_FORMAT`): unpickled by
    `_LegacyUnpickler`, its table turned into a document (`table_document`) and the document written and read back
    as JSON, so that nothing of the unpickled objects is kept: `table_from_document` then checks and replays it as any
    kept file. Raises SavedGameError when the data is not such a file or its table cannot be converted."""
    try:
        old = _LegacyUnpickler(io.BytesIO(data)).load()
    except Exception as e:  # noqa: BLE001 - any damage to the file: a truncated pickle raises many kinds
        raise SavedGameError(f"it is not a saved game ({type(e).__name__})") from e
    if not isinstance(old, dict) or old.get("format") != LEGACY_FORMAT or not isinstance(old.get("table"), Table):
        raise SavedGameError("it is not a saved game of this app")
    try:
        extra = old.get("extra") if isinstance(old.get("extra"), dict) else {}
        saved = old.get("saved") if type(old.get("saved")) in (int, float) else 0.0
        doc = table_document(old["table"], extra, saved)
        return records.parse_json(json.dumps(doc, allow_nan=False))
    except Exception as e:  # noqa: BLE001 - objects from an older version may lack anything: say so, do not resume
        raise SavedGameError(f"a game kept by an earlier version of the app could not be converted "
                             f"({type(e).__name__}: {e})") from e


def table_from_document(doc: dict) -> tuple[Table, float, dict]:
    """The `Table` of a kept-file document (module doc), rebuilt by replaying its game record under the engine's
    rules, with its settings, seeds, random generators and AI reasoning: (table, saved POSIX seconds, extra as
    `SavedGame` has it). Nothing of the document is run or trusted unchecked: its record is validated as any record
    (`records.from_json`), every other member is checked for its type and range, the reasoning must match the moves
    of the hand, and the table must pass `check_table`. Raises `SavedGameError` naming the first problem."""
    _need(isinstance(doc, dict) and doc.get("format") == FORMAT, "it is not a saved game of this app")
    settings, state = _member(doc, "settings", dict), _member(doc, "table", dict)
    level, rules_next, pace, bird_next, extra = _settings(settings)
    try:
        record = records.from_json(doc.get("game"))
    except RecordError as e:
        raise SavedGameError(f"its game record is not valid: {e}") from e
    _need(isinstance(record, records.GameRecord), "its game record is not a rook-game/1 record")
    table = _table(record, state, level)
    try:
        table.set_bird(bird_next)
    except RulesError as e:
        raise SavedGameError(f"its bird choice does not apply: {e}") from e
    check_table(table)
    saved = doc.get("saved")
    _need(type(saved) in (int, float) and math.isfinite(saved), "its time of saving is not a number")
    extra = {**extra, **({"pending_rules": rules_next} if rules_next is not None else {}),
             **({"pace": pace} if pace is not None else {})}
    return table, float(saved), extra


def _need(condition: bool, problem: str) -> None:
    """Raise SavedGameError(``problem``) unless ``condition``."""
    if not condition:
        raise SavedGameError(problem)


def _member(doc: dict, name: str, kind: type | tuple) -> Any:
    """``doc[name]``, which must be of type ``kind`` (bools are not ints). Raises SavedGameError."""
    value = doc.get(name)
    ok = isinstance(value, kind) and not (isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple)
                                                                                    else (kind,)))
    _need(ok, f"its {name} is missing or not of the right kind")
    return value


def _settings(settings: dict) -> tuple[str, Rules | None, float | None, bool | None, dict]:
    """The checked ``settings`` member: (AI level, rules for the next game or None, pace or None, bird choice or
    None, extra). Raises SavedGameError."""
    from .ai import LEVELS  # noqa: PLC0415 - the AI package imports the engine, not this module

    level = settings.get("level")
    _need(isinstance(level, str) and level in LEVELS, "its AI level is not one of this app's")
    pace = settings.get("pace")
    _need(pace is None or (type(pace) in (int, float) and math.isfinite(pace) and pace >= 0),
          "its pace is not a number of seconds")
    bird_next = settings.get("bird_next")
    _need(bird_next is None or type(bird_next) is bool, "its bird choice is not true, false or null")
    pending = settings.get("pending_rules")
    rules_next = None
    if pending is not None:
        _need(isinstance(pending, dict) and isinstance(pending.get("variant"), str)
              and isinstance(pending.get("options", {}), dict), "its rules for the next game are not a rule set")
        try:
            rules_next = get_rules(pending["variant"], pending.get("options") or None)
        except RulesError as e:
            raise SavedGameError(f"its rules for the next game are not valid: {e}") from e
    return level, rules_next, float(pace) if pace is not None else None, bird_next, _member(settings, "extra", dict)


def _table(record: records.GameRecord, state: dict, level: str) -> Table:
    """The `Table` of a validated game ``record`` and the checked ``table`` member ``state``, at AI ``level``.
    Raises SavedGameError."""
    learner, seed, hint_seed = state.get("learner"), state.get("seed"), state.get("hint_seed")
    _need(type(learner) is int and 0 <= learner < 4, "its learner's seat is not a seat")
    _need(type(seed) is int and type(hint_seed) is int, "its seeds are not whole numbers")
    rules = get_rules(record.variant, record.options)
    game = _game(record, state, rules)
    table = Table(rules, seed=seed, level=level, learner=learner)  # its game, players and generators are replaced
    on_show = state.get("on_show")
    _need(on_show in ("current", "last") and (on_show == "current" or game.hands), "its hand on show is not known")
    _need(on_show == "last" or not game.current.is_over, "its hand in play is over but was not scored")
    generators = _member(state, "random", dict)
    table.game, table._hint_seed = game, hint_seed
    _set_random(table._rng, generators.get("table"), "the table's")
    _set_random(game._rng, generators.get("game"), "the game's")
    _set_players(table, _member(state, "players", dict))
    table._show(game.hands[-1] if on_show == "last" else game.current)
    table._recorded = on_show == "last"
    table.log = _log(_member(state, "log", list), table.state, rules)
    return table


def _game(record: records.GameRecord, state: dict, rules: Rules) -> Game:
    """The `Game` of a validated game ``record``: its hands replayed; the hand in play is its last hand, or once the
    game is won the ``next_deal`` of ``state``. Raises SavedGameError."""
    hands = [hand.replay() for hand in record.hands]
    if "next_deal" in state:
        _need(record.winner is not None, "it has a next deal but its game is not over")
        try:
            deal = records.from_json(state["next_deal"])
        except RecordError as e:
            raise SavedGameError(f"its next deal is not valid: {e}") from e
        _need(isinstance(deal, records.HandRecord) and deal.rules == rules and not deal.auction,
              "its next deal is not a new deal of the game's rules")
        scored, current = hands, deal.replay()
    else:
        _need(bool(hands) and record.winner is None, "its game record has no hand in play")
        scored, current = hands[:-1], hands[-1]
    try:
        return Game.resume(rules, scored, current, random.Random())
    except (IllegalAction, ValueError) as e:
        raise SavedGameError(f"its game does not add up: {e}") from e


def _set_random(generator: random.Random, value: Any, whose: str) -> None:
    """Give ``generator`` the state ``value`` (`_random_json`'s list), checked: version 3, 624 words below 2**32
    and a position up to 624, gauss null or a number. Raises SavedGameError naming ``whose`` generator."""
    ok = (isinstance(value, list) and len(value) == 3 and value[0] == 3 and type(value[0]) is int
          and isinstance(value[1], list) and len(value[1]) == 625
          and all(type(w) is int and 0 <= w < 2 ** 32 for w in value[1]) and value[1][-1] <= 624
          and (value[2] is None or type(value[2]) is float))
    _need(ok, f"{whose} random generator is not a generator's state")
    generator.setstate((3, tuple(value[1]), value[2]))


_ATTRIBUTE_PATH = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?")


def _set_players(table: Table, players: dict) -> None:
    """Give each AI seat of ``table`` its kept generators and seed (``players``: the document's member). A path
    that the player of this version does not have is passed over (its AI then decides afresh). Raises
    SavedGameError for seats that are not the table's AI seats or a state that is not one."""
    _need(set(players) == {SEATS[s] for s in table.players}, "its AI seats are not the table's")
    for seat, player in table.players.items():
        kept = players[SEATS[seat]]
        _need(isinstance(kept, dict), f"its AI {SEATS[seat]} is not described")
        states = _member(kept, "random", dict)
        current = _generators(player)
        for path, value in states.items():
            _need(isinstance(path, str) and _ATTRIBUTE_PATH.fullmatch(path) is not None,
                  f"its AI {SEATS[seat]} names a generator wrongly")
            if path in current:
                _set_random(current[path], value, f"AI {SEATS[seat]}'s")
        if "seed" in kept and hasattr(player, "seed"):
            _need(type(kept["seed"]) is int, f"its AI {SEATS[seat]}'s seed is not a whole number")
            player.seed = kept["seed"]


def _log(entries: list, hand: HandState, rules: Rules) -> list[LoggedDecision]:
    """The AI reasoning of the hand on show (``hand``): each entry's decision rebuilt and checked against the move
    the hand made at its step (same seat, same action). Raises SavedGameError."""
    log = []
    for i, entry in enumerate(entries):
        _need(isinstance(entry, dict) and type(entry.get("step")) is int and 0 <= entry["step"] < len(hand.history),
              f"its AI reasoning {i} is not on a step of the hand")
        decision = _decision(entry.get("decision"), rules)
        seat, action, _saved = hand.history[entry["step"]]
        _need(decision.seat == seat and _action_json(decision.action) == _action_json(action),
              f"its AI reasoning {i} does not match the move made at step {entry['step']}")
        log.append(LoggedDecision(entry["step"], decision))
    return log


def _decision(doc: Any, rules: Rules):
    """The AI `Decision` of its JSON (`_decision_json`), checked. Raises SavedGameError."""
    from .ai.base import KINDS, Candidate, Decision  # noqa: PLC0415 - see _settings

    _need(isinstance(doc, dict) and isinstance(doc.get("candidates"), list), "its AI reasoning is not a decision")
    _need(all(isinstance(doc.get(name), str) for name in _DECISION_TEXTS) and doc.get("kind") in KINDS
          and type(doc.get("seat")) is int and 0 <= doc["seat"] < 4, "its AI reasoning is not a decision")
    candidates = []
    for c in doc["candidates"]:
        _need(isinstance(c, dict) and type(c.get("score")) in (int, float) and isinstance(c.get("note"), str)
              and isinstance(c.get("public_note"), str), "its AI reasoning has a candidate that is not one")
        texts = _texts_said(c, _CANDIDATE_TEXTS)
        candidates.append(Candidate(_action(c.get("action"), rules), c["score"], texts["note"],
                                    _card_set(c.get("secret"), rules), texts["public_note"]))
    texts = _texts_said(doc, _DECISION_TEXTS)
    return Decision(_action(doc.get("action"), rules), tuple(candidates), texts["explanation"], doc["seat"],
                    doc["kind"], _card_set(doc.get("secret"), rules), texts["public_explanation"],
                    texts["score_meaning"])


def _texts_said(doc: dict, names: tuple[str, ...]) -> dict:
    """The sentences ``names`` of a decision's or candidate's JSON: the messages of its "said" member (each checked,
    `rookcore.i18n.message_from_json`, and its English the same as the text kept beside it), else the English
    texts. Raises SavedGameError for a "said" member that is not such data."""
    said = doc.get("said", {})
    _need(isinstance(said, dict) and set(said) <= set(names), "its AI reasoning's sentences are not described")
    texts = {}
    for name in names:
        if name not in said:
            texts[name] = doc[name]
            continue
        try:
            message = message_from_json(said[name])
        except ValueError as e:
            raise SavedGameError(f"its AI reasoning's sentences are not described: {e}") from e
        _need(isinstance(message, Message) and message == doc[name],
              "its AI reasoning's sentences do not match their English")
        texts[name] = message
    return texts


def _action(doc: Any, rules: Rules) -> Action:
    """The engine action of its JSON (`_action_json`), checked. Raises SavedGameError."""
    _need(isinstance(doc, dict) and len(doc) == 1, "its AI reasoning has an action that is not one")
    (kind, value), = doc.items()
    if kind == "bid" and type(value) is int:
        return bid(value)
    if kind == "pass" and value is True:
        return PASS
    if kind == "discard":
        return Discard(_card_set(value, rules))
    if kind == "trump" and value in ("R", "Y", "G", "B"):
        return NameTrump(value)
    if kind == "play":
        return Play(_card(value, rules))
    raise SavedGameError("its AI reasoning has an action that is not one")


def _card(text: Any, rules: Rules) -> Card:
    """The card written ``text`` (record notation, exactly), of ``rules``' deck. Raises SavedGameError."""
    _need(isinstance(text, str) and records.CARD_NAME.fullmatch(text) is not None,
          "its AI reasoning names a card wrongly")
    try:
        return rules.parse_card(text)
    except (CardError, RulesError) as e:
        raise SavedGameError(f"its AI reasoning names a card wrongly: {e}") from e


def _card_set(texts: Any, rules: Rules) -> frozenset:
    """The cards of a JSON list of card names (`_card`). Raises SavedGameError."""
    _need(isinstance(texts, list), "its AI reasoning names cards wrongly")
    return frozenset(_card(text, rules) for text in texts)


def check_table(table: Table) -> None:
    """Check that ``table`` is a consistent game: its hand on show replays from its record under the engine's
    rules (rules.md §1–§3: every call, the discard, trump and every card legal) to the same position, and the
    game's score is the sum of its scored hands' scores. Raises `SavedGameError` naming the first problem."""
    try:
        state = table.state
        replayed = table.record(reasons=False).replay()
        same = (replayed.step == state.step and replayed.hands == state.hands
                and replayed.captured == state.captured and replayed.phase is state.phase)
        game = table.game
        totals = [sum(score[team] for score in game.hand_scores) for team in (0, 1)]
    except Exception as e:  # noqa: BLE001 - a damaged object can fail in any way: say so, do not resume it
        raise SavedGameError(f"the saved game does not replay ({type(e).__name__}: {e})") from e
    if not same:
        raise SavedGameError("the saved hand does not replay to the position it was saved at")
    if totals != list(game.scores) or len(game.hand_scores) != len(game.hands):
        raise SavedGameError("the saved game's score does not add up")


def set_aside(path: str | os.PathLike) -> pathlib.Path | None:
    """Rename the kept file at ``path`` that could not be resumed to ``<name>.bad-<YYYYmmdd-HHMMSS>`` beside it
    (``-2``, ``-3``… if taken), so that it is never read again and stays for a look. Returns the new path, or None
    if it could not be renamed (say, a read-only folder; it is then left as it is). Raises nothing."""
    source = pathlib.Path(path)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for n in range(1, 100):
        target = source.with_name(f"{source.name}.bad-{stamp}" + (f"-{n}" if n > 1 else ""))
        if os.path.lexists(target):
            continue
        try:
            os.rename(source, target)
        except OSError:
            return None
        return target
    return None


# ----- the game a new page starts with ----------------------------------------------------------------------------
@dataclass
class GameStart:
    """The game a new page's Play panel starts with (`start_game`): ``table``; ``resumed`` (a kept game goes on);
    ``welcome`` (the status line's first sentence, "" for none; a `rookcore.i18n.Message`: English as a str, said in
    the page's language by `rookcore.i18n.localize`, since the page's language is known only once the kept game is
    read); ``pending_rules`` and ``pace`` (None: the
    defaults); where it is kept: ``path`` (None: `game_path`) and ``extra`` (kept with it);
    ``from_kept``: the rules, level and pace come from a kept game (Settings shows them)."""

    table: Table
    resumed: bool = False
    welcome: str | Message = ""
    pending_rules: Rules | None = None
    pace: float | None = None
    path: pathlib.Path | None = None
    extra: dict = field(default_factory=dict)
    from_kept: bool = False


def _kept(path: pathlib.Path | None, aside: bool = True) -> tuple[SavedGame | None, str]:
    """(the game kept at ``path`` or None, the sentence saying why it cannot be resumed or ""). A file that cannot
    be resumed is set aside (`set_aside`) and the sentence names where; with ``aside`` False it is left as it is."""
    if path is None:
        return None, ""
    try:
        return load_table(path), ""
    except SavedGameError as e:
        if not aside:
            return None, ""
        source = path if os.path.lexists(path) else _legacy_path(path)
        moved = set_aside(source) if source is not None and os.path.lexists(source) else None
        if moved is not None:
            return None, lazy.gettext("Your saved game could not be resumed: {problem}. It was set aside as {name}. A "
                                      "new game has started.", problem=str(e), name=moved.name)
        return None, lazy.gettext("Your saved game could not be resumed: {problem}. A new game has started.",
                                  problem=str(e))


def _kept_on(found: SavedGame):
    """When ``found`` was kept, as a `Message` parameter: a local `datetime` ("1 Dec at 16:46" in English, each
    language's own short date and time elsewhere; `rookcore.i18n`)."""
    return datetime.datetime.fromtimestamp(found.saved).replace(second=0, microsecond=0)


_DEFAULT_PATH: Any = object()


def start_game(deal: int | None = None, rules: Rules | None = None, own_path: pathlib.Path | None = _DEFAULT_PATH,
               deal_path: pathlib.Path | None = _DEFAULT_PATH) -> GameStart:
    """The game a new page starts with (the app's Play tab; bad files never raise), the learner's own game kept at
    ``own_path`` (default `game_path`; None: nothing kept) and a deal link's at ``deal_path`` (default `deal_game_path`;
    None: not kept) — `rookcore.learners.open_session` gives each learner their own:

    * without ``deal``: the kept game goes on ("Welcome back: …"; without a word while the learner has taken no
      action in it, `Table.game_started`, e.g. a page fetched by a health check: the visitor is new); a kept game
      that is over gives a new game with its rules, AI level and pace (saying so); a kept game that cannot be
      resumed is set aside and gives a new game, saying why;
    * with ``deal`` (a shared deal link): that deal, kept beside the learner's own game (`deal_game_path`), which
      it never replaces; a reload of the same link goes on with it. The AI level and pace come from the learner's
      own kept game. ``rules``: the link's rule set (``?variant=``; default CrowsNest), part of what the link names:
      a kept game of the same deal under other rules starts again. The learner's own game and a linked game are
      spoken of ("kept", "Welcome back") only once the learner has acted in them.

    Returns a `GameStart`; raises nothing for a bad or missing file.
    """
    main = game_path() if own_path is _DEFAULT_PATH else own_path
    own, problem = _kept(main, aside=deal is None)  # a deal link only reads the learner's own game
    prefs = dict(pending_rules=own.extra.get("pending_rules"), pace=own.extra.get("pace")) if own else {}
    if deal is not None:
        slot = deal_game_path() if deal_path is _DEFAULT_PATH else deal_path
        linked, _problem = _kept(slot)
        rules = rules or get_rules()
        extra = {"deal": deal}
        same = (linked is not None and linked.extra.get("deal") == deal
                and linked.table.rules.same_game(rules))
        note = (lazy.gettext("Your own game is kept: open the app without ?deal= to go on with it.")
                if own and own.table.game_started and not own.table.game.is_over else "")
        if same and not linked.table.game.is_over:
            t = linked.table
            ns, ew = t.game.scores
            welcome = (lazy.gettext("Welcome back to deal {deal}: your game goes on (hand {hand}, {ns} {ns_score} · "
                                    "{ew} {ew_score}; kept on {when}).", deal=deal, hand=t.hand_number, ns=_team(0),
                                    ew=_team(1), ns_score=ns, ew_score=ew, when=_kept_on(linked))
                       if t.game_started else note)
            return GameStart(t, True, welcome, linked.extra.get("pending_rules"), linked.extra.get("pace"), slot,
                             extra, True)
        level = own.table.level if own else "rules"
        return GameStart(Table(rules, deal=deal, level=level), welcome=note, pace=prefs.get("pace"), path=slot,
                         extra=extra)
    if own is None:
        return GameStart(Table(), welcome=problem, path=main)
    t = own.table
    ns, ew = t.game.scores
    if t.game.is_over:
        rules = t.next_game_rules(prefs["pending_rules"])
        scores = dict(ns=_team(0), ew=_team(1), ns_score=ns, ew_score=ew)
        if rules.same_game(t.rules):
            welcome = lazy.gettext("Your last game is over ({ns} {ns_score} · {ew} {ew_score}): a new game has started "
                                   "with the same settings.", **scores)
        else:
            welcome = lazy.gettext("Your last game is over ({ns} {ns_score} · {ew} {ew_score}): a new game has started "
                                   "with the rules you chose for it ({title}).", title=title_word(rules), **scores)
        return GameStart(Table(rules, level=t.level), welcome=welcome, pace=prefs["pace"], path=main, from_kept=True)
    if not t.game_started:  # no action of the learner's yet (a page fetched and never used): greeted as new
        return GameStart(t, True, "", path=main, from_kept=True, **prefs)
    welcome = lazy.gettext("Welcome back: your game goes on (hand {hand}, {ns} {ns_score} · {ew} {ew_score}; kept on "
                           "{when}). New game starts a fresh one.", hand=t.hand_number, ns=_team(0), ew=_team(1),
                           ns_score=ns, ew_score=ew, when=_kept_on(own))
    return GameStart(t, True, welcome, path=main, from_kept=True, **prefs)
