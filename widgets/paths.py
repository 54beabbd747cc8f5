"""Where the app reads and writes the record files that a learner names by typing a path (issue 31 item 6).

The app can be served to a class (the README's command listens on every interface, and it may run as root), so a
typed path must not reach the whole file system, nor another learner's files:

- **Saving** (the Play tab's and Replay's Save-to) writes only in the page's own records folder (`records_root`):
  the learner's, ``<kept-game folder>/learners/<id>/records/`` (beside their kept game, `rookcore.learners`'
  layout: ``~/.crowsnest-rook/learners/<id>/records/``; under JupyterHub in the signed-in user's home), once the
  page knows its learner (`use_session`). A page with no learner (its browser keeps no id, or the server keeps
  nothing: ``$ROOK_GAME_FILE`` empty) saves in a folder of that page alone, removed with its kernel. So a learner
  can replace neither another learner's record nor the teacher's.
- **Reading** (Replay's File box, a ``?record=<path>.json`` link) opens a record of the page's own records folder, or
  with a path that starts ``class/`` a record of the **class folder** (`class_root`): ``$ROOK_CLASS_DIR`` if set,
  else ``class/`` in the app's folder (`files_root`: ``$ROOK_FILES_ROOT`` if set, else the kernel's working
  directory, ``notebooks/`` with the README's command). The teacher puts the records a link hands the class there;
  the app never writes in it (`record_path` refuses it).

A path is resolved against its folder and refused when it lands outside (``..``, an absolute path elsewhere, a
symbolic link out). Files elsewhere go through the browser (Upload, Download).

One kernel serves one page, so the page's records folder is this module's state, set by the app when the page's
learner is known (`use_session`; `use_folder` for a script or a test).
"""
from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

from rookcore import records
from rookcore.i18n import _

from .clicks import SecondClick

__all__ = ["FILES_ROOT_ENV", "CLASS_DIR_ENV", "CLASS_PREFIX", "RECORDS_FOLDER", "files_root", "class_root",
           "records_root", "use_session", "use_folder", "own_record", "waits_for_learner", "link_waited",
           "app_path", "record_path", "readable_record", "shown_path", "brief", "ReplaceGuard"]

FILES_ROOT_ENV = "ROOK_FILES_ROOT"
CLASS_DIR_ENV = "ROOK_CLASS_DIR"
"""Environment variable: the class folder (`class_root`), read-only for the app."""
CLASS_PREFIX = "class"
"""The first part of a typed path that names a record of the class folder (``class/week1.json``)."""
RECORDS_FOLDER = "records"
"""The folder of a learner's saved records in their learner folder (``learners/<id>/records``)."""
BRIEF_CHARS = 80
"""Longest file name a message repeats in full (`brief`)."""

_own: Path | None = None
"""The page's records folder once set (`use_session`, `use_folder`); None: the page's own temporary folder."""
_learner_folder: Path | None = None
"""The learner's folder holding `_own` (its modification time is renewed on each save, see `record_path`)."""
_page_folder: Path | None = None
"""The folder of a page with no learner, made at its first use and removed when the kernel ends."""
_known = False
_waited = False
"""Whether a link to a record of the learner's own was held back until the learner is known (`waits_for_learner`)."""
"""Whether the page's records folder is settled (`use_session` or `use_folder` called): until then a link to a
record of the learner's own waits (`waits_for_learner`)."""


def brief(name: str, limit: int = BRIEF_CHARS) -> str:
    """``name`` as a message repeats it: whole up to ``limit`` characters, else its start and end around "…" (a
    5,000-character name must not fill the page). Raises nothing."""
    if len(name) <= limit:
        return name
    tail = limit // 4
    return f"{name[:limit - tail - 1]}…{name[-tail:]}"


