"""A game per learner, not per server: where each learner's kept game lives, and the clean-up of old ones.

The app's page holds a *learner id* in the browser's own storage (`widgets.learner`: localStorage key
``crowsnest-rook.learner``, 32 lowercase hexadecimal digits, a random UUID without its dashes) and tells the kernel;
the server keeps that learner's game and settings under it::

    <kept-game folder>/learners/<id>/game.json     the learner's own game (rookcore.saved's format)
    <kept-game folder>/learners/<id>/deal.json     the game of the last ?deal= link the learner followed

where the kept-game folder is the folder of `rookcore.saved.game_path` (``~/.crowsnest-rook``, or the folder of
``$ROOK_GAME_FILE``; set empty, nothing is kept for anyone). An id is checked strictly (`parse_learner_id`) before
it comes near a path, so no value a browser sends can name another folder.

Learners' folders untouched for `keep_days` days (``$ROOK_KEEP_DAYS``, default `DEFAULT_KEEP_DAYS`) are removed when
the app starts (`clean_old`, by the folder's modification time, which every save renews), and so are set-aside files
(``game.json.bad-<time>``) as old. A game kept by the release before learner ids (the single per-account file,
`rookcore.saved.game_path`, and its deal-link file) is adopted by the first learner who opens the app
(`adopt_single_file`): moved into that learner's folder once, so nobody loses a game on upgrade.

Under JupyterHub (issue 31) the learner is the signed-in user, not the browser: a JupyterHub single-user server
names its user in ``$JUPYTERHUB_USER``, which its kernels inherit, and its home folder is that user's own. `hub_user`
reads it, `hub_learner` turns it into the user's learner id (a name-based UUID, the same at every visit from any
browser), and `open_session` then ignores what a browser reports: the user's game and lesson progress live in
``~/.crowsnest-rook/learners/<hub_learner(user)>/`` in their own home. Binder (also a JupyterHub, but anonymous: one
launch's link may be shared by a class) keeps learners by browser; ``$ROOK_LEARNER_FROM`` (`LEARNER_FROM_ENV`)
overrides the choice (``hub`` or ``browser``).

This module has no UI: `widgets.learner` reads the id from the browser and `widgets.app` builds the page for a
`LearnerSession`.
"""
from __future__ import annotations

import logging
import os
import pathlib
import re
import shutil
import stat
import time
import uuid
from collections.abc import Mapping
from http.cookies import CookieError, SimpleCookie
from dataclasses import dataclass

from . import saved
from .i18n import _

__all__ = ["STORAGE_KEY", "LEARNER_COOKIE", "cookie_learner", "KEEP_DAYS_ENV", "DEFAULT_KEEP_DAYS", "LearnerSession",
           "parse_learner_id", "new_learner_id", "learners_dir", "learner_dir", "keep_days", "clean_old", "adopt_single_file",
           "open_session", "HUB_USER_ENV", "LEARNER_FROM_ENV", "hub_user", "hub_learner"]

STORAGE_KEY = "crowsnest-rook.learner"
"""The browser's localStorage key holding the learner id (`widgets/static/learner_id.js`)."""
KEEP_DAYS_ENV = "ROOK_KEEP_DAYS"
"""Environment variable: days a learner's kept game is kept after its last change (a number > 0; ``0`` or
``never``: never cleaned)."""
DEFAULT_KEEP_DAYS = 30.0
"""Days a learner's kept game is kept after its last change when ``$ROOK_KEEP_DAYS`` is not set (or not valid)."""
GAME_NAME = "game.json"
"""The learner's own game's file in their folder."""
DEAL_NAME = "deal.json"
"""The file of the learner's last deal-link game in their folder."""
HUB_USER_ENV = "JUPYTERHUB_USER"
"""Environment variable naming the signed-in user in a JupyterHub single-user server (set by JupyterHub's spawner;
the server's kernels inherit it)."""
LEARNER_FROM_ENV = "ROOK_LEARNER_FROM"
"""Environment variable choosing who the learner is: ``hub`` (the JupyterHub user, `hub_user`), ``browser`` (the
browser's learner id, `STORAGE_KEY`), or unset / empty for the default (the hub user under a JupyterHub other than
Binder, else the browser)."""
BINDER_ENVS = ("BINDER_LAUNCH_HOST", "BINDER_REPO_URL", "BINDER_REQUEST")
"""Environment variables BinderHub sets in a Binder session's server: there ``$JUPYTERHUB_USER`` is an anonymous
launch, whose link a whole class may share, so learners are told apart by browser."""
HUB_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "crowsnest-rook:jupyterhub-user")
"""The namespace of `hub_learner`'s name-based UUIDs (fixed: changing it would lose every hub user's kept game)."""
_ID = re.compile(r"[0-9a-f]{32}")
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_SECONDS_A_DAY = 86_400.0
_FROM_ENV = object()
_log = logging.getLogger(__name__)


