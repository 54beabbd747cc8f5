"""Voila's kernel manager for the app's server: caps on the pages' kernels, and a kernel whose page has gone shut down
(issue 31 item 6). Chosen in voila.json: ``"VoilaConfiguration": {"multi_kernel_manager_class":
"rookserver.kernels.RookKernelManager"}``; its settings are the ``RookKernelManager`` section there or
``--RookKernelManager.<name>=<value>`` on Voila's command line (README "Serving a class").

**Caps** (`rookserver.caps`): a page asks for a kernel in one of two ways, both seen here in the page's own request
(jupyter_server's `CallContext` holds the request handler while Voila serves it):

- Voila starts a kernel for it (no pool, or the pool is empty): `RookKernelManager.start_kernel`;
- Voila's pool gives it a kernel that has already run the notebook (``preheat_kernel``): the pool's
  ``get_rendered_notebook``, defined by the class Voila makes from this one (`voila.voila_kernel_manager`'s
  factory), which `RookKernelManager.__init_subclass__` wraps. The kernels the pool starts to fill itself have
  ``VOILA_PREHEAT=True`` in their environment: they belong to no client and are not counted.

Past a cap the page is answered at once with `rookserver.full_page` (HTTP 429, or 503 when the server is full, with
Retry-After) instead of Voila's page; nothing is started.

**A page that has gone** (`page_gone_seconds`): an analysis sends progress messages, which count as activity, so
jupyter_server's idle cull never stops a kernel whose page was closed without a word (a browser killed, a connection
lost) while it computes. A kernel that has had a page's websocket connection and has had none for
`page_gone_seconds` is shut down, busy or not. A kernel that never had one (waiting in the pool, or its page still
loading) is left alone. A lost connection with no close is noticed by jupyter_server's websocket pings (every 30 s,
closed after 90 s without an answer), then the grace period runs.
"""
from __future__ import annotations

import asyncio
import functools

from jupyter_core.utils import ensure_async
from jupyter_server.base.call_context import CallContext
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Float, Int, Unicode
from voila.utils import ENV_VARIABLE

from rookcore.learners import cookie_learner

from .caps import (BROWSER_ID, CLIENT_COOKIE, CapReached, Client, KernelBook, Limits, memory_limit_bytes,
                   new_browser_id, pages_for_memory, request_address)
from .full_page import full_page, request_language
from .kernel_starts import StartGate, past_delay, starts_at_once, without_failed_slots

COOKIE_DAYS = 365
"""How long a browser keeps its `CLIENT_COOKIE` (days)."""


