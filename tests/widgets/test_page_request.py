"""A kernel of Voila's pool learns its page's request (widgets.page_request) and the app's page opens in steps
(widgets.learner.AppPage: the app first, then the link and the learner), the same as a page opened at once.

The query websocket here is a small websockets server on 127.0.0.1 speaking Voila's side of the protocol (one JSON
message of the request's variables, voila/request_info_handler.py); the browser tests run the real Voila pool
(tests/browser/test_learner_pages.py)."""
from __future__ import annotations

import asyncio
import json
import socket
import threading
import time

import pytest

from panel_actions import act_once
from rookcore import learners
from widgets import page_request
from widgets.app import build_app
from widgets.learner import AppPage
from widgets.page_request import LEARNER_COOKIE, cookie_learner, wait_for_page

ID_A = "a" * 32
ID_B = "0123456789abcdef" * 2


def _pool_env(port: int, kernel: str = "k1") -> dict:
    return {"VOILA_PREHEAT": "True", "VOILA_APP_PORT": str(port), "VOILA_KERNEL_ID": kernel,
            "VOILA_SERVER_URL": "/"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class QueryServer:
    """Voila's query websocket: sends ``payload`` (a dict) to a kernel that connects to /voila/query/<id>, after
    ``delay`` seconds; ``paths`` records the paths asked for."""

    def __init__(self, payload: dict, delay: float = 0.0) -> None:
        self.payload, self.delay, self.paths = payload, delay, []
        self.port = _free_port()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._serve()), daemon=True)
        self._stop: asyncio.Future | None = None

    async def _serve(self) -> None:
        import websockets

        async def handler(ws):
            self.paths.append(ws.request.path)
            await asyncio.sleep(self.delay)
            await ws.send(json.dumps(self.payload))

        self._stop = asyncio.get_running_loop().create_future()
        async with websockets.serve(handler, "127.0.0.1", self.port):
            self._ready.set()
            await self._stop

    def __enter__(self) -> "QueryServer":
        self._thread.start()
        assert self._ready.wait(10)
        return self

    def __exit__(self, *exc) -> None:
        loop = self._stop.get_loop()
        loop.call_soon_threadsafe(self._stop.set_result, None)
        self._thread.join(10)


def test_a_kernel_started_for_its_page_has_the_request_at_once():
    env = {"QUERY_STRING": "deal=5&lang=de", "HTTP_COOKIE": f"{LEARNER_COOKIE}={ID_A}"}
    request = wait_for_page(environ=env, receive=lambda url: pytest.fail("no websocket without a pool"))
    assert request == page_request.PageRequest("deal=5&lang=de", f"{LEARNER_COOKIE}={ID_A}", False, True)


def test_a_pooled_kernel_waits_for_voila_to_send_the_request():
    payload = {"QUERY_STRING": "deal=7&lang=fa", "HTTP_COOKIE": f"_xsrf=x; {LEARNER_COOKIE}={ID_B}",
               "SCRIPT_NAME": "/voila/render/app.ipynb"}
    with QueryServer(payload, delay=0.3) as server:
        env = _pool_env(server.port, "kernel-42")
        request = wait_for_page(environ=env, wait=5)
    assert server.paths == ["/voila/query/kernel-42"]
    assert request.pooled and request.reached and request.query == "deal=7&lang=fa"
    assert cookie_learner(request.cookie) == ID_B
    assert env["SCRIPT_NAME"] == "/voila/render/app.ipynb"  # the request's variables, as Voila's helper sets them


def test_a_pooled_kernel_that_cannot_reach_voila_tries_again_then_says_so(capfd):
    env = _pool_env(_free_port())  # nobody listens there: every try is refused
    tries, pauses = [], []
    start = time.monotonic()
    request = wait_for_page(environ=env, wait=2.0, receive=lambda url: (tries.append(url), (None, False))[1],
                            sleep=lambda s: (pauses.append(s), time.sleep(s)))
    assert not request.reached and request.query is None and request.pooled
    assert len(tries) >= 3 and pauses[:3] == [0.5, 1.0, 2.0][:len(pauses[:3])]
    assert time.monotonic() - start < 10  # bounded
    said = capfd.readouterr()
    assert "could not be reached within 2 s" in said.err  # in the server's log (the kernel's own stderr) ...
    assert "could not be reached" not in said.out  # ... not in an output of the page's cell


def test_the_real_try_is_bounded_when_nothing_answers():
    env = _pool_env(_free_port())
    start = time.monotonic()
    request = wait_for_page(environ=env, wait=0.0)
    assert not request.reached and time.monotonic() - start < 10