def parse_learner_id(value: object) -> str | None:
    """The learner id that ``value`` (what a browser sent: any object) names, as 32 lowercase hexadecimal digits, or
    None if it is not one. Accepted: a str of exactly 32 hexadecimal digits, or a UUID written 8-4-4-4-12 with
    dashes (either case); nothing else (no spaces, no other length, no path characters). Raises nothing."""
    if not isinstance(value, str) or len(value) > 36:
        return None
    text = value.lower()
    if _ID.fullmatch(text):
        return text
    if _UUID.fullmatch(text):
        return text.replace("-", "")
    return None


LEARNER_COOKIE = "rook_learner"
"""The cookie that carries the browser's learner id with a page's request (set by the app's Voila template from
localStorage, `STORAGE_KEY`): read by the app's kernel (`widgets.page_request`) and the server's cap page."""


def cookie_learner(cookie: str | None) -> str | None:
    """The learner id in the Cookie header ``cookie`` (its `LEARNER_COOKIE`), checked
    (`rookcore.parse_learner_id`), or None when there is none or it is not a valid id. Raises nothing."""
    if not cookie:
        return None
    jar = SimpleCookie()
    try:
        jar.load(cookie)
    except CookieError:
        return None
    morsel = jar.get(LEARNER_COOKIE)
    return parse_learner_id(morsel.value) if morsel is not None else None


def new_learner_id() -> str:
    """A fresh random learner id (`uuid.uuid4`, 32 lowercase hexadecimal digits)."""
    return uuid.uuid4().hex


def hub_user(environ: Mapping[str, str] | None = None) -> str | None:
    """The signed-in JupyterHub user whom this server's pages belong to, or None when learners are told apart by
    browser. ``environ`` (default `os.environ`): a mapping of environment variables.

    The user is ``$JUPYTERHUB_USER`` (`HUB_USER_ENV`, not empty) when ``$ROOK_LEARNER_FROM`` (`LEARNER_FROM_ENV`) is
    ``hub``, or is unset / empty and no Binder variable (`BINDER_ENVS`) is set; ``browser`` gives None. Another value
    of ``$ROOK_LEARNER_FROM`` counts as unset and is said in the server's log. Raises nothing."""
    env = os.environ if environ is None else environ
    user = env.get(HUB_USER_ENV, "")
    choice = env.get(LEARNER_FROM_ENV, "").strip().lower()
    if choice not in ("", "hub", "browser"):
        _log.warning("$%s is hub or browser, not %r: the default is used.", LEARNER_FROM_ENV, choice[:40])
        choice = ""
    if not user or choice == "browser":
        return None
    if choice == "" and any(env.get(name) for name in BINDER_ENVS):
        return None
    return user


def hub_learner(user: str | None = None) -> str | None:
    """The learner id of the JupyterHub user ``user`` (default `hub_user`): a name-based UUID of the user name
    (`uuid.uuid5` in `HUB_NAMESPACE`, 32 lowercase hexadecimal digits, a valid `parse_learner_id`), the same at every
    visit; None when there is no such user (not under JupyterHub, or learners told apart by browser). Raises
    nothing."""
    user = hub_user() if user is None else user
    return uuid.uuid5(HUB_NAMESPACE, user).hex if user else None


def learners_dir() -> pathlib.Path | None:
    """The folder of every learner's folder: ``learners`` beside `rookcore.saved.game_path`
    (``~/.crowsnest-rook/learners``); None when nothing is kept (``$ROOK_GAME_FILE`` set empty). Raises nothing."""
    main = saved.game_path()
    return None if main is None else main.parent / "learners"


