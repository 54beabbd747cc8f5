"""The Replay panel: a view of a `rookcore.replay.ReplaySession` — a recorded hand (record-format.md) stepped
through card by card, commented, marked, analysed and saved.

The session decides everything (what is loaded, what is shown at each step, what an edit or the analysis did); the
panel's parts draw it and forward the learner's actions: `SourceBar` (replay_sources: Example, File, Upload, Hand,
the error line), `Board` (replay_board: the navigator and the table), `AnnotationEditor` (replay_editor: comments,
marks, Save), `AnalysisView` (replay_analysis: Analyze). `ReplayAPI` (replay_api) is what the app and the tests call;
the stable CSS classes and button names for browser tests are listed in replay_view.
"""
from __future__ import annotations

from typing import Callable

import ipywidgets as w

from rookcore import i18n
from rookcore.examples import list_examples
from rookcore.records import HandRecord
from rookcore.replay import MAX_RECORD_BYTES, ReplaySession

from . import paths
from .replay_analysis import AnalysisView
from .replay_api import ReplayAPI
from .replay_board import Board
from .replay_editor import AnnotationEditor
from .replay_sources import SourceBar
from .replay_view import BUDGET_CHOICES, DRAFT_NOTE  # noqa: F401 - re-exported for the tests

MAX_UPLOAD_BYTES = MAX_RECORD_BYTES  # 1 MB, the engine's own record size cap
DEFAULT_EXAMPLE = "crowsnest-made"


class ReplayPanel(ReplayAPI, w.VBox):
    """Load a hand (or game) record and step through it: a view of its `ReplaySession` (``session``).

    Args: ``example`` (a bundled record shown first, None: none), ``analyzer`` (callable(record) -> report used by
    Analyze instead of the budgeted double-dummy analysis), ``analyze_in_background`` (Analyze runs in a thread),
    ``lang`` (the panel's language; None: the active one; `set_language` changes it). Records, their comments and
    the engine's record errors keep their own words.
    """

    def __init__(self, example: str | None = DEFAULT_EXAMPLE, analyzer: Callable[[HandRecord], dict] | None = None,
                 analyze_in_background: bool = True, lang: str | None = None, **kwargs):
        self.session = ReplaySession(analyzer=analyzer, background=analyze_in_background, files=paths,
                                     guard=paths.ReplaceGuard(), lang=lang)
        self.sources = SourceBar(self.session, loaded=self._loaded, hand_shown=self._hand_shown, go=self.go)
        self.board = Board(go=self.go)
        self.editor = AnnotationEditor(self.session, redraw=self._show)
        self.analysis_view = AnalysisView(self.session, go=self.go, complain=self.editor.complain)
        for part in (self.sources, self.board, self.editor, self.analysis_view):
            for name in part.WIDGETS:  # the widgets keep their names on the panel (the app and the tests use them)
                setattr(self, name, getattr(part, name))
        self.slider.observe(self._on_slider, names="value")
        self.apply_marks_button.on_click(lambda _b: self.apply_analysis_marks())
        self.session.job.listeners.append(self._analysis_changed)  # from the analysis thread too
        super().__init__([self.sources.box, self.hand_select, self.error, self.title, self.board.nav, self.action,
                          self.comment, self.annotate_box, self.board.body, self.editor.save_row, self.analysis_box],
                         **kwargs)
        self.add_class("rook-replay")
        self.draw_words()
        if example and example in list_examples():
            self.examples.value = example
        else:
            self._show()

    @i18n.in_own_language
    def draw_words(self) -> None:
        """The panel's own words (labels, buttons, tooltips, placeholders, the lists' labels) in its language."""
        for part in (self.sources, self.board, self.editor, self.analysis_view):
            part.draw_words()

    def set_language(self, lang: str | None) -> None:
        """Show the panel in ``lang`` (normalized: an unknown one is English) from now on; a status line already
        shown keeps its words until the next message. Raises nothing."""
        self.session.lang = i18n.normalize(lang)
        self.draw_words()
        self._show()

    @i18n.in_own_language
    def _show(self) -> None:
        """Draw what the session shows at its step: the board, the editor and the analysis."""
        shown = self.session.shown()
        self.board.draw(shown, self.record.rules if self.record is not None else None)
        self.editor.draw(shown)
        self.analysis_view.draw()

    def _on_slider(self, change) -> None:
        self.session.go(change["new"])
        self._show()

    def _loaded(self) -> None:
        """A record was loaded: the editor starts afresh and its first hand is shown."""
        self.editor.start()
        self._hand_shown()

    def _hand_shown(self) -> None:
        """A hand is shown from its start (the editor's news was about the hand shown before)."""
        self.annotate_status.value = ""
        self.board.start(self.session.n_steps)
        self._show()

    @i18n.in_own_language
    def _analysis_changed(self) -> None:
        self.analysis_view.draw()
