"""The Settings tab: choose a rule set (rookcore.rules.VARIANTS) and its options, then Apply.

Thin widget: the option list comes from the `Rules` value (``target``, ``bird`` when
``bird_optional``, ``first_lead``, and ``option_choices``); validation is
`rookcore.rules.get_rules`, whose RulesError message is shown in the panel.

Stable names for browser tests: ``rook-settings-variant`` (Dropdown), ``rook-settings-target``
(Text: a whole number of points, 10 to 10,000), ``rook-settings-bird`` (Checkbox), ``rook-settings-first-lead`` (Dropdown),
``rook-settings-option-<name>`` (one Dropdown per rule-set choice), button "Apply",
``rook-settings-message`` (status line), ``rook-settings-error`` (error line), ``rook-settings-language`` (Dropdown:
the page's language, `rookcore.i18n`; each language in its own name).

The panel's words are in the active language when it is built; `draw_words` draws them again in another one (the
app calls it in the learner's language after a change).
"""
from __future__ import annotations

from html import escape
from typing import Any, Callable

import ipywidgets as w

from rookcore import i18n
from rookcore.i18n import N_, _, pgettext
from rookcore.records import quoted
from rookcore.rules import FIRST_LEAD_DEALER, FIRST_LEAD_DECLARER, VARIANTS, Rules, RulesError, get_rules
from rookcore.words import bird_name, rules_title

from .rules_view import option_phrases

OPTION_LABELS = {
    "bird_any_time": N_("{bird} plays any time"),
    "red_one_any_time": N_("Red 1 plays any time"),
    "bid_min": N_("Lowest bid"),
}
"""The option lists' labels (English ids, translated where shown)."""
LANGUAGE_CHOICES = [(i18n.LANGUAGE_NAMES[code], code) for code in (i18n.SOURCE, *i18n.LANGUAGES)]
"""The Language list: English first, then the translated languages, each in its own name."""
STYLE = {"description_width": "160px"}
TARGET_RANGE = (10, 10_000)
"""Points a game can be played to in Settings (any positive target is a valid rules option; the box accepts a
practical range and refuses, with a message, anything else)."""


def _value_label(value: Any) -> str:
    if isinstance(value, bool):
        return pgettext("option", "yes") if value else pgettext("option", "no")
    return str(value)


AI_LEVELS = {N_("Rule-based (instant)"): "rules",
             N_("Strong (samples hidden cards, exact endgames; slower)"): "strong",
             N_("Random (legal cards at random)"): "random"}
"""The AI level list: {English label (translated where shown): level}."""


def _level_options() -> list[tuple[str, str]]:
    return [(_(label), level) for label, level in AI_LEVELS.items()]


def _first_lead_options() -> list[tuple[str, str]]:
    return [(_("the player left of the dealer"), FIRST_LEAD_DEALER),
            (_("the player left of the declarer"), FIRST_LEAD_DECLARER)]


def _heading(tag: str, title: str, text: str) -> str:
    """HTML: ``title`` in a ``tag`` heading ("h3", "h4"), then the paragraph ``text`` (both escaped)."""
    margin = "4px 0" if tag == "h3" else "10px 0 2px"
    return f"<{tag} style='margin:{margin}'>{escape(title)}</{tag}><p style='margin:2px 0'>{escape(text)}</p>"