def files_root() -> Path:
    """The app's folder (a resolved absolute `Path`): ``$ROOK_FILES_ROOT`` if set and not empty, else the current
    working directory. It holds the class folder unless ``$ROOK_CLASS_DIR`` names another (`class_root`). Raises
    nothing."""
    return Path(os.environ.get(FILES_ROOT_ENV) or os.getcwd()).resolve()


def class_root() -> Path:
    """The class folder (a resolved absolute `Path`, which may not exist): ``$ROOK_CLASS_DIR`` if set and not empty,
    else `CLASS_PREFIX` in `files_root`. The teacher's records; the app reads them and never writes there. Raises
    nothing."""
    return Path(os.environ.get(CLASS_DIR_ENV) or files_root() / CLASS_PREFIX).resolve()


def use_session(session) -> None:
    """Save this page's records in the folder of ``session`` (a `rookcore.learners.LearnerSession`): the learner's
    `RECORDS_FOLDER` beside their kept game when the session keeps it, else a folder of this page alone. None (a page
    built without a learner session: a script, a test) leaves the folder as it is. Raises nothing."""
    global _own, _learner_folder, _known
    _known = True
    if session is None:
        return
    game = getattr(session, "game", None)
    if getattr(session, "learner", None) is not None and game is not None:
        _learner_folder = Path(game).parent
        _own = _learner_folder / RECORDS_FOLDER
    else:
        _own = _learner_folder = None


def use_folder(folder: str | os.PathLike | None) -> None:
    """Save this page's records in ``folder`` (a script's or a test's own choice; None: the page's own temporary
    folder, as for a page with no learner). Raises nothing."""
    global _own, _learner_folder, _known
    _own = None if folder is None else Path(folder)
    _learner_folder, _known = None, True


def own_record(name: object) -> bool:
    """Whether a ``?record=`` link's ``name`` (any object) names a record file of the page's own records folder: a
    str ending in ``.json`` that is not ``class/…``. Raises nothing."""
    if not isinstance(name, str) or not name.strip().lower().endswith(".json"):
        return False
    parts = Path(name.strip()).parts
    return not (parts and parts[0] == CLASS_PREFIX)


def waits_for_learner(name: object) -> bool:
    """Whether a ``?record=`` link's ``name`` names a record of the learner's own (`own_record`) while the page does
    not know its learner yet: then the app opens it with the learner's game (`widgets.app.RookApp.open_game` asks
    `link_waited`). Raises nothing."""
    global _waited
    if not _known and own_record(name):
        _waited = True
        return True
    return False


def link_waited() -> bool:
    """True once after `waits_for_learner` held a link back and the page's records folder has been settled since
    (the app follows the link now); False otherwise. Raises nothing."""
    global _waited
    if _waited and _known:
        _waited = False
        return True
    return False


def records_root() -> Path:
    """The page's records folder (a resolved absolute `Path`, made if missing): the learner's (`use_session`), the
    one `use_folder` set, or this page's own temporary folder. Raises OSError when it cannot be made."""
    global _page_folder
    if _own is not None:
        _own.mkdir(parents=True, exist_ok=True)
        return _own.resolve()
    if _page_folder is None or not _page_folder.is_dir():
        _page_folder = Path(tempfile.mkdtemp(prefix="rook-page-records-"))
        atexit.register(shutil.rmtree, _page_folder, True)
    return _page_folder.resolve()


def _root_of(typed: str) -> tuple[Path, str, bool]:
    """The folder a typed path is read from and the path inside it: (the class folder, the rest, True) for a
    relative path starting with `CLASS_PREFIX` or an absolute path into the class folder (and not into the records
    folder), else (`records_root`, the path, False). Raises OSError when the records folder cannot be made, or the
    path cannot be resolved."""
    path = Path(typed)
    parts = path.parts
    own = records_root()
    if not path.is_absolute():
        if parts and parts[0] == CLASS_PREFIX:
            return class_root(), str(Path(*parts[1:])) if len(parts) > 1 else "", True
        return own, typed, False
    resolved = path.resolve()
    if resolved != own and own not in resolved.parents:
        klass = class_root()
        if resolved == klass or klass in resolved.parents:
            return klass, typed, True
    return own, typed, False