def test_once_connected_the_wait_for_a_page_has_no_deadline():
    """The budget is for reaching Voila: a kernel that was connected and lost its websocket starts again."""
    def receive(url):  # each try was connected for 1.2 s, then the websocket closed: 2.4 s in all, over the budget
        time.sleep(1.2)
        return next(answers)

    answers = iter([(None, True), (None, True), ('{"QUERY_STRING": "lang=cs"}', True)])
    request = wait_for_page(environ=_pool_env(1), wait=2.0, receive=receive, sleep=lambda s: None)
    assert request.reached and request.query == "lang=cs"


@pytest.mark.parametrize("header, expected", [
    (f"{LEARNER_COOKIE}={ID_A}", ID_A),
    (f"other=1; {LEARNER_COOKIE}={ID_A.upper()}", ID_A),
    (f"{LEARNER_COOKIE}=../../etc", None),
    (f"{LEARNER_COOKIE}={ID_A}x", None),
    ("", None),
    (None, None),
    ('bad"cookie', None),
])
def test_the_learner_cookie_is_checked_as_strictly_as_any_id(header, expected):
    assert cookie_learner(header) == expected


# ----- the page in steps --------------------------------------------------------------------------------------------
def _shown(app) -> dict:
    """What a page shows of its app, to compare a page opened in steps with one opened at once."""
    panel = app.play_panel
    return {"lang": app.lang, "titles": app.tab.titles, "header": app.header.value, "tab": app.tab.selected_index,
            "links": app.link_message.value, "rules": app.rules_view.value, "play_header": app.play_header.value,
            "settings": (app.settings.message.value, app.settings.language.value, app.settings.level.value),
            "deal": panel.table.state.hands if panel is not None else None, "replay": app.replay.examples.value,
            "status": panel.status.value, "direction": app.direction}


@pytest.mark.parametrize("query", ["", "?deal=5", "?lang=de&deal=9", "?record=crowsnest-set&lang=fa",
                                   "?deal=x&lang=zz"])
def test_a_page_opened_in_steps_is_the_page_opened_at_once(kept_dir, query):
    own = AppPage(query="", timer=False)  # the learner's own game, kept, one move in
    own.learner_id.report = {"id": ID_A, "stored": True}
    own.app.play_panel.pace = 0
    act_once(own.app.play_panel)
    at_once = AppPage(query=query, timer=False)
    at_once.learner_id.report = {"id": ID_A, "stored": True}
    steps = AppPage(timer=False, start=False)  # a pooled kernel: the app before the request
    assert steps.app.play_panel is None and steps.session is None
    steps.start(query, cookie=f"{LEARNER_COOKIE}={ID_A}")  # the request, with the learner's cookie
    assert steps.session.learner == ID_A  # opened at once, before the browser's report
    assert _shown(steps.app) == _shown(at_once.app)
    steps.learner_id.report = {"id": ID_A, "stored": True}  # the report confirms: nothing changes
    assert _shown(steps.app) == _shown(at_once.app)


def test_a_report_naming_another_learner_than_the_cookie_opens_that_learner_s_game(kept_dir):
    own = build_app(query="?deal=3", session=learners.open_session(ID_B)).play_panel  # B's kept deal game
    page = AppPage(timer=False, start=False)
    page.start("?deal=3", cookie=f"{LEARNER_COOKIE}={ID_A}")
    assert page.session.learner == ID_A
    page.learner_id.report = {"id": ID_B, "stored": True}
    assert page.session.learner == ID_B and page.app.play_panel.table.state.hands == own.table.state.hands


def test_a_page_whose_request_was_not_read_takes_its_link_from_the_browser(kept_dir):
    page = AppPage(timer=False, start=False)
    page.start(None, "", reached=False)
    assert page.session is None and page.app.lang == "en"
    page.learner_id.report = {"id": ID_A, "stored": True, "query": "?lang=de&deal=11"}
    at_once = AppPage(query="?lang=de&deal=11", timer=False)
    at_once.learner_id.report = {"id": ID_A, "stored": True}
    assert page.session.learner == ID_A and _shown(page.app) == _shown(at_once.app)


def test_a_page_whose_request_was_not_read_and_whose_browser_is_silent_still_opens(kept_dir):
    page = AppPage(timer=False, start=False)
    page.start(None, "", reached=False)
    page.time_out()
    assert page.session is not None and not page.session.kept and page.app.play_panel is not None
