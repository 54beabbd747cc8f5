"""The Play panel's save row: the Save-to box, "Save record", what the last save did and the download link, drawn
from the session's `rookcore.play.RecordSaver`."""
from __future__ import annotations

import base64
from html import escape
from pathlib import Path

import ipywidgets as widgets

from rookcore.i18n import _
from rookcore.play import RecordSaver, Saved

from .hand_end import classed


def result_html(saved: Saved | None) -> str:
    """What a save did, as shown next to its button ("" before any save of this hand)."""
    if saved is None:
        return ""
    if saved.kind == "question":
        return f"<span class='rook-save-question'>{escape(saved.text)}</span>"
    if saved.kind == "error":
        return f"<span class='rook-save-error' style='color:#c62828'>{escape(saved.text)}</span>"
    return f"<span class='rook-saved'>{escape(saved.text)}</span>"


def download_html(name: str, text: str) -> str:
    """The download link of the record ``text`` (JSON) named ``name``: the name is escaped and cut to its file name
    in the ``download`` attribute (a crafted name stays text)."""
    data = base64.b64encode(text.encode("utf-8")).decode("ascii")
    words = escape(_("Download {name}", name=name))
    return (f'<a class="rook-download-link" download="{escape(Path(name).name)}" '
            f'href="data:application/json;base64,{data}">{words}</a>')


class SaveRow:
    """``save_path`` (Text), ``save_button``, ``save_result`` and ``download`` in one row (``box``).

    Args: saver (the session's `RecordSaver`: the box's text is kept in its ``path``), on_save (callable() for a
    click on Save record).
    """

    WIDGETS = ("save_path", "save_button", "save_result", "download")
    """The widgets the panel shows under their own names (the app and the tests use them)."""

    def __init__(self, saver: RecordSaver, on_save) -> None:
        self.saver = saver
        self.save_path = classed(widgets.Text(layout=widgets.Layout(width="360px"),  # the label as wide as its words
                                              style={"description_width": "initial"}), "rook-save-path")
        self.save_path.observe(self._typed, names="value")
        self.save_button = classed(widgets.Button(), "rook-save")
        self.save_button.on_click(lambda _b: on_save())
        self.save_result = classed(widgets.HTML(), "rook-save-result")
        self.download = classed(widgets.HTML(), "rook-download")
        self.box = widgets.HBox([self.save_path, self.save_button, self.save_result, self.download],
                                layout=widgets.Layout(flex_flow="row wrap", align_items="center"))

    def _typed(self, change) -> None:
        self.saver.path = change["new"]

    def draw_words(self) -> None:
        """The row's lasting words in the active language."""
        self.save_path.description = _("Save to")
        self.save_button.description = _("Save record")

    def draw(self) -> None:
        """The box's text, what the last save did and the download link of the hand on show."""
        self.save_path.value = self.saver.path
        self.save_result.value = result_html(self.saver.result)
        self.download.value = download_html(*self.saver.download())