def app_path(typed: str) -> Path:
    """The file that the path ``typed`` into the app names: in the class folder for ``class/…`` (`class_root`), else
    in the page's records folder (`records_root`), resolved (symbolic links followed). Returns an absolute `Path`
    inside that folder. Raises ValueError, with the typed path in the message (not the folder's place on the server,
    which every user of the page would see), when it is empty or resolves outside its folder (or the records folder
    cannot be made). Touches no file but the records folder."""
    typed = typed.strip()
    if not typed:
        raise ValueError(_("enter a file name"))
    if "\x00" in typed:
        raise ValueError(_("the file name contains a NUL character"))
    try:
        root, inside, in_class = _root_of(typed)
        path = (root / Path(inside).expanduser()).resolve()
        path.exists()  # raises for a name too long for the system (later checks would too)
    except (OSError, RuntimeError) as e:  # a name too long for the system, a symbolic-link loop, no records folder
        raise ValueError(_("{path}: not a usable file name ({error})", path=brief(typed),
                           error=getattr(e, "strerror", None) or e)) from e
    if path != root and root not in path.parents:
        if in_class:
            raise ValueError(_("{path}: not a file of the class folder", path=brief(typed)))
        raise ValueError(_("{path}: the app only opens and saves files inside your own records folder (type a path "
                           "in it, e.g. hands/hand-1.json, or class/… for the class's records; use Upload / Download "
                           "for files elsewhere)", path=brief(typed)))
    return path


def shown_path(path: str | os.PathLike) -> str:
    """How the page names a record file: its path in the page's records folder (``hands/hand-1.json``), or
    ``class/…`` in the class folder, so that the server's own folders are not shown to every user; a path in neither
    is shown as given. Raises nothing."""
    p = Path(path).resolve()
    with_prefix = ((_current_root(), ""), (class_root(), CLASS_PREFIX + "/"))
    for root, prefix in with_prefix:
        if root is None:
            continue
        try:
            return prefix + p.relative_to(root).as_posix()
        except ValueError:
            continue
    return str(path)


def _current_root() -> Path | None:
    """`records_root` if it can be had, else None (for `shown_path`, which raises nothing)."""
    try:
        return records_root()
    except OSError:
        return None


def record_path(typed: str) -> Path:
    """`app_path` for saving a record, always in the page's own records folder: a name without an extension gets
    ``.json`` (``hands`` saves ``hands.json``, not a file that would stand where the ``hands/`` folder goes), but an
    existing folder is refused (ValueError naming it as typed, not by its place on the server). Raises ValueError,
    as `app_path` does, for a path of the class folder (``class/…``: the teacher's, read-only for the app), for
    another extension than ``.json`` (records are JSON, record-format.md), for a name ending in ``/`` (a folder that
    does not exist yet), a hidden name, and for an existing file that is not a Rook record. Renews the learner's
    folder's modification time, so that a learner who only saves records keeps them (`rookcore.learners.clean_old`
    removes folders by that time)."""
    path = app_path(typed)
    shown = brief(typed.strip())
    if _root_of(typed.strip())[2] or path == class_root() or class_root() in path.parents:
        raise ValueError(_("{path}: the class folder holds the teacher's records and cannot be written: save under "
                           "another name, e.g. hands/hand-1.json", path=shown))
    if path.is_dir():
        name = brief(typed.strip().rstrip("/" + os.sep) or ".")
        raise ValueError(_("{name} is a folder: enter a file name, e.g. {name}/hand-1.json", name=name))
    if typed.strip().endswith(("/", os.sep)):
        raise ValueError(_("{path} names a folder: add a file name, e.g. {path}hand-1.json", path=shown))
    if not path.suffix:
        path = _with_json(path)
    if path.name.startswith("."):
        raise ValueError(_("{path}: a name starting with a dot makes a hidden file; choose a name like hand-1.json",
                           path=shown))
    if path.suffix.lower() != ".json":
        raise ValueError(_("{path}: records are saved as .json files; choose a name ending in .json", path=shown))
    if path.exists() and not path.is_file():  # a FIFO or a device: writing to it would block or go nowhere
        raise ValueError(_("{path} is not an ordinary file: choose another name", path=shown))
    if path.is_file() and not _is_record(path):
        raise ValueError(_("{name} is a file of another kind, not a Rook record: choose another name",
                           name=brief(path.name)))
    if _learner_folder is not None:
        try:
            os.utime(_learner_folder)
        except OSError:
            pass
    return path


