"""The Rules tab: plain-language rules of a `Rules` value (rules.md §1–§3), in the learner's language.

`rules_html(rules)` = the hand-written paragraphs for the rule set (`rookcore.rules_text.PROSE`, keyed by
variant) + a table generated from ``rules.describe()`` (so options such as the target or "no bird" show their
real numbers). The text lives in `rookcore.rules_text` (message catalogs, issue 26); this module draws it.
Stable class: ``rook-rules``.
"""
from __future__ import annotations

from html import escape

from rookcore.i18n import _, current, pgettext
from rookcore.rules import Rules
from rookcore.rules_text import PROSE, option_phrases, prose, rules_rows
from rookcore.words import rules_title

__all__ = ["PROSE", "option_phrases", "rules_rows", "rules_html"]

TABLE_STYLE = "border-collapse:collapse;font-size:14px;margin:6px 0"
CELL = "border-bottom:1px solid #e0e0e0;padding:3px 10px 3px 0;vertical-align:top"


def rules_html(rules: Rules) -> str:
    """Plain-language rules of ``rules`` as one HTML fragment (facts table + paragraphs) in the active language
    (`rookcore.i18n`; a right-to-left language sets ``lang`` and ``dir='rtl'`` on the fragment). Returns the HTML;
    raises nothing."""
    tr = current()
    align = "right" if tr.direction == "rtl" else "left"
    rows = "".join(f"<tr><th style='text-align:{align};{CELL}'>{escape(k)}</th><td style='{CELL}'>{escape(v)}</td>"
                   f"</tr>" for k, v in rules_rows(rules))
    sections = "".join(f"<h4 style='margin:10px 0 2px'>{escape(h)}</h4><p style='margin:2px 0'>{escape(p)}</p>"
                       for h, p in prose(rules))
    opts = pgettext("list separator", "; ").join(option_phrases(rules))
    note = _("Options: {options}. The table below already includes them; the text after it describes the standard "
             "rules.", options=opts) if opts else ""
    note = f"<p style='background:#fff8e1;padding:4px 8px;border-radius:4px'>{escape(note)}</p>" if note else ""
    glance = _("At a glance")
    lang = "" if tr.lang == "en" else f" lang='{tr.lang}' dir='{tr.direction}'"
    return (f"<div class='rook-rules'{lang} style='max-width:820px;line-height:1.4'>"
            f"<h3 style='margin:4px 0'>{escape(rules_title(rules))}</h3>{note}"
            f"<table style='{TABLE_STYLE}'><caption style='text-align:{align};font-weight:bold'>{escape(glance)}"
            f"</caption>{rows}</table>{sections}</div>")
