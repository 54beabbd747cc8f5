"""What a page's request says (its query string and its learner cookie), also for a kernel taken from Voila's pool.

Voila (0.5) can keep a pool of kernels that have already run a notebook up to the point where it needs the page's
request (``preheat_kernel``, ``VoilaKernelManager.kernel_pools_config`` in voila.json). Such a kernel is started
with ``$VOILA_PREHEAT`` = ``True`` and learns the request only once a page takes it: Voila then sends the
request's variables (``QUERY_STRING``, ``HTTP_COOKIE`` ...) to the kernel over its query websocket
(``<server>/voila/query/<kernel id>``), which Voila's own helper `voila.utils.wait_for_request` reads. That helper
gives up silently: when the kernel cannot open the websocket within 5 s (a server busy starting a pool), or on any
error but a refused connection or a timeout, the query string is simply missing. `wait_for_page` talks the same
protocol (the same address from the same environment variables, `voila.utils.ENV_VARIABLE`) but tries again, for at
most `QUERY_WAIT_S` seconds (``$ROOK_QUERY_WAIT``), before it gives up and says so (`PageRequest.reached` False): the
page then takes its query from the browser (`widgets.learner.LearnerId`'s report carries ``location.search``).
Once connected it waits as long as the kernel is in the pool: that is what a pooled kernel is for.

A kernel Voila started for one page (no pool) has the request in its environment from the start.

The learner cookie (`LEARNER_COOKIE`, set from the browser's learner id by the app's Voila template,
share/jupyter/voila/templates/rook) lets the kernel open the learner's own game as soon as the request comes, before
the page is drawn; the id in it is checked as strictly as any id from a browser (`rookcore.learners.parse_learner_id`)
and the browser's own report (`widgets.learner.LearnerId`) still decides. Voila passes the Cookie header to the
kernel only when voila.json lists it in ``VoilaConfiguration.http_header_envs``.

No UI here: `widgets.learner` (the app's page) and `widgets.lesson_page` (a lesson's start) use it.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import threading
import time
from dataclasses import dataclass

from rookcore import learners

__all__ = ["LEARNER_COOKIE", "QUERY_WAIT_ENV", "QUERY_WAIT_S", "PageRequest", "pooled", "wait_for_page",
           "cookie_learner", "query_url"]

LEARNER_COOKIE = learners.LEARNER_COOKIE
QUERY_WAIT_ENV = "ROOK_QUERY_WAIT"
"""Environment variable: seconds a pooled kernel keeps trying to reach Voila's query websocket (a number ≥ 0)."""
QUERY_WAIT_S = 60.0
"""Seconds a pooled kernel keeps trying to reach Voila's query websocket before it gives up (when
``$ROOK_QUERY_WAIT`` is not set or not a number ≥ 0). Each try waits at most `OPEN_TIMEOUT_S`."""
OPEN_TIMEOUT_S = 5.0
"""Seconds one try may take to open the query websocket (Voila's own helper waits as long)."""
_log = logging.getLogger(__name__)
if not _log.handlers:  # the server's log (the kernel's own stderr): a kernel's sys.stderr would put it on the page
    _handler = logging.StreamHandler(sys.__stderr__)
    _handler.setFormatter(logging.Formatter("[rook %(name)s] %(levelname)s | %(message)s"))
    _log.addHandler(_handler)
    _log.propagate = False
    _log.setLevel(logging.INFO)


@dataclass(frozen=True)
class PageRequest:
    """What the kernel knows of its page's request: ``query`` (the query string, "" for none; None when the request
    could not be read), ``cookie`` (the Cookie header, "" for none), ``pooled`` (the kernel came from Voila's pool)
    and ``reached`` (False only for a pooled kernel that could not reach Voila's query websocket in time: the
    query and cookie are then unknown, and the page must take them from the browser)."""

    query: str | None
    cookie: str
    pooled: bool
    reached: bool = True


def pooled(environ=None) -> bool:
    """True in a kernel Voila started for its pool (``$VOILA_PREHEAT`` is ``True``). ``environ``: a mapping
    (default `os.environ`)."""
    env = os.environ if environ is None else environ
    return env.get("VOILA_PREHEAT", "False") == "True"


