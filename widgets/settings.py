"""The Settings tab: choose a rule set (rookcore.rules.VARIANTS) and its options, then Apply.

Thin widget: the option list comes from the `Rules` value (``target``, ``bird`` when
``bird_optional``, ``first_lead``, and ``option_choices``); validation is
`rookcore.rules.get_rules`, whose RulesError message is shown in the panel.

Stable names for browser tests: ``rook-settings-variant`` (Dropdown), ``rook-settings-target``
(Text: a whole number of points, 10 to 10,000), ``rook-settings-bird`` (Checkbox), ``rook-settings-first-lead`` (Dropdown),
``rook-settings-option-<name>`` (one Dropdown per rule-set choice), button "Apply",
``rook-settings-message`` (status line), ``rook-settings-error`` (error line).
"""
from __future__ import annotations

from html import escape
from typing import Any, Callable

import ipywidgets as w

from rookcore.records import quoted
from rookcore.rules import FIRST_LEAD_DEALER, FIRST_LEAD_DECLARER, VARIANTS, Rules, RulesError, get_rules

from .rules_view import option_phrases

OPTION_LABELS = {
    "bird_any_time": "{bird} plays any time",
    "red_one_any_time": "Red 1 plays any time",
    "bid_min": "Lowest bid",
}
STYLE = {"description_width": "160px"}
TARGET_RANGE = (10, 10_000)
"""Points a game can be played to in Settings (any positive target is a valid rules option; the box accepts a
practical range and refuses, with a message, anything else)."""


