"""Where the app may read and write files that a user names by typing a path.

The app can be served to other machines (the README's command listens on every interface, and it may run as
root), so a path typed into a File or Save-to box must not reach the whole file system: it is resolved against
the app's folder and refused if it lands outside it (``..``, an absolute path elsewhere, or a symbolic link out).
Files elsewhere go through the browser instead (Upload, Download).

The app's folder is the environment variable ``ROOK_FILES_ROOT`` if set, else the kernel's working directory.
"""
from __future__ import annotations

import os
from pathlib import Path

from rookcore import records
from rookcore.i18n import _

from .clicks import SecondClick

__all__ = ["FILES_ROOT_ENV", "files_root", "app_path", "record_path", "readable_record", "shown_path", "brief",
           "ReplaceGuard"]

FILES_ROOT_ENV = "ROOK_FILES_ROOT"
BRIEF_CHARS = 80
"""Longest file name a message repeats in full (`brief`)."""


def brief(name: str, limit: int = BRIEF_CHARS) -> str:
    """``name`` as a message repeats it: whole up to ``limit`` characters, else its start and end around "…" (a
    5,000-character name must not fill the page). Raises nothing."""
    if len(name) <= limit:
        return name
    tail = limit // 4
    return f"{name[:limit - tail - 1]}…{name[-tail:]}"


def files_root() -> Path:
    """The app's folder (a resolved absolute `Path`): ``$ROOK_FILES_ROOT`` if set and not empty, else the current
    working directory. Raises nothing."""
    return Path(os.environ.get(FILES_ROOT_ENV) or os.getcwd()).resolve()


def app_path(typed: str) -> Path:
    """The file that the path ``typed`` into the app names (relative paths start at `files_root`), resolved
    (symbolic links followed). Returns an absolute `Path` inside the app's folder. Raises ValueError, with the
    typed path in the message (not the folder's place on the server, which every user of the page would see), when
    it resolves outside that folder or is empty. Touches no file."""
    typed = typed.strip()
    if not typed:
        raise ValueError(_("enter a file name"))
    if "\x00" in typed:
        raise ValueError(_("the file name contains a NUL character"))
    root = files_root()
    try:
        path = (root / Path(typed).expanduser()).resolve()
        path.exists()  # raises for a name too long for the system (later checks would too)
    except (OSError, RuntimeError) as e:  # a name too long for the system, a symbolic-link loop
        raise ValueError(_("{path}: not a usable file name ({error})", path=brief(typed),
                           error=getattr(e, "strerror", None) or e)) from e
    if path != root and root not in path.parents:
        raise ValueError(_("{path}: the app only opens and saves files inside its folder (type a path in it, e.g. "
                           "hands/hand-1.json; use Upload / Download for files elsewhere)", path=brief(typed)))
    return path


def shown_path(path: str | os.PathLike) -> str:
    """How the page names a file of the app's folder: its path relative to `files_root` (``hands/hand-1.json``), so
    that the server's own folders are not shown to every user; a path outside the folder is shown as given.
    Raises nothing."""
    p = Path(path).resolve()
    root = files_root()
    try:
        return p.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def record_path(typed: str) -> Path:
    """`app_path` for saving a record: a name without an extension gets ``.json`` (``hands`` saves
    ``hands.json``, not a file that would stand where the ``hands/`` folder goes), but an existing folder is refused
    (ValueError naming it as typed, not by its place on the server). Records are JSON (record-format.md), and the
    app's folder also holds the app and its lessons (``app.ipynb``, ``tutorial/*.ipynb``), which a save must never replace: raises ValueError, as
    `app_path` does, for another extension than ``.json``, for a name ending in ``/`` (a folder that does not
    exist yet), and for an existing file that is not a Rook record."""
    path = app_path(typed)
    shown = brief(typed.strip())
    if path.is_dir():
        name = brief(typed.strip().rstrip("/" + os.sep) or ".")
        raise ValueError(f"{name} is a folder: enter a file name, e.g. {name}/hand-1.json")
    if typed.strip().endswith(("/", os.sep)):
        raise ValueError(f"{shown} names a folder: add a file name, e.g. {shown}hand-1.json")
    if not path.suffix:
        path = _with_json(path)
    if path.name.startswith("."):
        raise ValueError(f"{shown}: a name starting with a dot makes a hidden file; choose a name like hand-1.json")
    if path.suffix.lower() != ".json":
        raise ValueError(f"{shown}: records are saved as .json files; choose a name ending in .json")
    if path.exists() and not path.is_file():  # a FIFO or a device: writing to it would block or go nowhere
        raise ValueError(f"{shown} is not an ordinary file: choose another name")
    if path.is_file() and not _is_record(path):
        raise ValueError(f"{brief(path.name)} is a file of another kind, not a Rook record: choose another name")
    return path


def readable_record(typed: str) -> Path:
    """`app_path` for loading a record: the file it names (with ``.json`` added to a name without an extension when
    only that file exists, as `record_path` adds it on saving), checked before it is opened. Raises ValueError naming
    the file as typed (`brief`) when it does not exist, is a folder or not an ordinary file (a FIFO would block
    the page); the caller reads and validates the record itself (`rookcore.cli.read_record` with the app's size
    cap)."""
    path = app_path(typed)
    shown = brief(typed.strip())
    if not path.exists() and not path.suffix and _with_json(path).exists():
        path = _with_json(path)  # Save adds .json to such a name (`record_path`): Load does too
    if not path.exists():
        raise ValueError(f"{shown}: no such file in the app's folder")
    if path.is_dir():
        raise ValueError(f"{shown} is a folder: type the path of a .json record file in it")
    if not path.is_file():
        raise ValueError(f"{shown} is not an ordinary file: not loaded")
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
