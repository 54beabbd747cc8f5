"""Where the paths typed into a Replay session lead (`RecordFiles`), and the plain default (`PlainFiles`).

A session reads and writes record files by the path a learner types. The app confines those paths to its own
folder (``widgets.paths``, which has these four functions and is passed as the session's ``files``); a script or
a test uses `PlainFiles`, the paths as given.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Protocol

from ..i18n import _

__all__ = ["RecordFiles", "PlainFiles", "shown_error"]


class RecordFiles(Protocol):
    """The file rules of a session: ``readable_record(typed) -> Path`` (the record file a typed path names, checked
    before it is read), ``record_path(typed) -> Path`` (where a save of that typed path goes), ``shown_path(path)
    -> str`` (how the page names a file) and ``brief(name) -> str`` (a long name shortened for a message); the first
    two raise ValueError, with the sentence to show, for a path they refuse."""

    def readable_record(self, typed: str) -> Path: ...

    def record_path(self, typed: str) -> Path: ...

    def shown_path(self, path: str | os.PathLike) -> str: ...

    def brief(self, name: str) -> str: ...


def _named(typed: str) -> Path:
    """The path ``typed`` names (``~`` expanded). Raises ValueError for an empty one."""
    if not typed.strip():
        raise ValueError(_("enter a file name"))
    return Path(typed.strip()).expanduser()


class PlainFiles:
    """Paths as given (relative ones from the working directory), as the command line takes them; a name without an
    extension gets ``.json`` (saving ``hands`` writes ``hands.json``, and loading ``hands`` reads it when only that
    file exists)."""

    @staticmethod
    def readable_record(typed: str) -> Path:
        """The file ``typed`` names (``.json`` added when only that file exists). Raises ValueError when empty;
        a missing file is reported when it is read."""
        path = _named(typed)
        with_json = path.with_name(path.name + ".json")
        return with_json if not path.exists() and not path.suffix and with_json.exists() else path

    @staticmethod
    def record_path(typed: str) -> Path:
        """Where a save of ``typed`` goes (``.json`` added to a name without an extension). Raises ValueError when
        empty."""
        path = _named(typed)
        return path if path.suffix else path.with_name(path.name + ".json")

    @staticmethod
    def shown_path(path: str | os.PathLike) -> str:
        """``path`` as given."""
        return str(path)

    @staticmethod
    def brief(name: str) -> str:
        """``name`` whole."""
        return name


def shown_error(files: RecordFiles, error: Exception, target: str | os.PathLike) -> str:
    """The sentence of ``error`` (a refused or failed save of ``target``) with every server path in it (``target``
    and the folders above it, as `rookcore.records.save` names them) shown as the page names files
    (``files.shown_path``, then ``files.brief``), so that a message never shows the server's folders or a learner's
    id. Raises nothing."""
    text = str(error)
    target = Path(target)
    for path in (target, *target.parents):  # the longest first: a folder's path is part of its files' paths
        if path != Path(path.anchor) and str(path) in text:
            text = text.replace(str(path), files.brief(files.shown_path(path)))
    return text