def readable_record(typed: str) -> Path:
    """`app_path` for loading a record (of the page's records folder, or ``class/…`` of the class folder): the file it
    names (with ``.json`` added to a name without an extension when only that file exists, as `record_path` adds it
    on saving), checked before it is opened. Raises ValueError naming the file as typed (`brief`) when it does not
    exist, is a folder or not an ordinary file (a FIFO would block the page); the caller reads and validates the
    record itself (`rookcore.cli.read_record` with the app's size cap)."""
    path = app_path(typed)
    shown = brief(typed.strip())
    if not path.exists() and not path.suffix and _with_json(path).exists():
        path = _with_json(path)  # Save adds .json to such a name (`record_path`): Load does too
    if not path.exists():
        if _root_of(typed.strip())[2]:
            raise ValueError(_("{path}: no such file in the class folder", path=shown))
        raise ValueError(_("{path}: no such file in your records folder (a record of the class folder is named "
                           "class/…)", path=shown))
    if path.is_dir():
        raise ValueError(_("{path} is a folder: type the path of a .json record file in it", path=shown))
    if not path.is_file():
        raise ValueError(_("{path} is not an ordinary file: not loaded", path=shown))
    return path


def _with_json(path: Path) -> Path:
    """``path`` with ``.json`` added to its name (``hands/hand-1`` → ``hands/hand-1.json``)."""
    return path.with_name(path.name + ".json")


def _is_record(path: Path) -> bool:
    """Whether the ordinary file at ``path`` reads as a Rook hand or game record within the app's size cap
    (`rookcore.cli.read_record`, which reads no more than the cap)."""
    from rookcore.cli import read_record  # noqa: PLC0415 - the engine's capped, validating file reader

    try:
        read_record(str(path), records.MAX_RECORD_BYTES)
    except ValueError:  # RecordError (a ValueError) also reports a file that cannot be read
        return False
    return True


class ReplaceGuard:
    """Asks before a Save replaces a file that this panel has not written itself (an earlier session's hand 1
    under the default name ``hands/hand-1.json``, say): the first Save to such a file only asks; a second Save to
    the same path replaces it. Files this panel wrote are replaced without asking."""

    CONFIRM_AFTER = SecondClick.WAIT
    """Seconds between the question and a Save that confirms it: the second click of a double click comes sooner
    and only repeats the question (`widgets.clicks.SecondClick`)."""

    def __init__(self) -> None:
        self._written: set[Path] = set()
        self._confirm = SecondClick()

    def question(self, path: Path, button: str = "Save") -> str | None:
        """None if saving to ``path`` (as given by `app_path`) may go ahead, else the question to show, naming the
        ``button`` to click again (a later Save to ``path``, `CONFIRM_AFTER` seconds on, goes ahead). Raises
        nothing."""
        if not path.is_file() or path in self._written:
            return None
        self._confirm.wait = self.CONFIRM_AFTER
        if self._confirm.confirmed(path):
            return None
        return _("{path} already exists: click {button} again to replace it, or change the name",
                 path=brief(shown_path(path)), button=button)

    def saved(self, path: Path) -> None:
        """Note that this panel wrote ``path`` (later saves to it replace it without asking)."""
        self._written.add(path)
        self._confirm.forget()
