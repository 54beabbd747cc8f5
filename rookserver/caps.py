"""Caps on the kernels of a Voila server's pages: who a client is, how many kernels each holds, the total that memory
allows (issue 31 item 6: one client opened 40 pages in 90 s and the server kept all 40, about 65 MB each).

A page of the app has one kernel. Three caps bound them (`Limits`), each checked when a page asks for a kernel:

- **per browser**: a browser is known by the random id of a cookie (`CLIENT_COOKIE`) the server sets on its first
  page. A class behind one school network, or everyone behind one proxy, still has one cookie per browser, so this
  cap can be low (a learner's app page, a few lesson pages, the statistics page).
- **per network address**: a client that drops the cookie (a script) looks like a new browser at every page, so the
  address it comes from is capped too, far higher (a whole class behind one school's NAT shares one address).
- **in all**: the pages' kernels the server keeps at once; by default what its memory holds (`pages_for_memory`).

A kernel waiting in Voila's pool belongs to no client and is not counted; it counts from the moment a page takes it.
`KernelBook` keeps the count: which client owns each page's kernel, and the pages being given a kernel right now
(admitted, kernel not started yet), so that forty pages asking at the same moment cannot all pass the check before
the first kernel exists.
"""
from __future__ import annotations

import itertools
import os
import re
import secrets
from dataclasses import dataclass, field
from typing import Callable

CLIENT_COOKIE = "rook_client"
"""The cookie that names a browser for the per-browser cap: 32 hexadecimal digits made by the server (`new_browser_id`;
not a secret, not the learner id: it only tells one browser's pages from another's)."""
BROWSER_ID = re.compile(r"[0-9a-f]{32}")
"""A browser id as `new_browser_id` makes it (use with ``fullmatch``); a cookie of any other form is replaced."""
KINDS = ("browser", "address", "total")
"""The caps, in the order they are checked (`KernelBook.admit`)."""


@dataclass(frozen=True)
class Client:
    """Who asks for a kernel: ``browser`` (the `CLIENT_COOKIE` id, str, or None when unknown) and ``address`` (the
    network address the request came from, str, or None when there is no request, e.g. a kernel started by code)."""

    browser: str | None = None
    address: str | None = None


@dataclass(frozen=True)
class Limits:
    """The caps (ints; 0 means no cap of that kind): ``total`` kernels of pages at once, ``per_browser`` and
    ``per_address`` kernels of one client."""

    total: int
    per_browser: int
    per_address: int

    def of(self, kind: str) -> int:
        """The cap of ``kind`` (one of `KINDS`); raises KeyError for another kind."""
        return {"browser": self.per_browser, "address": self.per_address, "total": self.total}[kind]


class CapReached(Exception):
    """A page asked for a kernel past a cap: ``kind`` (one of `KINDS`) and ``limit`` (the cap, int ≥ 1)."""

    def __init__(self, kind: str, limit: int) -> None:
        """``kind``: which cap (`KINDS`); ``limit``: its value."""
        super().__init__(f"{kind} cap of {limit} kernels reached")
        self.kind, self.limit = kind, limit


