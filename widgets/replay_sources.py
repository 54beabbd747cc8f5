"""Replay's sources: the Example list, the File box and Load, Upload, the Hand list of a game record, and the error
line above them. Each forwards the learner's choice to the `rookcore.replay.ReplaySession`, which reads, checks and
loads the record (or refuses it: the error line says why and the record on show stays).
"""
from __future__ import annotations

from typing import Callable

import ipywidgets as w

from rookcore import i18n
from rookcore.examples import list_examples
from rookcore.i18n import _
from rookcore.records import GameRecord, HandRecord
from rookcore.replay import MAX_RECORD_BYTES, ReplaySession
from rookcore.replay.session import stem

from .replay_view import error_html, note_html


class SourceBar:
    """The widgets that choose the record on show, and the error line.

    Args:
      session: the panel's `ReplaySession`.
      loaded: called after a record was loaded (the panel draws it from its start).
      hand_shown: called after another hand of the game was chosen.
      go: moves the navigator to a position (``show_record``'s step).
    """

    WIDGETS = ("examples", "path", "load_button", "upload", "hand_select", "error")
    """The widgets the panel offers under the same names (the app and the tests reach them there)."""

    def __init__(self, session: ReplaySession, loaded: Callable[[], None], hand_shown: Callable[[], None],
                 go: Callable[[int], None]) -> None:
        self.session = session
        self._loaded, self._hand_shown, self._go = loaded, hand_shown, go
        self._busy = False  # the panel, not the learner, is setting a list's value
        self.examples = w.Dropdown(options=list_examples(), value=None, description="Example",
                                   layout=w.Layout(width="300px"))
        self.examples.add_class("rook-replay-examples")
        self.examples.observe(self._on_example, names="value")
        self.path = w.Text(placeholder="path/to/record.json or an example", description="File",
                           layout=w.Layout(width="320px"))
        self.path.add_class("rook-replay-path")
        self.load_button = w.Button(description="Load", layout=w.Layout(width="70px"))
        self.load_button.on_click(self._on_load_path)
        self.upload = w.FileUpload(accept=".json,application/json", multiple=False, description="Upload .json")
        self.upload.add_class("rook-replay-upload")
        self.upload.observe(self._on_upload, names="value")
        self.hand_select = w.Dropdown(options=[], description="Hand", layout=w.Layout(width="300px", display="none"))
        self.hand_select.add_class("rook-replay-hand")
        self.hand_select.observe(self._on_hand, names="value")
        self.error = w.HTML("", layout=w.Layout(display="none"))
        self.error.add_class("rook-replay-error")
        self.box = w.HBox([self.examples, self.path, self.load_button, self.upload],
                          layout=w.Layout(flex_flow="row wrap", align_items="center"))

    @property
    def lang(self) -> str:
        """The session's language (callbacks run in it)."""
        return self.session.lang

    def draw_words(self) -> None:
        """The labels, tooltips and placeholders, and the Hand list's labels, in the active language."""
        self.examples.description = _("Example")
        self.path.placeholder = _("path/to/record.json or an example")
        self.path.description = _("File")
        self.load_button.description = _("Load")
        self.load_button.tooltip = _("Load the record at this path (or the example of this name)")
        self.upload.description = _("Upload .json")
        self.upload.tooltip = _("Open a record (.json) from your computer")
        self.hand_select.description = _("Hand")
        if self.session.game is not None:
            self._set_hands()

    # ----- the line above ------------------------------------------------------------------------
    def show_error(self, message: str) -> None:
        """Show one error line (the first line of ``message``, its JSON paths in words)."""
        self.error.value = error_html(message)
        self.error.layout.display = ""

    def show_note(self, message: str) -> None:
        """Show one line of information (grey, no warning sign) where errors are shown; the next error or
        `clear_error` replaces it."""
        self.error.value = note_html(message)
        self.error.layout.display = ""

    def clear_error(self) -> None:
        """Hide the error line."""
        self.error.value = ""
        self.error.layout.display = "none"

    # ----- loading --------------------------------------------------------------------------------
    @i18n.in_own_language
    def load_record(self, record: HandRecord | GameRecord, name: str | None = None,
                    example: str | None = None) -> bool:
        """Load ``record`` (`ReplaySession.load`: saved as ``annotated/<name>.json``; ``example`` the bundled
        record's name, which the Example list then shows) and show its start. Returns False with the error line
        shown (the record on show stays)."""
        try:
            self.session.load(record, name=name, example=example)
        except ValueError as e:  # RecordError, ReplayError
            self.show_error(str(e))
            return False
        self._set_lists()
        self.clear_error()
        self._loaded()
        return True

    def _set_lists(self) -> None:
        """The Example list shows the bundled record on show (else nothing); the Hand list a game's hands."""
        self._busy = True
        try:
            self.examples.value = self.session.example
        finally:
            self._busy = False
        if self.session.game is not None:
            self._set_hands()
        self.hand_select.layout.display = "" if self.session.game is not None else "none"

    def _set_hands(self) -> None:
        """The Hand list: one label per hand of the game (`ReplaySession.hand_labels`), the hand on show chosen."""
        self._busy = True
        try:
            self.hand_select.options = [(label, i) for i, label in enumerate(self.session.hand_labels())]
            self.hand_select.value = self.session.hand_index
        finally:
            self._busy = False

    @i18n.in_own_language
    def load_text(self, text: str | bytes, source: str = "") -> bool:
        """Parse and load a record from JSON ``text`` (``source``: its file name, for the error line and the name it
        is saved under). Returns False with the error line shown (the record on show stays)."""
        try:
            record = self.session.parse(text, source)
        except ValueError as e:
            self.show_error(str(e))
            return False
        return self.load_record(record, name=stem(source))

    @i18n.in_own_language
    def load_file(self, path: str) -> bool:
        """Load the record file at ``path`` (inside the app's folder: `widgets.paths`) and show its start; the File
        box then names it. Returns False with the error line shown. Does not ask about unsaved comments (the Load
        button does)."""
        try:
            record = self.session.read_file(path)
        except ValueError as e:
            self.show_error(str(e))
            return False
        if not self.load_record(record, name=stem(path)):
            return False
        self.path.value = path
        return True

    @i18n.in_own_language
    def show_record(self, record: HandRecord, step: int = 0, name: str | None = None,
                    again: str | None = None) -> bool:
        """Show the hand ``record`` at navigator ``step`` (`ReplaySession.open_at`: the same hand only moves; another
        is loaded once unsaved work may be dropped, ``again`` naming how to confirm). Returns False with the error
        line shown."""
        try:
            anew = self.session.open_at(record, step, name=name, again=again)
        except ValueError as e:
            self.show_error(str(e))
            return False
        target = self.session.step
        if anew:
            self._set_lists()
            self.clear_error()
            self._loaded()
            self.path.value = ""  # the File box named the record shown before
        else:
            self.clear_error()
        self._go(target)
        return True

    def _read(self, read: Callable[[], HandRecord | GameRecord], key: tuple, again: str) -> HandRecord | GameRecord | None:
        """The record ``read()`` returns, once unsaved work may be dropped for it (``key``, ``again``:
        `ReplaySession.check_discard`). A record that cannot be read is reported before any question (loading it
        would lose nothing). Returns None with the error line shown."""
        try:
            record = read()
            self.session.check_discard(key, again)
        except ValueError as e:
            self.show_error(str(e))
            return None
        return record

    @i18n.in_own_language
    def _on_example(self, change) -> None:
        """An example chosen in the list: loaded (the list goes back to what is on show if it is not)."""
        if self._busy or change["new"] is None:
            return
        name = change["new"]
        record = self._read(lambda: self.session.read_example(name), ("example", name),
                            _("choose {name} again", name=name))
        if record is None:
            self._busy = True
            try:  # the list goes back to what is on show
                self.examples.value = change["old"] if self.session.record is not None else None
            finally:
                self._busy = False
            return
        if self.load_record(record, name=name, example=name):
            self.path.value = ""  # the File box named the record shown before

    @i18n.in_own_language
    def _on_load_path(self, _button) -> None:
        """The Load button: load what the File box names, a bundled record's name (as ``?record=`` takes it; it comes
        before a file of that name without ``.json``) or the path of a record file in the app's folder. A name that
        cannot be loaded is reported at once; only a loadable record asks before it replaces unsaved comments or
        marks (a second click on Load loads it)."""
        path = self.path.value.strip()
        if not path and self.examples.value is not None and self.session.record is not None:
            self.show_note(_("The example {name} is on show: an example loads as soon as it is chosen in the list. "
                             "Load reads the File box (a record file's path or an example's name).",
                             name=self.examples.value))
            return
        if not path:
            self.show_error(_("type the path of a .json record file (or the name of an example) first"))
            return
        example = path in list_examples()
        record = self._read(lambda: self.session.read_example(path) if example else self.session.read_file(path),
                            ("file", path), _("click Load again"))
        if record is None:
            return
        if example:
            self.load_record(record, name=path, example=path)
        elif self.load_record(record, name=stem(path)):
            self.path.value = path

    @i18n.in_own_language
    def _on_upload(self, change) -> None:
        """A file uploaded: loaded if it is a record within the size cap (a bad file is reported before any
        question about unsaved comments); the upload widget is emptied either way."""
        files = change["new"]
        if self._busy or not files:
            return
        item = files[0]
        name = item.get("name", "upload") if isinstance(item, dict) else getattr(item, "name", "upload")
        size = item.get("size") if isinstance(item, dict) else getattr(item, "size", None)
        data = bytes(item.get("content") if isinstance(item, dict) else getattr(item, "content", b""))
        if (size or 0) > MAX_RECORD_BYTES or len(data) > MAX_RECORD_BYTES:
            self.show_error(_("{name} is larger than 1 MB: not loaded", name=name))
        else:
            record = self._read(lambda: self.session.parse(data, source=name), ("upload", name, len(data)),
                                _("upload {name} again", name=name))
            if record is not None and self.load_record(record, name=stem(name)):
                self.path.value = ""  # the File box named the record shown before
        self._busy = True
        try:
            self.upload.value = ()
        finally:
            self._busy = False

    @i18n.in_own_language
    def _on_hand(self, change) -> None:
        """A hand of the game chosen: shown from its start."""
        if self._busy or self.session.game is None or change["new"] is None:
            return
        try:
            self.session.choose_hand(change["new"])
        except ValueError as e:  # a hand that cannot be scored
            self.show_error(str(e))
            return
        self.clear_error()
        self._hand_shown()