def _value_label(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


AI_LEVELS = {"Rule-based (instant)": "rules",
             "Strong (samples hidden cards, exact endgames; slower)": "strong",
             "Random (legal cards at random)": "random"}


class SettingsPanel(w.VBox):
    """Rule set and options; Apply calls ``on_apply(rules)`` (never raises into the UI).

    ``rules`` is the last applied `Rules` value; ``pending()`` builds the value the widgets show
    now (raises RulesError).
    """

    def __init__(self, rules: Rules | None = None, on_apply: Callable[[Rules], Any] | None = None,
                 on_level: Callable[[str], Any] | None = None, level: str = "rules", **kwargs):
        self.rules: Rules = rules or get_rules()
        self.on_apply = on_apply
        self.on_level = on_level
        self.level = w.Dropdown(options=list(AI_LEVELS.items()), value=level, description="AI level",
                                style=STYLE, layout=w.Layout(width="480px"))
        self.level.add_class("rook-settings-level")
        self.level.observe(self._on_level, names="value")
        self.level_message = w.HTML("")
        self.level_message.add_class("rook-settings-level-message")
        self.variant = w.Dropdown(options=[(r.title, key) for key, r in VARIANTS.items()],
                                  value=self.rules.variant if self.rules.variant in VARIANTS else "crowsnest",
                                  description="Rule set", style=STYLE, layout=w.Layout(width="480px"))
        self.variant.add_class("rook-settings-variant")
        self.target = w.Text(description="Game to (points)", style=STYLE, layout=w.Layout(width="280px"),
                             placeholder=f"{TARGET_RANGE[0]} to {TARGET_RANGE[1]:,}")
        self.target.add_class("rook-settings-target")
        self.bird = w.Checkbox(description="Play with the bird", indent=False, layout=w.Layout(margin="2px 0 2px 168px"))
        self.bird.add_class("rook-settings-bird")
        self.first_lead = w.Dropdown(options=[("the player left of the dealer", FIRST_LEAD_DEALER),
                                              ("the player left of the declarer", FIRST_LEAD_DECLARER)],
                                     description="First lead", style=STYLE, layout=w.Layout(width="400px"))
        self.first_lead.add_class("rook-settings-first-lead")
        self.choices: dict[str, w.Dropdown] = {}
        self.options_box = w.VBox()
        self.apply_button = w.Button(description="Apply", button_style="primary", icon="check")
        self.apply_button.on_click(self._on_apply)
        self.message = w.HTML("")
        self.message.add_class("rook-settings-message")
        self.error = w.HTML("", layout=w.Layout(display="none"))
        self.error.add_class("rook-settings-error")
        self._target_shown = ""  # what `_build_options` last put in the target box
        self.variant.observe(lambda _ch: self._build_options(), names="value")
        super().__init__([
            w.HTML("<h3 style='margin:4px 0'>Settings</h3>"
                   "<p style='margin:2px 0'>Choose the rule set and its options. "
                   "Changes apply from the next new game.</p>"),
            self.variant, self.options_box, self.apply_button, self.error, self.message,
            w.HTML("<h4 style='margin:10px 0 2px'>AI players</h4><p style='margin:2px 0'>Partner, opponents and "
                   "the Hint share one level (at Random, the Hint is the rule-based AI's: random play is no advice); it "
                   "applies from their next move.</p>"),
            self.level, self.level_message,
        ], **kwargs)
        self.add_class("rook-settings")
        self._build_options(self.rules)
        self.message.value = f"Rule set: <b>{escape(self.rules.title)}</b>"

    # ----- option widgets -------------------------------------------------------------
    def _build_options(self, current: Rules | None = None) -> None:
        """Show the option widgets of the chosen rule set, set to ``current``'s values or the defaults. A target
        the user typed (the box no longer shows what it was filled with) stays when only the rule set changes."""
        base = VARIANTS[self.variant.value]
        cur = current if current is not None and current.variant == base.variant else base
        typed = self.target.value != self._target_shown
        if current is not None or not typed:
            self.target.value = self._target_shown = str(cur.target)
        self.first_lead.value = cur.first_lead
        children: list[w.Widget] = [self.target]
        if base.bird_optional:
            self.bird.description = f"Play with the {base.bird_name}"
            self.bird.value = cur.bird
            children.append(self.bird)
        children.append(self.first_lead)
        self.choices = {}
        for name, allowed in base.option_choices.items():
            label = OPTION_LABELS.get(name, name.replace("_", " ").capitalize()).format(bird=base.bird_name)
            default = getattr(base, name)
            dd = w.Dropdown(options=[(_value_label(v) + (" (default)" if v == default else ""), v) for v in allowed],
                            value=getattr(cur, name), description=label, style=STYLE,
                            layout=w.Layout(width="400px"))
            dd.add_class(f"rook-settings-option-{name.replace('_', '-')}")
            self.choices[name] = dd
            children.append(dd)
        self.options_box.children = children

    def options(self) -> dict[str, Any]:
        """The options the widgets show, only those differing from the rule set's defaults."""
        base = VARIANTS[self.variant.value]
        opts: dict[str, Any] = {}
        target = self.target_points()
        if target != base.target:
            opts["target"] = target
        if base.bird_optional and self.bird.value != base.bird:
            opts["bird"] = bool(self.bird.value)
        if self.first_lead.value != base.first_lead:
            opts["first_lead"] = self.first_lead.value
        for name, dd in self.choices.items():
            if dd.value != getattr(base, name):
                opts[name] = dd.value
        return opts

    def target_points(self) -> int:
        """The "Game to" box as points: a whole number from 10 to 10,000 (`TARGET_RANGE`; commas and spaces
        allowed). Raises RulesError naming what was typed otherwise (nothing is changed to fit)."""
        typed = self.target.value.strip()
        text = typed.replace(",", "").replace(" ", "")
        low, high = TARGET_RANGE
        # isdigit() lets '³' through, which int() refuses; int() also refuses more than 4,300 digits
        if not (text.isdecimal() and len(text) <= 9 and low <= int(text) <= high):
            raise RulesError(f"Game to: type a whole number of points from {low} to {high:,}, not {quoted(typed)}")
        return int(text)

    def pending(self) -> Rules:
        """The `Rules` value the widgets describe (raises RulesError for a bad option)."""
        return get_rules(self.variant.value, self.options() or None)

    def _on_level(self, change) -> None:
        level = change["new"]
        try:
            if self.on_level is not None:
                self.on_level(level)
        except Exception as e:  # noqa: BLE001 - a failing callback is shown, never raised into the page
            self.level_message.value = f"<span style='color:#b71c1c'>{escape(str(e))}</span>"
            return
        self.level_message.value = f"AI level: <b>{escape(dict((v, k) for k, v in AI_LEVELS.items())[level])}</b>"

    # ----- apply ------------------------------------------------------------------------
    def show_error(self, message: str) -> None:
        """Show one error line in the panel."""
        self.error.value = f"<div style='color:#b71c1c;font-weight:bold'>⚠ {escape(message, quote=False)}</div>"
        self.error.layout.display = ""

    def _on_apply(self, _button=None) -> None:
        try:
            rules = self.pending()
            if self.on_apply is not None:
                self.on_apply(rules)
        except Exception as e:  # noqa: BLE001 - shown, never raised into the widget event loop
            self.show_error(str(e) if isinstance(e, RulesError) else f"could not apply: {e}")
            self.message.value = f"Nothing applied: the rule set stays {self._rules_phrase(self.rules)}."
            return
        self.error.value = ""
        self.error.layout.display = "none"
        self.rules = rules
        self.message.value = f"Rule set: {self._rules_phrase(rules)} — applies from the next new game."

    def show_in_play(self, rules: Rules) -> None:
        """Say that ``rules`` (the last applied) are now the game in play (after New game), not a pending change."""
        self.message.value = f"Rule set: {self._rules_phrase(rules)} — the game in play."

    @staticmethod
    def _rules_phrase(rules: Rules) -> str:
        """HTML naming ``rules``: its title in bold, then its options that differ from the rule set's defaults
        (e.g. ``<b>Buckeye Rook</b> (minimum bid 70)``). Raises nothing."""
        opts = "; ".join(option_phrases(rules))
        return f"<b>{escape(rules.title)}</b>{' (' + escape(opts) + ')' if opts else ''}"

    def apply(self) -> None:
        """Same as clicking Apply."""
        self._on_apply()
