"""The app's page for one learner: the browser's learner id (`LearnerId`) and the app built for it (`AppPage`).

The kernel learns who the learner is only once the page is drawn: `LearnerId` (an anywidget, its script in
``widgets/static/learner_id.js``) reads the id the browser keeps in localStorage (key
`rookcore.learners.STORAGE_KEY`, 32 lowercase hexadecimal digits; a random one made and kept when there is none) and
reports it. `AppPage` shows "Opening your game…" until then and builds the app (`widgets.app.build_app`) for that
learner's session (`rookcore.learners.open_session`: their own folder of kept games). A report that is not a valid
id gets a fresh id, which the page gives back to the browser to keep. If no report comes within ``wait`` seconds (the
script did not run) the app is built for this page alone, keeping nothing, and its status line says so; a report
that comes later still opens the learner's game, as long as nothing was done on the page yet. A server that keeps
nothing (``$ROOK_GAME_FILE`` empty) needs no id: the app is built at once.

Stable names for browser tests: ``rook-app-page`` (the page's box), ``rook-app-opening`` (the line shown while
waiting), ``rook-learner-id`` (the id widget's element, hidden).
"""
from __future__ import annotations

import threading
from html import escape
from pathlib import Path
from typing import Callable

import anywidget
import ipywidgets as w
import traitlets

from rookcore import i18n, learners
from rookcore.i18n import _

STATIC = Path(__file__).parent / "static"
WAIT_SECONDS = 90.0
"""How long a page waits for the browser's learner id before it opens a game of its own, kept nowhere (seconds).
The browser reports as soon as the page's widgets are drawn, also when its storage is blocked (``stored``
false), so the wait runs out only when the page's script never runs; it is counted from the notebook's run, and
20 pages opened at once on a 2-core server took up to 3 minutes to draw (benchmarks/load.py), so a short wait
made most of them build the app twice and could leave a card table undrawn."""


class LearnerId(anywidget.AnyWidget):
    """The browser's learner id. ``report`` (set by the browser, once): ``{"id": str, "stored": bool}``, untrusted
    (the kernel checks it: `rookcore.learners.parse_learner_id`); ``learner`` (set by the kernel): the id the page
    uses, which the browser keeps when it differs from its own (a bad one replaced). Draws nothing."""

    _esm = STATIC / "learner_id.js"
    report = traitlets.Dict().tag(sync=True)
    learner = traitlets.Unicode("").tag(sync=True)

    def on_learner(self, callback: Callable[[str, bool], None]) -> None:
        """Call ``callback(learner, stored)`` when the browser reports: ``learner`` the id it sent in canonical form
        (`rookcore.learners.parse_learner_id`), or a fresh id (`rookcore.learners.new_learner_id`) when the report
        is not a dict or its id is missing or invalid; ``stored`` True only when the report says the browser kept
        its id. The id is given back to the browser (``learner``) when it differs from the browser's own, so the
        browser keeps the fresh or canonical one. The one reader of the report for every page (the app's page, a
        lesson page). Raises nothing itself (``callback``'s errors propagate)."""
        def reported(change) -> None:
            value = change["new"] if isinstance(change["new"], dict) else {}
            learner = learners.parse_learner_id(value.get("id")) or learners.new_learner_id()
            if self.learner != learner:
                self.learner = learner
            callback(learner, value.get("stored") is True)

        self.observe(reported, names="report")


class AppPage(w.VBox):
    """The app's page: waits (at most ``wait`` seconds) for the browser's learner id, then holds the app built for
    that learner (``app``, a `widgets.app.RookApp`; None while waiting) and its ``session`` (a
    `rookcore.learners.LearnerSession`). ``rules``, ``query``, ``lang``: as `widgets.app.build_app` takes them.
    ``timer``: start the waiting clock (False for tests, which call `time_out` themselves). Raises nothing."""

    def __init__(self, rules=None, query: str | None = None, lang: str | None = None, wait: float = WAIT_SECONDS,
                 timer: bool = True) -> None:
        self._args = (rules, query, lang)
        from .app import page_language  # noqa: PLC0415 - the app module does not import this one

        self.lang = i18n.normalize(lang) if lang else page_language(query)[0]  # said before the app opens
        self.app = None
        self.session: learners.LearnerSession | None = None
        self._lock = threading.RLock()  # the waiting clock's thread and the kernel's both open the app
        self.learner_id = LearnerId()
        self._timer: threading.Timer | None = None
        super().__init__([])
        self.add_class("rook-app-page")
        # nothing is kept for anyone, or JupyterHub's signed-in user is the learner (issue 31: open_session gives
        # that user's own session, in their home folder): no browser id needed, the app opens at once
        if learners.learners_dir() is None or learners.hub_user():
            self._open(self._session(None))
            return
        with i18n.using(self.lang):
            words = escape(_("Opening your game…"))
        self.opening = w.HTML(f"<p class='rook-app-opening' style='color:#555'>{words}</p>")
        self.children = [self.learner_id, self.opening]
        self.learner_id.on_learner(lambda learner, stored: self._open(self._session(learner, stored)))
        if timer:
            self._timer = threading.Timer(wait, self.time_out)
            self._timer.daemon = True
            self._timer.start()

    def time_out(self) -> None:
        """No id came in time: open the app for this page alone (kept nowhere, said in its status line)."""
        self._open(self._session(None))

    def _session(self, learner: str | None, stored: bool = True) -> learners.LearnerSession:
        """`rookcore.learners.open_session` for ``learner`` (None: this page alone), its note in the page's
        language."""
        with i18n.using(self.lang):
            return learners.open_session(learner, stored)

    def _open(self, session: learners.LearnerSession) -> None:
        """Build the app for ``session`` and show it: once, or again when a learner's session comes after this
        page opened one of its own (nothing kept) and nothing was done in it yet."""
        with self._lock:
            if self.app is not None and not self._may_reopen(session):
                return
            if self._timer is not None:
                self._timer.cancel()
            from .app import build_app  # noqa: PLC0415 - the app module does not import this one
            rules, query, lang = self._args
            try:
                app = build_app(rules, query, lang, session=session)
            except Exception as e:  # noqa: BLE001 - build_app raises nothing by contract: never a traceback here
                text = _("The app could not be opened: {kind}: {error}", kind=type(e).__name__, error=str(e))
                self.children = [self.learner_id, w.HTML(f"<p><i>{escape(text)}</i></p>")]
                return
            self.app, self.session = app, session
            if session.learner is not None:
                from .lessons import use_learner_progress  # noqa: PLC0415 - loaded with the app

                use_learner_progress(session.learner)  # the Learn tab shows this learner's own progress
            self.children = [self.learner_id, app] if learners.learners_dir() is not None else [app]

    def _may_reopen(self, session: learners.LearnerSession) -> bool:
        """True when the page's app keeps nothing for want of an id, ``session`` keeps the learner's game, and the
        learner has not acted on the page yet."""
        table = getattr(getattr(self.app, "play_panel", None), "table", None)
        return (self.session is not None and self.session.learner is None and session.kept
                and (table is None or not table.game_started))


def build_page(rules=None, query: str | None = None, lang: str | None = None, wait: float = WAIT_SECONDS) -> AppPage:
    """The app's page for the Voila notebook (`AppPage`): the app for the learner whose browser this is. Raises
    nothing."""
    return AppPage(rules, query, lang, wait)