def learner_dir(learner_id: str, base: pathlib.Path | None = None) -> pathlib.Path:
    """The folder of the learner ``learner_id`` (a valid id: `parse_learner_id`) under ``base`` (default
    `learners_dir`). Raises ValueError for an id that is not valid (it never reaches a path) and when nothing is
    kept (no ``base``)."""
    checked = parse_learner_id(learner_id)
    if checked is None or checked != learner_id:
        raise ValueError(f"not a learner id: {str(learner_id)[:40]!r}")
    base = base if base is not None else learners_dir()
    if base is None:
        raise ValueError("nothing is kept on this server ($ROOK_GAME_FILE is empty)")
    return base / checked


def keep_days(value: str | None = None) -> tuple[float | None, str]:
    """Days a learner's game is kept after its last change: ``value`` (default ``$ROOK_KEEP_DAYS``), a number of
    days > 0 (``"7"``, ``"0.5"``), ``"0"`` or ``"never"`` for never (None). Returns (days or None, problem): an empty
    or missing value gives `DEFAULT_KEEP_DAYS` and ""; a value that is none of these gives `DEFAULT_KEEP_DAYS` and a
    one-line problem naming it. Raises nothing."""
    text = os.environ.get(KEEP_DAYS_ENV, "") if value is None else value
    text = text.strip().lower()
    if not text:
        return DEFAULT_KEEP_DAYS, ""
    if text == "never":
        return None, ""
    try:
        days = float(text)
    except ValueError:
        days = float("nan")
    if days == 0:
        return None, ""
    if not (0 < days < 1e6):  # also NaN and infinity
        return DEFAULT_KEEP_DAYS, (f"${KEEP_DAYS_ENV} is a number of days > 0, or 0 for never, not {text[:40]!r}: "
                                   f"games are kept {DEFAULT_KEEP_DAYS:g} days.")
    return days, ""


def _is_real_dir(path: pathlib.Path) -> bool:
    """True for a folder that is not a symbolic link (lstat)."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _old(path: pathlib.Path, cutoff: float) -> bool:
    """True if ``path`` (not followed) was last changed before ``cutoff`` (POSIX seconds)."""
    try:
        return os.lstat(path).st_mtime < cutoff
    except OSError:
        return False


def _remove_bad_files(folder: pathlib.Path, cutoff: float, removed: list) -> None:
    """Remove set-aside files (``*.bad-*``, `rookcore.saved.set_aside`) in ``folder`` older than ``cutoff``."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if ".bad-" in entry.name and entry.is_file(follow_symlinks=False) and _old(pathlib.Path(entry.path), cutoff):
            try:
                os.unlink(entry.path)
                removed.append(pathlib.Path(entry.path))
            except OSError:
                pass


def clean_old(days: float | None | object = _FROM_ENV, base: pathlib.Path | None = None, now: float | None = None,
              keep: str | None = None) -> list[pathlib.Path]:
    """Remove what is older than ``days`` (a number of days; default `keep_days`; None: nothing is removed) at ``now``
    (POSIX seconds,
    default the clock): each learner's folder under ``base`` (default `learners_dir`) last changed before then (its
    own modification time, which every save renews) except the folder of the learner ``keep`` (an id), and the
    set-aside files (``*.bad-*``) as old in the learners' folders and beside the single kept file. Only folders named
    by a valid learner id are touched, and no symbolic link is followed. Returns the paths removed. Raises nothing (a
    folder that cannot be removed stays)."""
    if days is _FROM_ENV:
        days, _problem = keep_days()
    base = base if base is not None else learners_dir()
    if days is None or base is None:
        return []
    cutoff = (time.time() if now is None else now) - days * _SECONDS_A_DAY
    removed: list[pathlib.Path] = []
    _remove_bad_files(base.parent, cutoff, removed)
    try:
        entries = list(os.scandir(base)) if _is_real_dir(base) else []
    except OSError:
        entries = []
    for entry in entries:
        folder = pathlib.Path(entry.path)
        if parse_learner_id(entry.name) != entry.name or not _is_real_dir(folder):
            continue
        if entry.name != keep and _old(folder, cutoff):
            shutil.rmtree(folder, ignore_errors=True)
            if not os.path.lexists(folder):
                removed.append(folder)
                continue
        _remove_bad_files(folder, cutoff, removed)
    return removed


