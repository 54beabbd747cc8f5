"""Replay as an engine-side session: a recorded hand or game stepped through, commented, marked, analysed and
saved, with no UI import (the Replay panel, ``widgets/replay.py``, draws it).

* `ReplaySession` (`session`) — load a record (bundled example, file, upload's text, a record object), step
  through it, comment and mark the last action shown (record-format.md ``comments`` and the documented ``marks``
  extension), keep unsaved drafts and ask before they are dropped, save and download;
* `AnalysisJob` (`analysis`) — its double-dummy analysis within a time budget, refined as it runs, cancelled;
* `StepShown`, `AnalysisShown` (`shown`) — everything shown at a position, as data for a view;
* `steps` and `verdicts` — the words of a step and of an analysis; `files` — where typed paths lead.
"""
from .analysis import AnalysisJob, Line
from .files import PlainFiles, RecordFiles
from .session import DEFAULT_FOLDER, MAX_RECORD_BYTES, ReplayError, ReplaySession, Saved
from .shown import AnalysisShown, EditorShown, StepShown
from .steps import describe_step, plain_record_error

__all__ = ["ReplaySession", "ReplayError", "Saved", "AnalysisJob", "Line", "StepShown", "EditorShown",
           "AnalysisShown", "RecordFiles", "PlainFiles", "describe_step", "plain_record_error", "MAX_RECORD_BYTES",
           "DEFAULT_FOLDER"]
