"""The game in play, kept between visits: the app saves its `Table` after every change and resumes it on the next
page load, so a reload, a closed tab or a restarted Binder session (same home folder) does not lose the game.

The file (`game_path`: ``$ROOK_GAME_FILE`` if set, ``""`` keeping nothing; else ``~/.crowsnest-rook/game.pickle``)
is a pickle (the standard library's object serialisation) of ``{"format": FORMAT, "code": fingerprint of this
package's source, "saved": POSIX seconds, "table": Table, "extra": dict}``. A game started from a shared deal link is
kept beside it (`deal_game_path`), so following a link never replaces the learner's own game; the newest page to
open a game keeps it (`claim`). The file is written by this package into the user's own folder and read back with
an unpickler that builds nothing but this package's classes and ``random.Random`` (`_GameUnpickler`: a crafted file
cannot run code). A file from other code (another version of the package) is refused rather than trusted, and
every loaded game must pass `check_table`: its hand on show replays from its record under the engine's rules to the
same position, and the game's score is the sum of its scored hands. `start_game` picks the game a new page starts
with. Hand records (rules.md, record-format.md) stay the way to keep a hand for good; this file only bridges one
visit to the next.
"""
from __future__ import annotations

import hashlib
import io
import os
import pathlib
import pickle
import tempfile
import time
from dataclasses import dataclass, field
from functools import lru_cache

from .rules import Rules, get_rules
from .table import Table

__all__ = ["FORMAT", "GAME_FILE_ENV", "SavedGame", "SavedGameError", "GameStart", "game_path", "deal_game_path",
           "save_table", "load_table", "check_table", "claim", "keeper", "start_game"]

FORMAT = "crowsnest-table/1"
"""The saved file's format tag."""
GAME_FILE_ENV = "ROOK_GAME_FILE"
"""Environment variable naming the file the game is kept in (empty: keep nothing)."""


class SavedGameError(ValueError):
    """A saved game that cannot be resumed: unreadable, from other code, or not a consistent game. The message
    says why in plain words."""


@dataclass
class SavedGame:
    """A resumed game: ``table`` (the `Table`), ``saved`` (POSIX seconds when it was written) and ``extra`` (the
    dict the app saved with it, e.g. the rules chosen for the next game)."""

    table: Table
    saved: float
    extra: dict = field(default_factory=dict)


def game_path() -> pathlib.Path | None:
    """Where the game is kept: ``$ROOK_GAME_FILE`` if set (empty: None, nothing is kept), else
    ``~/.crowsnest-rook/game.pickle``. Returns a Path or None; raises nothing."""
    if GAME_FILE_ENV in os.environ:
        return pathlib.Path(os.environ[GAME_FILE_ENV]) if os.environ[GAME_FILE_ENV] else None
    return pathlib.Path.home() / ".crowsnest-rook" / "game.pickle"


def deal_game_path() -> pathlib.Path | None:
    """Where a game started from a shared deal link (``?deal=``) is kept: beside `game_path`, named
    ``<name>-deal<suffix>`` (``~/.crowsnest-rook/game-deal.pickle``); None when nothing is kept."""
    main = game_path()
    return None if main is None else main.with_name(f"{main.stem}-deal{main.suffix}")


def _keeper_path(path: str | os.PathLike) -> pathlib.Path:
    path = pathlib.Path(path)
    return path.with_name(path.name + ".page")


def claim(path: str | os.PathLike, page: str) -> None:
    """Make the page named ``page`` (a str, e.g. a UUID) the one that keeps the game at ``path``: the newest page to
    open a game keeps it, and an older page (another tab, or a page left by a reload whose AIs still move) stops
    saving over it (`keeper`). Written beside the game (``<path>.page``). Raises OSError if it cannot be written."""
    _replace_file(_keeper_path(path), page.encode("utf-8"))


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


def keeper(path: str | os.PathLike | None) -> str | None:
    """The page that keeps the game at ``path`` (`claim`), or None if none has claimed it. Raises nothing."""
    try:
        return _keeper_path(path).read_text(encoding="utf-8") if path is not None else None
    except (OSError, ValueError):
        return None


class _GameUnpickler(pickle.Unpickler):
    """Unpickles a saved game building only this package's classes and ``random.Random`` (the pickle documentation's
    "restricting globals"): any other global a file names (``os.system``, say) is refused before it is built."""

    def find_class(self, module: str, name: str):
        """The class ``module.name`` if it is allowed, else raises pickle.UnpicklingError naming it."""
        if "." not in name:
            if module == "random" and name == "Random":
                return super().find_class(module, name)
            if module == "rookcore" or module.startswith("rookcore."):
                found = super().find_class(module, name)
                if isinstance(found, type) and found.__module__.startswith("rookcore"):
                    return found
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a saved game")


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """SHA-256 (hex, 16 characters) of this package's Python source: a saved game is resumed only by the code
    that wrote it, since a pickle from other code could load into objects whose meaning changed."""
    digest = hashlib.sha256()
    root = pathlib.Path(__file__).resolve().parent
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def save_table(table: Table, path: str | os.PathLike | None = None, extra: dict | None = None) -> pathlib.Path | None:
    """Write ``table`` (and the picklable dict ``extra``) to ``path`` (default `game_path`; None there: nothing is
    kept and None is returned). The file is replaced at once (written beside it, then renamed), so a reader never
    sees half a file. Returns the path written. Raises OSError if the folder or file cannot be written, and
    pickle.PicklingError, TypeError or AttributeError if ``extra`` holds something that cannot be pickled."""
    target = pathlib.Path(path) if path is not None else game_path()
    if target is None:
        return None
    doc = {"format": FORMAT, "code": code_fingerprint(), "saved": time.time(), "table": table,
           "extra": dict(extra or {})}
    _replace_file(target, pickle.dumps(doc, protocol=pickle.HIGHEST_PROTOCOL))
    return target