def adopt_single_file(folder: pathlib.Path) -> bool:
    """Move the game kept by the release before learner ids (`rookcore.saved.game_path`, or its previous
    release's pickle ``game.pickle``; and its deal-link file `rookcore.saved.deal_game_path`) into the learner's
    ``folder`` (``game.json``, ``deal.json``), once: only when the learner has no game of their own yet, and never
    over a file (the first learner to come takes it; another learner at the same moment finds it gone). The old
    file's page claim (``<file>.page``) is removed. Returns True if a game was moved. Raises nothing."""
    main = saved.game_path()
    if main is None:
        return False
    moved = False
    sources = [(main, folder / GAME_NAME)]
    if saved.GAME_FILE_ENV not in os.environ and main.suffix == ".json":
        sources.append((main.with_suffix(".pickle"), folder / GAME_NAME))  # rookcore.saved reads it as such
    deal = saved.deal_game_path()
    if deal is not None:
        sources.append((deal, folder / DEAL_NAME))
    for source, target in sources:
        if not source.is_file() or source.is_symlink() or os.path.lexists(target):
            continue
        try:
            folder.mkdir(parents=True, exist_ok=True)
            os.link(source, target)  # fails if the target exists: never over another learner's file
            os.unlink(source)
        except OSError:
            continue
        moved = True
        try:
            os.unlink(source.with_name(source.name + ".page"))
        except OSError:
            pass
    return moved


@dataclass(frozen=True)
class LearnerSession:
    """Where one page keeps its games: ``learner`` (the id, or None for a page whose browser gave none), ``game``
    (the learner's own game's file, None: not kept), ``deal`` (the file of a ``?deal=`` link's game, None: not
    kept), ``note`` (a quiet sentence for the page, e.g. why nothing is kept; "" for none) and ``adopted`` (the game
    of the single per-account file was moved in now)."""

    learner: str | None
    game: pathlib.Path | None
    deal: pathlib.Path | None
    note: str = ""
    adopted: bool = False

    @property
    def kept(self) -> bool:
        """bool: the learner's own game is kept for their next visit."""
        return self.game is not None


def open_session(learner_id: object, stored: bool = True, now: float | None = None) -> LearnerSession:
    """The session of a page whose browser reported ``learner_id`` (any object; `parse_learner_id` checks it) and
    ``stored`` (the browser keeps it: False when its storage is blocked). At the app's start: old learners' folders
    and set-aside files are cleaned (`clean_old`, at ``now``; ``$ROOK_KEEP_DAYS`` not valid: the default, with a
    warning in the server's log), and the single per-account game of the previous
    layout is adopted by this learner if they have none (`adopt_single_file`).

    A missing or bad id, or one the browser cannot keep, gives a session that keeps nothing (a game no later page
    could find again), with a note saying so; so does a server that keeps nothing (``$ROOK_GAME_FILE`` empty, no
    note: that is the operator's choice). Under JupyterHub (`hub_user`) the signed-in user is the learner whatever
    the browser reported (``learner_id`` and ``stored`` are not used): the session of `hub_learner`, in their own
    home folder. Returns a `LearnerSession`; raises nothing."""
    base = learners_dir()
    hub = hub_learner()
    if hub is not None:
        learner_id, stored = hub, True
    checked = parse_learner_id(learner_id)
    if base is None:
        return LearnerSession(checked, None, None)
    if checked is None or not stored:
        return LearnerSession(checked, None, None, _("This browser keeps no learner id for this app, so the game on "
                                                     "this page is not kept for your next visit."))
    days, problem = keep_days()
    if problem:
        _log.warning(problem)  # the operator's setting: said in the server's log, not to every learner
    clean_old(days, base, now, keep=checked)
    folder = learner_dir(checked, base)
    adopted = adopt_single_file(folder) if not os.path.lexists(folder / GAME_NAME) else False
    return LearnerSession(checked, folder / GAME_NAME, folder / DEAL_NAME, "", adopted)