def query_url(environ=None) -> str:
    """The address of this kernel's query websocket, as `voila.utils.wait_for_request` builds it from
    ``$VOILA_WS_PROTOCOL``, ``$VOILA_APP_IP``, ``$VOILA_APP_PORT``, ``$VOILA_WS_BASE_URL`` (else
    ``$VOILA_SERVER_URL``) and ``$VOILA_KERNEL_ID``. ``environ``: a mapping (default `os.environ`)."""
    env = os.environ if environ is None else environ
    protocol = env.get("VOILA_WS_PROTOCOL", "ws")
    ip = env.get("VOILA_APP_IP", "127.0.0.1")
    port = env.get("VOILA_APP_PORT", "8866")
    base = env.get("VOILA_WS_BASE_URL", env.get("VOILA_SERVER_URL", "/"))
    return f"{protocol}://{ip}:{port}{base}voila/query/{env.get('VOILA_KERNEL_ID', '')}"


def _query_wait() -> float:
    """`QUERY_WAIT_S`, or ``$ROOK_QUERY_WAIT`` when it is a number ≥ 0 (a bad value is said in the log)."""
    text = os.environ.get(QUERY_WAIT_ENV, "").strip()
    if not text:
        return QUERY_WAIT_S
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < 1e6:
        _log.warning("$%s is a number of seconds >= 0, not %r: %g s is used.", QUERY_WAIT_ENV, text[:40],
                     QUERY_WAIT_S)
        return QUERY_WAIT_S
    return value


def _receive(url: str) -> tuple[str | None, bool]:
    """One try: open ``url`` (within `OPEN_TIMEOUT_S`) and wait for Voila's one message (the request's variables as
    a JSON object). Returns (the message or None, whether the websocket was opened): None when it could not be
    opened or closed without a message. Raises nothing."""
    import websockets  # noqa: PLC0415 - Voila's own dependency, loaded only in a pooled kernel

    result: list = [None, False]

    async def talk() -> str | None:
        async with websockets.connect(url, open_timeout=OPEN_TIMEOUT_S, ping_interval=None) as ws:
            result[1] = True
            _log.info("%s: ready, waiting for a page", url.rsplit("/", 1)[-1] or "kernel")
            message = await ws.recv()
            return message if isinstance(message, str) else message.decode("utf-8", "replace")

    def run() -> None:  # in a thread of its own: the kernel's thread may have an event loop running
        try:
            result[0] = asyncio.run(talk())
        except Exception as e:  # noqa: BLE001 - any failure is one failed try, said in the log
            _log.debug("Voila's query websocket %s: %s: %s", url, type(e).__name__, e)

    thread = threading.Thread(target=run, name="rook-page-request", daemon=True)
    thread.start()
    thread.join()
    return result[0], result[1]


def wait_for_page(receive=None, wait: float | None = None, sleep=time.sleep, environ=None) -> PageRequest:
    """The page's request. In a kernel started for one page: its environment's ``QUERY_STRING`` and
    ``HTTP_COOKIE`` at once. In a pooled kernel (`pooled`): waits until a page takes the kernel and Voila sends the
    request (no bound once connected: that is the pool's purpose), puts its variables into ``environ`` as
    `voila.utils.wait_for_request` does, and returns them. A try that fails is repeated after 0.5, 1, 2, ... s (at
    most 10 s apart) until ``wait`` seconds (default `_query_wait`) have passed since the last time the websocket
    was open; then the request is given up (``reached`` False, ``query`` None, said in the server's log).

    ``receive``: a function(url) -> (message or None, opened: bool) (default: one websocket try, `_receive`);
    ``sleep``: a
    function(seconds); ``environ``: the mapping to read and update (default `os.environ`). Raises nothing."""
    env = os.environ if environ is None else environ
    if not pooled(env):
        return PageRequest(env.get("QUERY_STRING", ""), env.get("HTTP_COOKIE", ""), False)
    receive = receive or _receive
    budget = _query_wait() if wait is None else wait
    url = query_url(env)
    start, pause = time.monotonic(), 0.5
    while True:
        message, opened = receive(url)
        if opened:
            start, pause = time.monotonic(), 0.5  # the budget is for reaching Voila, not for waiting in the pool
        if message is not None:
            try:
                values = json.loads(message)
                if not isinstance(values, dict):
                    raise ValueError("not a JSON object")
                for key, value in values.items():
                    env[str(key)] = str(value)
                return PageRequest(env.get("QUERY_STRING", ""), env.get("HTTP_COOKIE", ""), True)
            except ValueError as e:
                _log.warning("Voila's query websocket sent what is not a request (%s): %.200r", e, message)
        if time.monotonic() - start + pause > budget:
            _log.warning("Voila's query websocket %s could not be reached within %g s: the page's link and learner "
                         "are taken from the browser.", url, budget)
            return PageRequest(None, "", True, reached=False)
        sleep(pause)
        pause = min(pause * 2, 10.0)


cookie_learner = learners.cookie_learner