@dataclass
class KernelBook:
    """The kernels of pages by client, and the admissions whose kernel is still starting.

    Not thread-safe: the Voila server calls it from its one event loop, and `admit` checks and reserves in one step
    (no await in between), so two pages asking at once are counted one after the other."""

    _owners: dict[str, Client] = field(default_factory=dict)
    _pending: dict[int, Client] = field(default_factory=dict)
    _tickets: itertools.count = field(default_factory=itertools.count)

    def counts(self, client: Client, alive: Callable[[str], bool]) -> dict[str, int]:
        """The kernels of pages held now ({"browser": n, "address": n, "total": n}) by ``client``'s browser, by its
        address and in all, starting ones included. ``alive(kernel_id)`` says whether a kernel still runs: the
        kernels that do not are forgotten first (a kernel shut down or dead however it went). Raises nothing."""
        for kernel_id in [k for k in self._owners if not alive(k)]:
            del self._owners[kernel_id]
        holders = [*self._owners.values(), *self._pending.values()]
        return {"browser": sum(1 for c in holders if client.browser and c.browser == client.browser),
                "address": sum(1 for c in holders if client.address and c.address == client.address),
                "total": len(holders)}

    def admit(self, client: Client, limits: Limits, alive: Callable[[str], bool]) -> int:
        """Reserve a kernel for a page of ``client`` under ``limits``: returns a ticket (int) for `own` or `release`.
        Raises `CapReached` for the first cap (`KINDS` order) that this kernel would pass; a cap of 0 is no cap, and
        a client with no browser id (or no address) is not held to the per-browser (per-address) cap."""
        held = self.counts(client, alive)
        for kind in KINDS:
            limit = limits.of(kind)
            applies = kind == "total" or getattr(client, kind) is not None
            if limit > 0 and applies and held[kind] >= limit:
                raise CapReached(kind, limit)
        ticket = next(self._tickets)
        self._pending[ticket] = client
        return ticket

    def own(self, ticket: int, kernel_id: str) -> None:
        """The kernel admitted with ``ticket`` has started as ``kernel_id`` (str): it is the client's until it stops."""
        client = self._pending.pop(ticket, None)
        if client is not None:
            self._owners[kernel_id] = client

    def release(self, ticket: int) -> None:
        """The kernel admitted with ``ticket`` did not start (an error): its place is free again."""
        self._pending.pop(ticket, None)

    def forget(self, kernel_id: str) -> None:
        """``kernel_id`` has stopped: it no longer counts."""
        self._owners.pop(kernel_id, None)

    def owner(self, kernel_id: str) -> Client | None:
        """The client whose page holds ``kernel_id``, or None (a pool kernel, or not a page's)."""
        return self._owners.get(kernel_id)


def new_browser_id() -> str:
    """A new random browser id: 32 hexadecimal digits (128 bits from `secrets`)."""
    return secrets.token_hex(16)


def request_address(request, header: str = "") -> str:
    """The network address a request (``tornado.httputil.HTTPServerRequest``) came from: ``request.remote_ip``, or
    with ``header`` (e.g. "X-Forwarded-For", "X-Real-IP"; only when a proxy you trust sets it) the last address that
    header lists, the one the proxy itself saw (an earlier one can be written by the client). Falls back on
    ``remote_ip`` when the header is missing or empty. Raises nothing."""
    if header:
        value = request.headers.get(header, "")
        last = value.rsplit(",", 1)[-1].strip()
        if last:
            return last[:100]
    return str(request.remote_ip or "")


MEMORY_FILES = ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes")
"""Where a container's memory limit is written (cgroup v2, then v1): "max" or a number of bytes."""


def memory_limit_bytes(files: tuple[str, ...] = MEMORY_FILES) -> int:
    """The memory this server may use (bytes): the machine's physical memory, or a container's limit when lower
    (the first of ``files`` that holds a number below it; Kubernetes and Docker limits are written there).
    Raises nothing (0 when nothing can be read)."""
    try:
        physical = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        physical = 0
    limit = physical
    for path in files:
        try:
            with open(path, encoding="ascii") as fp:
                text = fp.read().strip()
        except OSError:
            continue
        if text.isdigit() and 0 < int(text) < (limit or 1 << 62):
            limit = int(text)
    return limit


def pages_for_memory(memory_bytes: int, kernel_mb: float, reserve_mb: float, pool_kernels: int = 0) -> int:
    """The pages' kernels that fit in ``memory_bytes`` (int): what is left after ``reserve_mb`` (the server itself and
    the system, MB) and the ``pool_kernels`` waiting in Voila's pool, divided by ``kernel_mb`` (one kernel's memory,
    MB > 0); at least 1. Raises ValueError if ``kernel_mb`` is not positive."""
    if kernel_mb <= 0:
        raise ValueError(f"a kernel's memory must be a positive number of MB, not {kernel_mb}")
    free_mb = memory_bytes / 2 ** 20 - reserve_mb
    return max(1, int(free_mb // kernel_mb) - pool_kernels)