class RookKernelManager(AsyncMappingKernelManager):
    """jupyter_server's kernel manager with caps on the pages' kernels and the shut-down of a kernel whose page has
    gone (module docstring). Works as Voila's ``multi_kernel_manager_class`` with and without the kernel pool."""

    max_kernels = Int(0, config=True, help="""The pages' kernels kept at once, all clients together (kernels waiting
        in Voila's pool not counted). 0: as many as the memory holds: (the server's memory, or its container's
        limit, - memory_reserve_mb - the pool's kernels x kernel_memory_mb) / kernel_memory_mb.""")
    max_kernels_per_browser = Int(10, config=True, help="""The kernels of one browser's pages (known by the
        rook_client cookie): the app, lessons, statistics in several tabs. 0: no cap.""")
    max_kernels_per_ip = Int(60, config=True, help="""The kernels of the pages of one network address: a class behind
        one school network shares one address, so this is far above the per-browser cap. 0: no cap (everyone comes
        through one proxy, and client_address_header is not set).""")
    kernel_memory_mb = Float(100, config=True, help="""One page's kernel (MB) for the cap derived from memory: the
        app's kernel holds about 80 MB once open, about 350 MB while an analysis runs (the double-dummy solver's
        table; measured in tests/browser/test_page_gone.py's output).""")
    memory_reserve_mb = Float(1024, config=True, help="""Memory kept for the server itself and the system (MB) in the
        cap derived from memory.""")
    client_address_header = Unicode("", config=True, help="""A header that names the client's address (e.g.
        X-Forwarded-For, X-Real-IP), read instead of the connection's own address: set it only behind a proxy that
        you trust to set it (a client can write any header). Empty: the connection's address.""")
    page_gone_seconds = Float(120, config=True, help="""Seconds after its page's last websocket connection closed
        (closed by the browser, or found dead by the pings) that a kernel is shut down, even while it computes.
        Only for kernels that had a page; kernels waiting in Voila's pool are never shut down by this. 0: never.""")
    retry_after_seconds = Int(60, config=True, help="The Retry-After header (s) of the page shown when a cap is "
                              "reached.")

    def __init__(self, **kwargs) -> None:
        """As `AsyncMappingKernelManager` (``parent``, ``connection_dir``, ... from Voila)."""
        super().__init__(**kwargs)
        self._book = KernelBook()
        self._connections: dict[str, int] = {}
        """Open websocket connections per kernel id; a kernel id is here once a page has connected to it."""
        self._gone_timers: dict[str, asyncio.TimerHandle] = {}
        self._total: int | None = None
        self._starts = StartGate(starts_at_once())  # kernels start a few at a time (rookserver.kernel_starts)

    # ----- caps ------------------------------------------------------------------------------------------------
    def __init_subclass__(cls, **kwargs) -> None:
        """Wrap the pool's ``get_rendered_notebook`` (defined by the class Voila's kernel-pool factory makes from this
        one) so that a page taking a kernel from the pool is held to the caps too (`_take_from_pool`)."""
        super().__init_subclass__(**kwargs)
        take = cls.__dict__.get("get_rendered_notebook")
        if take is not None:
            cls.get_rendered_notebook = _take_from_pool(take)
        size = cls.__dict__.get("get_pool_size")
        if size is not None:  # a pool slot whose kernel failed is dropped before a page is given it
            cls.get_pool_size = without_failed_slots(size)

    def limits(self) -> Limits:
        """The caps now (`rookserver.caps.Limits`); the total from memory (`pages_for_memory`) when `max_kernels`
        is 0, worked out once, when the first page asks (the pool's size is known by then)."""
        if self.max_kernels > 0:
            total = self.max_kernels
        else:
            if self._total is None:
                self._total = pages_for_memory(memory_limit_bytes(), self.kernel_memory_mb, self.memory_reserve_mb,
                                               self._pool_kernels())
                self.log.info("Kernel caps: %d pages at once (from memory), %d per browser, %d per network address",
                              self._total, self.max_kernels_per_browser, self.max_kernels_per_ip)
            total = self._total
        return Limits(total=total, per_browser=max(self.max_kernels_per_browser, 0),
                      per_address=max(self.max_kernels_per_ip, 0))

    def _pool_kernels(self) -> int:
        """The kernels Voila's pool keeps ready, all notebooks together (its ``kernel_pools_config``; 0 without a
        pool)."""
        pools = getattr(self, "_pools", None)  # the pool's own notebooks (voila.voila_kernel_manager)
        config = getattr(self, "kernel_pools_config", None)
        if not pools or not isinstance(config, dict):
            return 0
        default = config.get("default", {})
        return sum(max(int(config.get(name, default).get("pool_size", default.get("pool_size", 1))), 0)
                   for name in pools)

    def admit(self) -> int:
        """Hold the page being served (the request in `CallContext`) to the caps: returns the ticket of its place
        (`KernelBook.admit`), to give to `_own` once its kernel is known or `_release` if none comes.

        The browser is named by its `CLIENT_COOKIE`, set here on a browser that has none. Past a cap it answers the
        page with `full_page` (HTTP 429 for a client's cap, 503 for the total; Retry-After) and raises
        ``tornado.web.Finish`` (which ends the request without an error page); with no request being served (a
        kernel started by code) only the total applies, and past it raises ``tornado.web.HTTPError(503)``."""
        handler = CallContext.get(CallContext.JUPYTER_HANDLER)
        request = getattr(handler, "request", None)
        client = self._client(handler) if request is not None else Client()
        try:
            return self._book.admit(client, self.limits(), self.__contains__)
        except CapReached as full:
            self.log.warning("Page refused (%s) for browser %s at %s: %s", request and request.uri,
                             client.browser, client.address, full)
            if request is None:
                raise web.HTTPError(503, str(full)) from full
            handler.set_status(503 if full.kind == "total" else 429)
            handler.set_header("Retry-After", str(self.retry_after_seconds))
            handler.set_header("Content-Type", "text/html; charset=UTF-8")
            handler.set_header("Cache-Control", "no-store")
            lang = request_language(handler.get_argument("lang", None),
                                    cookie_learner(request.headers.get("Cookie")), request.headers.get("Accept-Language"))
            raise web.Finish(full_page(full, lang, request.uri)) from full

    def _client(self, handler) -> Client:
        """The client of the request ``handler`` serves: its browser id (a new one, set as a cookie, when the
        request has no valid one) and its address (`request_address`)."""
        browser = handler.get_cookie(CLIENT_COOKIE)
        if not browser or not BROWSER_ID.fullmatch(browser):
            browser = new_browser_id()
            handler.set_cookie(CLIENT_COOKIE, browser, path=handler.base_url or "/", expires_days=COOKIE_DAYS,
                               httponly=True, samesite="Lax", secure=handler.request.protocol == "https")
        return Client(browser=browser, address=request_address(handler.request, self.client_address_header))

    def _own(self, ticket: int, kernel_id: str) -> None:
        self._book.own(ticket, kernel_id)

    def _release(self, ticket: int) -> None:
        self._book.release(ticket)

    def client_of(self, kernel_id: str) -> Client | None:
        """The client whose page holds ``kernel_id`` (`rookserver.caps.Client`), None for a pool kernel or an
        unknown id."""
        return self._book.owner(kernel_id)

    async def start_kernel(self, *, kernel_id: str | None = None, path=None, **kwargs) -> str:
        """Start a kernel (as `AsyncMappingKernelManager.start_kernel`; returns its id, str). A kernel for a page is
        first held to the caps (`admit`: raises ``tornado.web.Finish`` after answering the page when one is
        reached); a kernel Voila's pool starts for itself (``VOILA_PREHEAT=True`` in ``env``) is not, and starts
        when a place is free, returning once it answers (`rookserver.kernel_starts.StartGate`)."""
        env = kwargs.get("env") or {}
        launch = functools.partial(super().start_kernel, kernel_id=kernel_id, path=path, **kwargs)
        if kernel_id is not None and kernel_id in self:
            return await launch()
        if env.get(ENV_VARIABLE.VOILA_PREHEAT) == "True":
            past_delay(self)  # this pool slot is starting: a page may take it (kernel_starts.without_failed_slots)
            return await self._starts.start(self, launch)
        ticket = self.admit()
        try:
            kernel_id = await launch()
        except BaseException:
            self._release(ticket)
            raise
        self._own(ticket, kernel_id)
        return kernel_id

    # ----- a page that has gone --------------------------------------------------------------------------------
    def notify_connect(self, kernel_id: str) -> None:
        """A page's websocket connected to ``kernel_id``: it has a page (and any wait for its shut-down stops)."""
        super().notify_connect(kernel_id)
        self._connections[kernel_id] = self._connections.get(kernel_id, 0) + 1
        timer = self._gone_timers.pop(kernel_id, None)
        if timer is not None:
            timer.cancel()

    def notify_disconnect(self, kernel_id: str) -> None:
        """A websocket of ``kernel_id`` closed: when it was the last, the kernel is shut down after
        `page_gone_seconds` unless a page connects again meanwhile."""
        super().notify_disconnect(kernel_id)
        if kernel_id not in self._connections:
            return
        self._connections[kernel_id] = max(self._connections[kernel_id] - 1, 0)
        if self._connections[kernel_id] or self.page_gone_seconds <= 0 or kernel_id in self._gone_timers:
            return
        loop = asyncio.get_event_loop()
        self._gone_timers[kernel_id] = loop.call_later(self.page_gone_seconds, self._page_gone, kernel_id)

    def _page_gone(self, kernel_id: str) -> None:
        """The grace period of ``kernel_id`` is over: shut it down if no page has connected again."""
        self._gone_timers.pop(kernel_id, None)
        if kernel_id not in self or self._connections.get(kernel_id, 0):
            if kernel_id not in self:
                self._forget(kernel_id)
            return
        self.log.warning("Shutting down kernel %s: its page has had no connection for %g s", kernel_id,
                         self.page_gone_seconds)
        task = asyncio.ensure_future(ensure_async(self.shutdown_kernel(kernel_id)))
        task.add_done_callback(functools.partial(self._shut_down, kernel_id))

    def _shut_down(self, kernel_id: str, task: asyncio.Future) -> None:
        if not task.cancelled() and task.exception() is not None:
            self.log.warning("Kernel %s of a page that has gone could not be shut down: %s", kernel_id,
                             task.exception())

    def _forget(self, kernel_id: str) -> None:
        """``kernel_id`` is gone: drop what is kept about it."""
        self._book.forget(kernel_id)
        self._connections.pop(kernel_id, None)
        timer = self._gone_timers.pop(kernel_id, None)
        if timer is not None:
            timer.cancel()

    async def shutdown_kernel(self, kernel_id: str, *args, **kwargs):
        """Shut ``kernel_id`` down (as `AsyncMappingKernelManager.shutdown_kernel`) and forget its page and
        client."""
        self._forget(kernel_id)
        return await ensure_async(super().shutdown_kernel(kernel_id, *args, **kwargs))


def _take_from_pool(take):
    """``take`` (the pool's ``get_rendered_notebook(notebook_name, ...)`` coroutine method, returning
    ``(render_task, rendered_cache, kernel_id)``) held to the caps: the page is admitted (`RookKernelManager.admit`)
    before a kernel leaves the pool, and the kernel is its client's once taken."""

    @functools.wraps(take)
    async def get_rendered_notebook(self: RookKernelManager, *args, **kwargs):
        ticket = self.admit()
        try:
            result = await take(self, *args, **kwargs)
        except BaseException:
            self._release(ticket)
            raise
        self._own(ticket, result[2])
        return result

    return get_rendered_notebook
