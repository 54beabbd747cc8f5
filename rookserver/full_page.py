"""The page a learner gets when a kernel cap is reached (`rookserver.caps`): what happened and what to do, in the
learner's language (``?lang=`` of the page's link, else English), with a Try again link to the same address.

A whole page of its own (no script, no outside resource): Voila's page cannot be drawn without a kernel.
"""
from __future__ import annotations

from html import escape

from rookcore.i18n import _, ngettext, using

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
