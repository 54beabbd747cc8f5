"""The page a learner gets when a kernel cap is reached (`rookserver.caps`): what happened and what to do, in the
learner's language (`request_language`: ``?lang=`` of the page's link, else the language kept with the learner's game,
else the browser's Accept-Language, else English), with a Try again link to the same address.

A whole page of its own (no script, no outside resource): Voila's page cannot be drawn without a kernel.
"""
from __future__ import annotations

import json
from html import escape

from rookcore import learners
from rookcore.i18n import LANGUAGES, SOURCE, _, ngettext, normalize, using

from .caps import CapReached


def _sentences(full: CapReached) -> tuple[str, str, str]:
    """The page's title, what happened and what to do, in the active language."""
    n = full.limit
    if full.kind == "browser":
        return (_("Too many pages open"),
                ngettext("This browser already has {count} page of the app open, the most one browser may have.",
                         "This browser already has {count} pages of the app open, the most one browser may have.",
                         n, count=n),
                _("Close a page of the app that you no longer use (your game is kept), then try again."))
    if full.kind == "address":
        return (_("Too many pages open"),
                ngettext("{count} page of the app is already open from your network, the most one network may have.",
                         "{count} pages of the app are already open from your network, the most one network may "
                         "have.", n, count=n),
                _("Close the pages you no longer use, or ask your teacher, then try again."))
    return (_("The server is full"),
            ngettext("{count} page of the app is open, as many as the server's memory allows.",
                     "{count} pages of the app are open, as many as the server's memory allows.", n, count=n),
            _("Try again in a minute, or close a page of the app that you no longer use."))


KEPT_GAME_MAX_BYTES = 4_000_000
"""A kept game file larger than this (bytes) is not read for its language (a cap page is served when the server is
busy)."""


def request_language(lang_arg: str | None, learner: str | None, accept: str | None) -> str | None:
    """The language of a page refused by a cap (a code of `rookcore.i18n.LANGUAGES`, "en", or None when nothing
    names one): ``lang_arg`` (the link's ``?lang=``) when given; else the language kept with the game of
    ``learner`` (a learner id from the request's cookie, `widgets`' ``rook_learner``; its ``game.json`` in
    `rookcore.learners.learner_dir`: what the learner chose in Settings); else the first language of the
    Accept-Language header ``accept`` that the app has (by its q weights). Raises nothing."""
    if lang_arg:
        return lang_arg
    kept = _kept_language(learner)
    if kept:
        return kept
    return _accepted(accept)


def _kept_language(learner: str | None) -> str | None:
    """The ``lang`` kept in the settings of ``learner``'s game file, or None. Raises nothing."""
    if not learner:
        return None
    try:
        path = learners.learner_dir(learner) / "game.json"
        if path.stat().st_size > KEPT_GAME_MAX_BYTES:
            return None
        lang = json.loads(path.read_text(encoding="utf-8"))["settings"]["extra"]["lang"]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return None
    return _known(lang) if isinstance(lang, str) else None


def _known(code: str) -> str | None:
    """``code`` as the app's language code ("de-AT" → "de", "en-GB" → "en"), None for a language it has not."""
    lang = normalize(code)
    return lang if lang in LANGUAGES or (lang == SOURCE and code.strip().lower().startswith("en")) else None


def _accepted(accept: str | None) -> str | None:
    """The app's language the Accept-Language header ``accept`` prefers most ("de-AT,de;q=0.9,en;q=0.8" → "de";
    English counts as a language the app has), or None. Raises nothing."""
    ranked = []
    for i, part in enumerate((accept or "")[:1000].split(",")):
        code, _sep, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        ranked.append((-weight, i, code.strip()))
    for weight, _i, code in sorted(ranked):
        if weight < 0 and _known(code):
            return _known(code)
    return None


def full_page(full: CapReached, lang: str | None, retry_url: str) -> str:
    """The HTML page (str) saying that ``full`` (a `CapReached`) stopped this page, in ``lang`` (a code such as "de";
    English for None or a code without a catalog), right to left for Persian, with a Try again link to
    ``retry_url`` (the page's own address, escaped here). Raises nothing."""
    with using(lang) as tr:
        title, what, todo = _sentences(full)
        later = _("A page closed frees its place at once; a page left without a word (a lost connection) frees it "
                  "within a few minutes.")
        again = _("Try again")
    return f"""<!DOCTYPE html>
<html lang="{escape(tr.lang)}" dir="{tr.direction}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 36em; margin: 3em auto; padding: 0 1em; line-height: 1.5;
       color: #222; }}
a.rook-retry {{ display: inline-block; margin-top: 1em; padding: 0.6em 1.4em; border-radius: 4px;
               background: #1d5fa8; color: #fff; text-decoration: none; font-weight: 600; }}
</style>
</head>
<body class="rook-full" data-cap="{escape(full.kind)}">
<h1>{escape(title)}</h1>
<p class="rook-full-what">{escape(what)}</p>
<p class="rook-full-todo">{escape(todo)}</p>
<p class="rook-full-later">{escape(later)}</p>
<a class="rook-retry" href="{escape(retry_url, quote=True)}">{escape(again)}</a>
</body>
</html>
"""
