"""The whole app: a page header and a Tab with Play, Replay, Rules and Settings.

`build_app()` returns the top widget (an `RookApp` VBox) for the Voila notebook.
Settings' Apply stores the chosen `Rules` as ``play_panel.pending_rules``: the Play
tab keeps its game and starts the next *new game* with them (the header line of the
Play tab says so), and the Rules tab is regenerated for them.

Stable names for browser tests: ``rook-app`` (top box), ``rook-app-header`` (page header),
``rook-app-tabs`` (the Tab; titles "Play", "Replay", "Rules", "Settings"),
``rook-play-ruleset`` (Play tab header line), ``rook-play-placeholder`` (shown if the Play panel
cannot be built), ``rook-rules`` (Rules tab content); the panels' own names are in their modules.
"""
from __future__ import annotations

from html import escape

import ipywidgets as w

from rookcore.rules import Rules, get_rules

from .replay import ReplayPanel
from .rules_view import rules_html
from .settings import SettingsPanel

TAB_TITLES = ("Play", "Replay", "Rules", "Settings")
HEADER_HTML = ("<div style='display:flex;align-items:baseline;gap:12px;margin:4px 0 8px'>"
               "<span style='font-size:24px;font-weight:bold;color:#283593'>CrowsNest Rook</span>"
               "<span style='color:#555'>learn the Rook card game: play with AI partners, replay hands, "
               "read the rules</span></div>")


def _make_play_panel():
    """The Play panel, or a placeholder Label if `widgets.play` is missing or fails to build."""
    try:
        from .play import PlayPanel  # noqa: PLC0415 - optional while the Play panel is being written
        return PlayPanel()
    except Exception as e:  # noqa: BLE001 - the rest of the app must still work
        label = w.HTML(f"<p><i>The Play panel is not available: {escape(type(e).__name__)}: "
                       f"{escape(str(e))}</i></p>")
        label.add_class("rook-play-placeholder")
        return label


class RookApp(w.VBox):
    """Header + Tab. Attributes: ``tab``, ``play_panel``, ``play_header``, ``replay``, ``rules_view``,
    ``settings``, ``rules`` (the last applied rule set)."""

    def __init__(self, rules: Rules | None = None):
        self.rules = rules or get_rules()
        self.header = w.HTML(HEADER_HTML)
        self.header.add_class("rook-app-header")

        self.play_panel = _make_play_panel()
        self.play_header = w.HTML("")
        self.play_header.add_class("rook-play-ruleset")
        new_game_button = getattr(self.play_panel, "new_game_button", None)
        if new_game_button is not None:  # after the Play panel's own handler: refresh the header line
            new_game_button.on_click(lambda _b: self._update_play_header())
        play_tab = w.VBox([self.play_header, self.play_panel])

        self.replay = ReplayPanel()
        self.rules_view = w.HTML(rules_html(self.rules))
        self.rules_view.add_class("rook-rules-view")
        self.settings = SettingsPanel(self.rules, on_apply=self.apply_rules)

        self.tab = w.Tab(children=[play_tab, self.replay, self.rules_view, self.settings])
        self.tab.titles = TAB_TITLES
        self.tab.add_class("rook-app-tabs")
        super().__init__([self.header, self.tab], layout=w.Layout(padding="4px 8px"))
        self.add_class("rook-app")
        self._update_play_header()

    def _current_play_rules(self) -> Rules | None:
        table = getattr(self.play_panel, "table", None)
        try:
            return table.rules if table is not None else None
        except Exception:  # noqa: BLE001
            return None

    def _update_play_header(self) -> None:
        current = self._current_play_rules() or self.rules
        pending = getattr(self.play_panel, "pending_rules", None)
        text = f"Rule set: <b>{escape(current.title)}</b>"
        if pending is not None and (pending != current or pending.options != current.options):
            text = f"Rule set: <b>{escape(pending.title)}</b> (from the next new game; this game: {escape(current.title)})"
        self.play_header.value = f"<div style='color:#333;margin:2px 0 6px'>{text}</div>"

    def apply_rules(self, rules: Rules) -> None:
        """Settings' Apply: keep ``rules`` for the next new game and redraw the Rules tab."""
        self.rules = rules
        try:
            self.play_panel.pending_rules = rules
        except Exception:  # noqa: BLE001
            pass
        self.rules_view.value = rules_html(rules)
        self._update_play_header()


def build_app(rules: Rules | None = None) -> RookApp:
    """Build the app widget (header + Play / Replay / Rules / Settings tabs)."""
    return RookApp(rules)
