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

__all__ = ["FILES_ROOT_ENV", "files_root", "app_path", "ReplaceGuard"]

FILES_ROOT_ENV = "ROOK_FILES_ROOT"


def files_root() -> Path:
    """The app's folder (a resolved absolute `Path`): ``$ROOK_FILES_ROOT`` if set and not empty, else the current
    working directory. Raises nothing."""
    return Path(os.environ.get(FILES_ROOT_ENV) or os.getcwd()).resolve()


def app_path(typed: str) -> Path:
    """The file that the path ``typed`` into the app names (relative paths start at `files_root`), resolved
    (symbolic links followed). Returns an absolute `Path` inside the app's folder. Raises ValueError, with the
    typed path and the folder in the message, when it resolves outside that folder or is empty. Touches no file."""
    typed = typed.strip()
    if not typed:
        raise ValueError("enter a file name")
    root = files_root()
    path = (root / Path(typed).expanduser()).resolve()
    if path != root and root not in path.parents:
        raise ValueError(f"{typed}: the app only opens and saves files inside its folder {root} "
                         "(use Upload / Download for files elsewhere)")
    return path


class ReplaceGuard:
    """Asks before a Save replaces a file that this panel has not written itself (an earlier session's hand 1
    under the default name ``hands/hand-1.json``, say): the first Save to such a file only asks; a second Save to
    the same path replaces it. Files this panel wrote are replaced without asking."""

    def __init__(self) -> None:
        self._written: set[Path] = set()
        self._asked: Path | None = None

    def question(self, path: Path) -> str | None:
        """None if saving to ``path`` (as given by `app_path`) may go ahead, else the question to show (and the
        next Save to ``path`` goes ahead). Raises nothing."""
        if path.is_file() and path not in self._written and path != self._asked:
            self._asked = path
            return f"{path} already exists: click Save again to replace it, or change the name"
        return None

    def saved(self, path: Path) -> None:
        """Note that this panel wrote ``path`` (later saves to it replace it without asking)."""
        self._written.add(path)
        self._asked = None