class SettingsPanel(w.VBox):
    """Rule set and options; Apply calls ``on_apply(rules)`` (never raises into the UI).

    ``rules`` is the last applied `Rules` value; ``pending()`` builds the value the widgets show
    now (raises RulesError). ``on_language(code)`` is called when the learner picks a language in the Language list
    (``language``; its value is the code, "en" first); ``lang`` is the language it shows at first.
    """

    def __init__(self, rules: Rules | None = None, on_apply: Callable[[Rules], Any] | None = None,
                 on_level: Callable[[str], Any] | None = None, level: str = "rules",
                 on_language: Callable[[str], Any] | None = None, lang: str | None = None, **kwargs):
        self.rules: Rules = rules or get_rules()
        self.on_apply = on_apply
        self.on_level = on_level
        self.on_language = on_language
        self._relabeling = False  # True while draw_words puts new labels on the lists (not the learner's choice)
        code = i18n.normalize(lang if lang is not None else i18n.current_language())
        choices = LANGUAGE_CHOICES + ([(i18n.LANGUAGE_NAMES[code], code)] if code == i18n.PSEUDO else [])
        self.language = w.Dropdown(options=choices, value=code, style=STYLE, layout=w.Layout(width="480px"))
        self.language.add_class("rook-settings-language")
        self.language.observe(self._on_language, names="value")
        self.level = w.Dropdown(options=_level_options(), value=level, style=STYLE, layout=w.Layout(width="480px"))
        self.level.add_class("rook-settings-level")
        self.level.observe(self._on_level, names="value")
        self.level_message = w.HTML("")
        self.level_message.add_class("rook-settings-level-message")
        self.variant = w.Dropdown(options=[(rules_title(r), key) for key, r in VARIANTS.items()],
                                  value=self.rules.variant if self.rules.variant in VARIANTS else "crowsnest",
                                  style=STYLE, layout=w.Layout(width="480px"))
        self.variant.add_class("rook-settings-variant")
        self.target = w.Text(style=STYLE, layout=w.Layout(width="280px"))
        self.target.add_class("rook-settings-target")
        self.bird = w.Checkbox(indent=False, layout=w.Layout(margin="2px 0 2px 168px"))
        self.bird.add_class("rook-settings-bird")
        self.first_lead = w.Dropdown(options=_first_lead_options(), style=STYLE, layout=w.Layout(width="400px"))
        self.first_lead.add_class("rook-settings-first-lead")
        self.choices: dict[str, w.Dropdown] = {}
        self.options_box = w.VBox()
        self.apply_button = w.Button(button_style="primary", icon="check")
        self.apply_button.on_click(self._on_apply)
        self.message = w.HTML("")
        self.message.add_class("rook-settings-message")
        self.error = w.HTML("", layout=w.Layout(display="none"))
        self.error.add_class("rook-settings-error")
        self._target_shown = ""  # what `_build_options` last put in the target box
        self.variant.observe(lambda _ch: None if self._relabeling else self._build_options(), names="value")
        self.intro = w.HTML()
        self.ai_intro = w.HTML()
        self.language_intro = w.HTML()
        self.language_message = w.HTML("")
        self.language_message.add_class("rook-settings-language-message")
        super().__init__([
            self.intro, self.variant, self.options_box, self.apply_button, self.error, self.message,
            self.ai_intro, self.level, self.level_message,
            self.language_intro, self.language, self.language_message,
        ], **kwargs)
        self.add_class("rook-settings")
        self.draw_words()
        self._build_options(self.rules)
        self.message.value = escape(_("Rule set: {title}", title="\0")).replace(
            "\0", f"<b>{escape(rules_title(self.rules))}</b>")

    # ----- words ------------------------------------------------------------------------
    def draw_words(self) -> None:
        """The panel's labels, lists and headings in the active language (`rookcore.i18n`), the learner's choices
        kept (the option lists are made again with the values they show). Lines already written (Apply's message)
        keep their words until the next change. Raises nothing."""
        self._relabeling = True
        try:
            self.intro.value = _heading("h3", _("Settings"), _("Choose the rule set and its options. Changes apply "
                                                               "from the next new game."))
            self.ai_intro.value = _heading("h4", _("AI players"), _(
                "Partner, opponents and the Hint share one level (at Random, the Hint is the rule-based AI's: random "
                "play is no advice); it applies from their next move."))
            self.language_intro.value = _heading("h4", "🌐 " + _("Language"),
                                                 _("The page, the game and the rules in your language."))
            self.language.description = _("Language")
            level, variant, first = self.level.value, self.variant.value, self.first_lead.value
            self.level.options = _level_options()
            self.level.value = level
            self.level.description = _("AI level")
            self.variant.options = [(rules_title(r), key) for key, r in VARIANTS.items()]
            self.variant.value = variant
            self.variant.description = _("Rule set")
            self.target.description = _("Game to (points)")
            self.target.placeholder = _("{low} to {high}", low=TARGET_RANGE[0], high=f"{TARGET_RANGE[1]:,}")
            self.first_lead.options = _first_lead_options()
            self.first_lead.value = first
            self.first_lead.description = _("First lead")
            self.apply_button.description = _("Apply")
            self._label_options()
        finally:
            self._relabeling = False

    def _label_options(self) -> None:
        """The bird box's and the option lists' labels in the active language, their values kept."""
        base = VARIANTS[self.variant.value]
        self.bird.description = (_("Play with the {bird}", bird=bird_name(base.bird_name)) if base.bird_optional
                                 else _("Play with the bird"))
        for name, dd in self.choices.items():
            value, default = dd.value, getattr(base, name)
            dd.options = [(self._choice_label(v, default), v) for v in base.option_choices[name]]
            dd.value = value
            dd.description = self._option_label(name, base)

    @staticmethod
    def _option_label(name: str, base: Rules) -> str:
        """The label of the option ``name`` of the rule set ``base`` in the active language."""
        if name in OPTION_LABELS:
            return _(OPTION_LABELS[name], bird=bird_name(base.bird_name))
        return name.replace("_", " ").capitalize()

    @staticmethod
    def _choice_label(value: Any, default: Any) -> str:
        """One value of an option list ("yes", "70", "no (default)") in the active language."""
        return _("{value} (default)", value=_value_label(value)) if value == default else _value_label(value)

    def _on_language(self, change) -> None:
        if self._relabeling:
            return
        try:
            if self.on_language is not None:
                self.on_language(change["new"])
        except Exception as e:  # noqa: BLE001 - a failing callback is shown, never raised into the page
            self.language_message.value = f"<span style='color:#b71c1c'>{escape(str(e))}</span>"

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
            self.bird.description = _("Play with the {bird}", bird=bird_name(base.bird_name))
            self.bird.value = cur.bird
            children.append(self.bird)
        children.append(self.first_lead)
        self.choices = {}
        for name, allowed in base.option_choices.items():
            default = getattr(base, name)
            dd = w.Dropdown(options=[(self._choice_label(v, default), v) for v in allowed],
                            value=getattr(cur, name), description=self._option_label(name, base), style=STYLE,
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
            raise RulesError(_("Game to: type a whole number of points from {low} to {high}, not {typed}", low=low,
                               high=f"{high:,}", typed=quoted(typed)))
        return int(text)

    def pending(self) -> Rules:
        """The `Rules` value the widgets describe (raises RulesError for a bad option)."""
        return get_rules(self.variant.value, self.options() or None)

    def _on_level(self, change) -> None:
        if self._relabeling:
            return
        level = change["new"]
        try:
            if self.on_level is not None:
                self.on_level(level)
        except Exception as e:  # noqa: BLE001 - a failing callback is shown, never raised into the page
            self.level_message.value = f"<span style='color:#b71c1c'>{escape(str(e))}</span>"
            return
        label = _(dict((v, k) for k, v in AI_LEVELS.items())[level])
        self.level_message.value = escape(_("AI level: {level}", level="\0")).replace("\0", f"<b>{escape(label)}</b>")

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
            self.show_error(str(e) if isinstance(e, RulesError) else _("could not apply: {error}", error=e))
            self.message.value = self._with_rules(_("Nothing applied: the rule set stays {rules}.", rules="\0"),
                                                  self.rules)
            return
        self.error.value = ""
        self.error.layout.display = "none"
        self.rules = rules
        self.message.value = self._with_rules(_("Rule set: {rules} — applies from the next new game.", rules="\0"),
                                              rules)

    def show_in_play(self, rules: Rules) -> None:
        """Say that ``rules`` (the last applied) are now the game in play (after New game), not a pending change."""
        self.message.value = self._with_rules(_("Rule set: {rules} — the game in play.", rules="\0"), rules)

    @classmethod
    def _with_rules(cls, sentence: str, rules: Rules) -> str:
        """``sentence`` (translated, with a NUL where the rules go) escaped, the rules' `_rules_phrase` put in."""
        return escape(sentence).replace("\0", cls._rules_phrase(rules))

    @staticmethod
    def _rules_phrase(rules: Rules) -> str:
        """HTML naming ``rules``: its title in bold, then its options that differ from the rule set's defaults
        (e.g. ``<b>Buckeye Rook</b> (minimum bid 70)``), in the active language. Raises nothing."""
        opts = pgettext("list separator", "; ").join(option_phrases(rules))
        title = f"<b>{escape(rules_title(rules))}</b>"
        return escape(_("{title} ({options})", title="\0", options=opts)).replace("\0", title) if opts else title

    def apply(self) -> None:
        """Same as clicking Apply."""
        self._on_apply()
