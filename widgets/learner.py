"""The app's page for one learner: the browser's learner id (`LearnerId`) and the app opened for it (`AppPage`).

The page is built in steps, so that a kernel of Voila's pool (voila.json: ``preheat_kernel``) does the costly part
before any learner comes (`build_page`): the app with every tab (`widgets.app.RookApp`), then, once a page's request
comes (`widgets.page_request.wait_for_page`), its link (``?deal=``, ``?lang=``, ``?record=``) and the learner's game.
The learner is known at once when the request carries the browser's learner id in its cookie (set by the app's Voila
template from the id the browser keeps), under JupyterHub (the signed-in user), or when the server keeps nothing;
otherwise the Play tab says "Opening your game…" until the browser reports its id: `LearnerId` (an anywidget, its
script in ``widgets/static/learner_id.js``) reads the id the browser keeps in localStorage (key
`rookcore.learners.STORAGE_KEY`, 32 lowercase hexadecimal digits; a random one made and kept when there is none) and
reports it with the page's query string. The learner's session (`rookcore.learners.open_session`: their own folder of
kept games) is opened in the app (`widgets.app.RookApp.open_game`). A report that is not a valid id gets a fresh id,
which the page gives back to the browser to keep; a report naming another learner than the cookie's opens that
learner's game instead. If no report comes within ``wait`` seconds (the script did not run) the app opens a game for
this page alone, keeping nothing, and its status line says so; a report that comes later still opens the learner's
game, as long as nothing was done on the page yet.

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
    """The app's page: the app (``app``, a `widgets.app.RookApp`, built at once), then the learner's game in it and
    its ``session`` (a `rookcore.learners.LearnerSession`; None until the game is open). ``rules``, ``query``,
    ``lang``: as `widgets.app.build_app` takes them. ``timer``: start the waiting clock (False for tests, which call
    `time_out` themselves). ``start``: False to build the app only (a kernel of Voila's pool, before its page's
    request: `build_page`), `start` then takes the page's link and opens the learner's game; ``build`` (with
    ``start`` False): False to make the page empty, `build` then builds the app in it. Raises nothing.

    The learner's game opens at once when the server keeps nothing for anyone, under JupyterHub (the signed-in user
    is the learner), or when the page's request carries the browser's learner id (its cookie,
    `widgets.page_request.cookie_learner`, which the app's template keeps equal to the id the browser keeps): the
    page then asks the browser nothing. Otherwise the Play tab says "Opening your game…" until the browser's report
    (`LearnerId`), at most ``wait`` seconds. A report naming another learner than the game on show opens that
    learner's game instead, as long as nothing was done on the page yet."""

    def __init__(self, rules=None, query: str | None = None, lang: str | None = None, wait: float = WAIT_SECONDS,
                 timer: bool = True, start: bool = True, build: bool = True) -> None:
        self.wait, self.timer = wait, timer
        self._rules, self._lang_arg = rules, lang
        self.app = None
        self.lang = i18n.normalize(lang)
        self.session: learners.LearnerSession | None = None
        self._lock = threading.RLock()  # the waiting clock's thread and the kernel's both open the app
        self.learner_id = LearnerId()
        self.learner_id.on_learner(self._reported)
        self._timer: threading.Timer | None = None
        self._link_known = False  # False until the page's link is read (the request, else the browser's report)
        super().__init__([])
        self.add_class("rook-app-page")
        if build or start:
            self.build()
        if start:
            self.start(query)

    def build(self) -> None:
        """Build the app in the page (``build`` False: the page was made empty, to be shown before the app's
        hundreds of widgets are made, `build_page`). Once only. Raises nothing."""
        if self.app is not None:
            return
        from .app import RookApp  # noqa: PLC0415 - the app module does not import this one

        self.app = RookApp(self._rules, lang=self._lang_arg, opened=False)
        self.lang = self.app.lang
        self.children = [self.app]  # the learner id widget joins when the page must ask the browser (`start`)

    @property
    def opening(self) -> w.HTML:
        """The Play tab's "Opening your game…" line (class ``rook-app-opening``), shown until the game opens."""
        return self.app.waiting

    def start(self, query: str | None = None, cookie: str = "", reached: bool = True) -> None:
        """Take the page's link and open the learner's game when the learner is known. ``query``: the page's query
        string (None: Voila's ``QUERY_STRING``); ``cookie``: its Cookie header (the learner cookie,
        `widgets.page_request.cookie_learner`); ``reached``: False when the request could not be read (a pooled
        kernel that did not reach Voila: `widgets.page_request.wait_for_page`), so the link and the learner come
        with the browser's report. Raises nothing."""
        from .page_request import cookie_learner  # noqa: PLC0415

        if not reached:  # the link and the learner come with the browser's report
            self._ask_browser()
            self._start_timer()
            return
        # nothing is kept for anyone, or JupyterHub's signed-in user is the learner (issue 31: open_session gives
        # that user's own session, in their home folder): no browser id needed, the app opens at once
        at_once = learners.learners_dir() is None or bool(learners.hub_user())
        known = None if at_once else cookie_learner(cookie)
        self._follow(query, waiting=not (at_once or known))
        if at_once or known is not None:  # the learner's own game at once, no browser report needed
            self._drop_browser_id()
            self._open(self._session(known))
        else:
            self._ask_browser()
            self._start_timer()

    def _ask_browser(self) -> None:
        """Show the learner id widget, whose script reports the browser's learner id (and the page's link)."""
        if self.learner_id not in self.children:
            self.children = [self.learner_id, self.app]

    def _drop_browser_id(self) -> None:
        """The page knows its learner (the request's cookie, JupyterHub's user, or a server that keeps nothing): the
        learner id widget is closed, so that the page has one script fewer to start while it opens (a widget whose
        script is slow to start is left dead by anywidget, which the template reports as a page that did not
        open)."""
        self.children = [self.app]
        self.learner_id.close()

    def _start_timer(self) -> None:
        """Start the waiting clock (`time_out` after ``wait`` seconds), unless the page has none (``timer``)."""
        if self.timer:
            self._timer = threading.Timer(self.wait, self.time_out)
            self._timer.daemon = True
            self._timer.start()

    def _follow(self, query: str | None, waiting: bool = True) -> None:
        """The app follows the page's link (`widgets.app.RookApp.follow_link`; ``waiting``: the game is not opened
        at once) and the page's words take its language."""
        self.app.follow_link(query, self._lang_arg, waiting)
        self.lang = self.app.lang
        self._link_known = True

    def _reported(self, learner: str, stored: bool) -> None:
        """The browser's report (`LearnerId.on_learner`): the page's link first if the request did not bring it
        (the report's ``query``: the page's ``location.search``), then the learner's game."""
        with self._lock:
            if not self._link_known:
                query = self.learner_id.report.get("query") if isinstance(self.learner_id.report, dict) else None
                self._follow(query if isinstance(query, str) else "")
            if learners.learners_dir() is None or learners.hub_user():
                self._open(self._session(None))
            else:
                self._open(self._session(learner, stored))

    def time_out(self) -> None:
        """No id came in time: open the app for this page alone (kept nowhere, said in its status line)."""
        with self._lock:
            if not self._link_known:
                self._follow("")
            self._open(self._session(None))

    def _session(self, learner: str | None, stored: bool = True) -> learners.LearnerSession:
        """`rookcore.learners.open_session` for ``learner`` (None: this page alone), its note in the page's
        language."""
        with i18n.using(self.lang):
            return learners.open_session(learner, stored)

    def _open(self, session: learners.LearnerSession) -> None:
        """Open ``session``'s game in the app: once, or again when a learner's session comes after this page opened
        another (a page-only game, or the game of a cookie's id the browser does not hold) and nothing was done in
        it yet."""
        with self._lock:
            if self.session is not None and not self._may_reopen(session):
                return
            if self._timer is not None:
                self._timer.cancel()
            try:
                self.app.open_game(session)
            except Exception as e:  # noqa: BLE001 - open_game raises nothing by contract: never a traceback here
                with i18n.using(self.lang):
                    text = _("The app could not be opened: {kind}: {error}", kind=type(e).__name__, error=str(e))
                self.children = [w.HTML(f"<p><i>{escape(text)}</i></p>")]
                return
            self.session = session
            if session.learner is not None:
                from .lessons import use_learner_progress  # noqa: PLC0415 - loaded with the app

                use_learner_progress(session.learner)  # the Learn tab shows this learner's own progress

    def _may_reopen(self, session: learners.LearnerSession) -> bool:
        """True when ``session`` is another learner's than the page's (a page-only game, or a cookie's id the
        browser does not hold), keeps the learner's game, and the learner has not acted on the page yet."""
        table = getattr(getattr(self.app, "play_panel", None), "table", None)
        return (self.session is not None and self.session.learner != session.learner and session.kept
                and (table is None or not table.game_started))


def build_page(rules=None, query: str | None = None, lang: str | None = None, wait: float = WAIT_SECONDS,
               show: bool = True) -> AppPage:
    """The app's page for the Voila notebook (`AppPage`): the app for the learner whose browser this is.

    The page is shown first (``show``: `IPython.display.display`, so that its output is the cell's first message,
    before the hundreds of widget messages of the app: Voila drops a cell's outputs it has not read within its
    iopub timeout, 4 s, of the cell's end, and a busy server once lost a whole page that way), then the app is built,
    then the page's request is awaited (`widgets.page_request.wait_for_page`: at once in a kernel started for this
    page; in a kernel of Voila's pool, until a page takes it), then the link is followed and the learner's game
    opened (`AppPage.start`). ``query``: the page's query string, None to read it from the request. Returns the page.
    Raises nothing."""
    from .page_request import wait_for_page  # noqa: PLC0415

    page = AppPage(rules, lang=lang, wait=wait, start=False, build=False)
    if show:
        from IPython.display import display  # noqa: PLC0415 - the kernel's own

        display(page)
    page.build()
    request = wait_for_page()
    link = (request.query if query is None else query, request.cookie, request.reached or query is not None)
    if not (show and _after_this_cell(page.start, *link)):
        page.start(*link)
    return page


def _after_this_cell(fn, *args) -> bool:
    """Run ``fn(*args)`` on the kernel's event loop right after the running cell, so that the cell's end (and with it
    the rest of the page's HTML, after which the browser starts loading Voila's scripts) does not wait for it; the
    browser asks for the widgets only after that, and the kernel answers it on the same loop, so the page is complete
    when drawn. Returns False (nothing scheduled) outside a kernel whose loop is running. Raises nothing."""
    import asyncio  # noqa: PLC0415

    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return False

    def run() -> None:
        try:
            fn(*args)
        except Exception:  # noqa: BLE001 - AppPage.start raises nothing by contract: said in the server's log
            import logging  # noqa: PLC0415
            logging.getLogger(__name__).exception("opening the app's page failed")

    loop.call_soon(run)
    return True
