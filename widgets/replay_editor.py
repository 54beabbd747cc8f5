"""Replay's annotation editor and Save row: the comment box, Save comment / Delete comment, the mark buttons and
the editor's status line; Save to, Save record, its result and the Download link. Each button forwards to the
`rookcore.replay.ReplaySession` (comments and marks are about the last action shown); the editor draws the session's
`EditorShown` and says what the session did.
"""
from __future__ import annotations

from html import escape
from typing import Callable

import ipywidgets as w

from rookcore import annotations, i18n
from rookcore.i18n import _
from rookcore.replay import ReplaySession, StepShown

from .replay_view import (DRAFT_NOTE, MARK_BUTTONS, download_html, editor_head_html, editor_status_html, safe,
                          save_html, unsaved_html)


class AnnotationEditor:
    """The comment and mark editor (``box``) and the Save row (``save_row``).

    Args:
      session: the panel's `ReplaySession`.
      redraw: draws the whole panel again (after an edit: the action line's mark, the comment shown, the editor).
    """

    WIDGETS = ("annotate_step", "comment_text", "save_comment_button", "delete_comment_button", "mark_buttons",
               "annotate_status", "mark_label", "annotate_box", "save_path", "save_record_button", "save_result",
               "download")
    """The widgets the panel offers under the same names (the app and the tests reach them there)."""

    def __init__(self, session: ReplaySession, redraw: Callable[[], None]) -> None:
        self.session = session
        self._redraw = redraw
        self._setting_comment = False  # the panel, not the learner, is writing the comment box
        self.annotate_step = w.HTML("")
        self.annotate_step.add_class("rook-annotate-step")
        self.comment_text = w.Textarea(placeholder="Comment on the last action shown…", rows=2,
                                       layout=w.Layout(width="440px"))
        self.comment_text.add_class("rook-annotate-text")
        self.comment_text.observe(self._on_comment_typed, names="value")
        self.save_comment_button = w.Button(description="Save comment", layout=w.Layout(width="130px"))
        self.save_comment_button.add_class("rook-annotate-save")
        self.save_comment_button.on_click(lambda _b: self.save_comment())
        self.delete_comment_button = w.Button(description="Delete comment", layout=w.Layout(width="130px"))
        self.delete_comment_button.add_class("rook-annotate-delete")
        self.delete_comment_button.on_click(lambda _b: self.delete_comment())
        self.mark_buttons: dict[str, w.Button] = {}
        for label, mark in MARK_BUTTONS:
            b = w.Button(description=label, layout=w.Layout(width="80px" if not mark else "44px"))
            b.add_class("rook-annotate-mark")
            b.on_click(lambda _b, mark=mark: self.set_mark(mark))
            self.mark_buttons[mark] = b
        self.annotate_status = w.HTML("")
        self.annotate_status.add_class("rook-annotate-status")
        self.mark_label = w.HTML("<span style='margin:0 4px 0 12px'>Mark:</span>")
        edit_row = w.HBox([self.comment_text, w.VBox([self.save_comment_button, self.delete_comment_button]),
                           self.mark_label, *self.mark_buttons.values()],
                          layout=w.Layout(flex_flow="row wrap", align_items="center"))
        self.annotate_box = w.VBox([self.annotate_step, edit_row, self.annotate_status],
                                   layout=w.Layout(border="1px solid #e0e0e0", padding="4px 8px", margin="4px 0"))
        self.annotate_box.add_class("rook-annotate")
        self.save_path = w.Text(description="Save to", layout=w.Layout(width="360px"))
        self.save_path.add_class("rook-annotate-path")
        self.save_record_button = w.Button(description="Save record", layout=w.Layout(width="110px"))
        self.save_record_button.add_class("rook-annotate-save-record")
        self.save_record_button.on_click(lambda _b: self.save_record())
        self.save_result = w.HTML("")
        self.save_result.add_class("rook-annotate-result")
        self.download = w.HTML("")
        self.download.add_class("rook-annotate-download")
        self.save_row = w.HBox([self.save_path, self.save_record_button, self.save_result, self.download],
                               layout=w.Layout(flex_flow="row wrap", align_items="center"))

    @property
    def lang(self) -> str:
        """The session's language (actions run in it)."""
        return self.session.lang

    def draw_words(self) -> None:
        """The editor's and the Save row's words in the active language."""
        self.comment_text.placeholder = _("Comment on the last action shown…")
        self.save_comment_button.description = _("Save comment")
        self.delete_comment_button.description = _("Delete comment")
        for mark, b in self.mark_buttons.items():
            if not mark:
                b.description = _("no mark")
            b.tooltip = annotations.mark_name(mark) if mark else _("remove the mark")
        mark = escape(_("Mark:"))
        self.mark_label.value = f"<span style='margin:0 4px 0 12px'>{mark}</span>"
        self.save_path.description = _("Save to")
        self.save_record_button.description = _("Save record")
        self.save_record_button.tooltip = _("Write the annotated record (JSON)")

    def message(self, text: str, error: bool = False) -> None:
        """Show what the last edit did (or its ``error``) in the editor's status line."""
        self.annotate_status.value = editor_status_html(text, error)

    def complain(self, text: str) -> None:
        """Show an error in the editor's status line."""
        self.message(text, error=True)

    def start(self) -> None:
        """A record was loaded: its default save path, no news, its Download link."""
        self.save_path.value = self.session.default_path
        self.save_result.value = self.annotate_status.value = ""
        self.draw_download()

    def draw_download(self) -> None:
        """The Download link of the record as it is now."""
        self.download.value = download_html(self.session.download())

    def draw(self, shown: StepShown) -> None:
        """Point the editor at the last action shown (``shown.editor``): its description, mark and comment (or the
        draft typed there); at position 0 it is disabled and says to step forward."""
        editor = shown.editor
        self.save_record_button.disabled = not shown.loaded
        on_action = editor.step is not None
        self.comment_text.disabled = not on_action
        for b in (self.save_comment_button, self.delete_comment_button, *self.mark_buttons.values()):
            b.disabled = not on_action
        self.annotate_step.value = editor_head_html(shown)
        if not shown.loaded:
            self._set_comment_box("")
            return
        if not on_action:
            self._set_comment_box("")
            for b in self.mark_buttons.values():
                b.button_style = ""
            return
        self._set_comment_box(editor.text)
        if editor.draft:
            self.message(_(DRAFT_NOTE))
        elif escape(_(DRAFT_NOTE), quote=False) in self.annotate_status.value:
            self.annotate_status.value = ""
        for m, b in self.mark_buttons.items():
            b.button_style = "warning" if m == editor.mark else ""

    def _set_comment_box(self, text: str) -> None:
        """Show ``text`` in the comment box (not a draft: the learner did not type it)."""
        self._setting_comment = True
        try:
            self.comment_text.value = text
        finally:
            self._setting_comment = False

    @i18n.in_own_language
    def _on_comment_typed(self, change) -> None:
        """Keep a comment typed but not saved as a draft of its step (`ReplaySession.type_comment`)."""
        if self._setting_comment:
            return
        if self.session.type_comment(change["new"]) is False and escape(_(DRAFT_NOTE), quote=False) in \
                self.annotate_status.value:
            self.annotate_status.value = ""

    def _edited(self, before, said: str) -> None:
        """After an edit: if the record changed (``before`` was on show), the Save result says "unsaved changes"
        unless its comments and marks are back to the saved ones, and everything is drawn again; then the editor
        says ``said``."""
        if self.session.record is not before:
            self.save_result.value = (unsaved_html() if self.session.changed
                                      else save_html("saved", self.session.saved_note))
            self.draw_download()
            self._redraw()
        self.message(said)

    @safe
    def save_comment(self, text: str | None = None) -> None:
        """Set the comment of the last action shown to ``text`` (default: the comment box); empty text deletes it.
        At position 0 (no action shown) it only says to step forward."""
        before = self.session.record
        said = self.session.save_comment(self.comment_text.value if text is None else text)
        self._edited(before, said)

    @safe
    def delete_comment(self) -> None:
        """Delete the comment of the last action shown."""
        before = self.session.record
        said = self.session.delete_comment()
        if self.session.record is before:  # there was none: the box is emptied of what was typed
            self._set_comment_box("")
        self._edited(before, said)

    @safe
    def set_mark(self, mark: str) -> None:
        """Mark the last action shown "!", "?" or "??" ("" removes the mark); a bad mark is refused (message shown,
        record unchanged)."""
        before = self.session.record
        self._edited(before, self.session.set_mark(mark))

    @safe
    def apply_analysis_marks(self) -> None:
        """Copy the analysis' "?"/"??" marks into the record (steps already marked keep their mark)."""
        before = self.session.record
        self._edited(before, self.session.apply_analysis_marks())

    @safe
    def save_record(self, path: str | None = None) -> str | None:
        """Write the annotated record (the whole game, if a game is loaded) to ``path`` (default: the Save-to box),
        inside the app's folder (`widgets.paths.record_path`: a name without an extension gets ``.json``). Returns
        the path written, or None (the error, or the question before replacing a file this panel did not write
        (`widgets.paths.ReplaceGuard`: a second Save replaces it), is shown next to the button)."""
        result = self.session.save(self.save_path.value if path is None else path)
        self.save_result.value = save_html(result.kind, result.text)
        if result.kind == "saved":
            self.draw_download()
        return result.path