def load_table(path: str | os.PathLike | None = None) -> SavedGame | None:
    """The game saved at ``path`` (default `game_path`), or None when there is none (no file, or keeping is off).

    Raises `SavedGameError` (nothing is changed, the file is left as it is) when the file cannot be read, is not
    a saved game, was written by other code (`code_fingerprint`), or fails `check_table`."""
    source = pathlib.Path(path) if path is not None else game_path()
    if source is None or not source.exists():
        return None
    try:
        data = source.read_bytes()
    except OSError as e:
        raise SavedGameError(f"cannot read {source}: {e.strerror or e}") from e
    try:
        doc = _GameUnpickler(io.BytesIO(data)).load()
    except Exception as e:  # noqa: BLE001 - any damage to the file: a truncated pickle raises many kinds
        raise SavedGameError(f"{source} is not a saved game ({type(e).__name__})") from e
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SavedGameError(f"{source} is not a saved game of this app")
    if doc.get("code") != code_fingerprint():
        raise SavedGameError("it was saved by another version of the app")
    table = doc.get("table")
    if not isinstance(table, Table):
        raise SavedGameError(f"{source} holds no game")
    check_table(table)
    return SavedGame(table=table, saved=float(doc.get("saved", 0.0)), extra=dict(doc.get("extra") or {}))


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


@dataclass
class GameStart:
    """The game a new page's Play panel starts with (`start_game`): ``table``; ``resumed`` (a kept game goes on);
    ``welcome`` (the status line's first sentence, "" for none); ``pending_rules`` and ``pace`` (None: the
    defaults); where it is kept: ``path`` (None: `game_path`) and ``extra`` (kept with it);
    ``from_kept``: the rules, level and pace come from a kept game (Settings shows them)."""

    table: Table
    resumed: bool = False
    welcome: str = ""
    pending_rules: Rules | None = None
    pace: float | None = None
    path: pathlib.Path | None = None
    extra: dict = field(default_factory=dict)
    from_kept: bool = False


def _kept(path: pathlib.Path | None) -> tuple[SavedGame | None, str]:
    """(the game kept at ``path`` or None, the sentence saying why it cannot be resumed or "")."""
    if path is None:
        return None, ""
    try:
        return load_table(path), ""
    except SavedGameError as e:
        return None, f"Your saved game could not be resumed: {e}. A new game has started."


def _kept_on(found: SavedGame) -> str:
    """When ``found`` was kept, in words ("1 Dec at 16:46")."""
    kept = time.localtime(found.saved)
    return f"{kept.tm_mday} {time.strftime('%b at %H:%M', kept)}"


def start_game(deal: int | None = None, rules: Rules | None = None) -> GameStart:
    """The game a new page starts with (the app's Play tab; bad files never raise):

    * without ``deal``: the kept game goes on ("Welcome back: …"; without a word while the learner has taken no
      action in it, `Table.game_started`, e.g. a page fetched by a health check: the visitor is new); a kept game
      that is over gives a new game with its rules, AI level and pace (saying so); a kept game that cannot be
      resumed gives a new game and says why;
    * with ``deal`` (a shared deal link): that deal, kept beside the learner's own game (`deal_game_path`), which
      it never replaces; a reload of the same link goes on with it. The AI level and pace come from the learner's
      own kept game. ``rules``: the link's rule set (``?variant=``; default CrowsNest), part of what the link names:
      a kept game of the same deal under other rules starts again. The learner's own game and a linked game are
      spoken of ("kept", "Welcome back") only once the learner has acted in them.

    Returns a `GameStart`; raises nothing for a bad or missing file.
    """
    main = game_path()
    own, problem = _kept(main)
    prefs = dict(pending_rules=own.extra.get("pending_rules"), pace=own.extra.get("pace")) if own else {}
    if deal is not None:
        slot = deal_game_path()
        linked, _problem = _kept(slot)
        rules = rules or get_rules()
        extra = {"deal": deal}
        same = (linked is not None and linked.extra.get("deal") == deal
                and linked.table.rules.same_game(rules))
        note = ("Your own game is kept: open the app without ?deal= to go on with it."
                if own and own.table.game_started and not own.table.game.is_over else "")
        if same and not linked.table.game.is_over:
            t = linked.table
            ns, ew = t.game.scores
            welcome = (f"Welcome back to deal {deal}: your game goes on (hand {t.hand_number}, N–S {ns} · E–W {ew}; "
                       f"kept on {_kept_on(linked)})." if t.game_started else note)
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
        settings = "the same settings" if rules.same_game(t.rules) else f"the rules you chose for it ({rules.title})"
        return GameStart(Table(rules, level=t.level), welcome=f"Your last game is over (N–S {ns} · E–W {ew}): a new "
                         f"game has started with {settings}.", pace=prefs["pace"], path=main, from_kept=True)
    if not t.game_started:  # no action of the learner's yet (a page fetched and never used): greeted as new
        return GameStart(t, True, "", path=main, from_kept=True, **prefs)
    return GameStart(t, True, f"Welcome back: your game goes on (hand {t.hand_number}, N–S {ns} · E–W {ew}; kept "
                     f"on {_kept_on(own)}). New game starts a fresh one.", path=main, from_kept=True,
                     **prefs)
