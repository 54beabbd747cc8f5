"""The pool's kernels start a few at a time, and a slot of Voila's pool whose kernel failed is never handed to a page
(issue 31 item 2: a page of a class must never be lost).

Voila gives a kernel 60 s to answer once started (``VoilaExecutor.startup_timeout``); past that its page generator
fails in a task nobody reads. A page whose kernel fails so waits for ever; a slot of Voila's pool whose kernel failed
so stays in the pool and the page that takes it fails. Kernels starting together share the cores: on this 2-core
machine, with other work on it, one of the 28 kernels of voila.json's pools started together with the server did not
answer within 60 s ("Kernel didn't respond in 60 seconds", benchmarks/README.md "Opening"), and twenty pages opened at
once each start a kernel when the pool is empty or off. The cause is starting them all at once, not the 60 s: a
kernel needs about 1.5 CPU seconds to start (Python, ipykernel, the app's modules), so a few at a time each answers
within seconds, and the last of twenty is ready about as soon as when all twenty shared the cores.

- `StartGate`: at most `starts_at_once` of the pool's kernels starting at once (the pool filled when the server
  starts, refilled after a class has taken its kernels), each counted from its launch until it answers a
  kernel_info request (Jupyter's ``wait_for_ready``), in the order they were asked for. Voila's own 60 s then begin
  once the kernel is up. A kernel started for a page is not held: Voila sends a page nothing until its kernel is
  started, so a page waiting its turn would be a blank tab; for pages the pool is the answer (kernels ready before
  the class comes).
- `without_failed_slots`: the pool's ``get_pool_size`` (Voila asks it before it takes a kernel from the pool) first
  drops the slots whose kernel failed to start or whose notebook run failed, shuts their kernels down and has them
  replaced (``fill_if_needed``), and counts only the slots whose kernel has started or is starting (past its
  ``fill_delay``: `past_delay`); a refill still waiting for its delay would keep a page waiting that long. So a
  page is given a sound kernel, one about to be ready, or one started for it at once. (Voila itself gives a page
  no pool kernel before the notebook's first pool kernel has started: at the server's start the first pages get
  kernels of their own.)

Used by `rookserver.kernels.RookKernelManager` (its ``start_kernel`` and the pool class Voila makes from it).
"""
from __future__ import annotations

import asyncio
import functools
import logging
import os
import weakref
from typing import Awaitable, Callable

from jupyter_core.utils import ensure_async

__all__ = ["STARTS_ENV", "READY_TIMEOUT_S", "starts_at_once", "StartGate", "failed_slot", "past_delay", "without_failed_slots"]

STARTS_ENV = "ROOK_KERNEL_STARTS"
"""Environment variable: kernels that may start at once (a whole number ≥ 1); default `starts_at_once`."""
READY_TIMEOUT_S = 120.0
"""Seconds a starting kernel holds its place at most before the next one may start (a kernel that never answers
frees it then; Voila's own wait says the rest)."""
_log = logging.getLogger(__name__)


def starts_at_once(environ=None) -> int:
    """Kernels that may start at once: ``$ROOK_KERNEL_STARTS`` when it is a whole number ≥ 1, else the machine's
    cores (at least 2). ``environ``: a mapping (default `os.environ`). A bad value is said in the log."""
    env = os.environ if environ is None else environ
    text = env.get(STARTS_ENV, "").strip()
    if text:
        if text.isdigit() and int(text) >= 1:
            return int(text)
        _log.warning("$%s is a whole number >= 1, not %r: the machine's cores are used.", STARTS_ENV, text[:40])
    return max(2, os.cpu_count() or 2)


class StartGate:
    """At most ``size`` (int ≥ 1) kernels starting at once, first come first served. `start` launches one and
    returns its id once it answers (or `READY_TIMEOUT_S` has passed). ``starting`` and ``waiting``: how many are
    starting and waiting now."""

    def __init__(self, size: int) -> None:
        self.size = max(1, int(size))
        self.starting = 0
        self.waiting = 0
        self._slots: asyncio.Semaphore | None = None  # made in the server's event loop, on first use

    async def start(self, manager, launch: Callable[[], Awaitable[str]]) -> str:
        """Launch a kernel of ``manager`` (a jupyter_server kernel manager) with ``launch()`` (a coroutine function
        returning the new kernel's id) when a place is free, and hold the place until the kernel answers
        (`wait_ready`). Returns the kernel id; raises what ``launch`` raises (its place is freed)."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.size)
        self.waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self.waiting -= 1
        self.starting += 1
        try:
            kernel_id = await launch()
            await wait_ready(manager, kernel_id)
            return kernel_id
        finally:
            self.starting -= 1
            self._slots.release()


async def wait_ready(manager, kernel_id: str, timeout: float = READY_TIMEOUT_S) -> bool:
    """Wait until kernel ``kernel_id`` of ``manager`` answers a kernel_info request (a client of its own, closed
    after), at most ``timeout`` seconds. Returns True when it answered, False otherwise (said in the log). Raises
    nothing."""
    try:
        client = manager.get_kernel(kernel_id).client()
        client.start_channels()
        try:
            await ensure_async(client.wait_for_ready(timeout=timeout))
            return True
        finally:
            client.stop_channels()
    except Exception as e:  # noqa: BLE001 - Voila's own wait then reports the kernel
        _log.warning("Kernel %s did not answer within %g s of its start: %s", kernel_id, timeout, e)
        return False


def failed_slot(slot: asyncio.Future) -> bool:
    """True for a slot of Voila's pool (the future of ``{"kernel_id", "task", "renderer"}``) that can give a page
    nothing: its start failed or was cancelled, or its notebook run (``task``) ended with an error. A slot still
    starting, or whose notebook waits for its page, is sound."""
    if not slot.done():
        return False
    if slot.cancelled() or slot.exception() is not None:
        return True
    content = slot.result()
    task = content.get("task") if isinstance(content, dict) else None
    return task is not None and task.done() and (task.cancelled() or task.exception() is not None)


def past_delay(manager) -> None:
    """Note, from inside a task of Voila's pool that has begun to start its kernel (its ``fill_delay`` is over),
    that task in ``manager._past_delay`` (a `weakref.WeakSet` made on first use), which `without_failed_slots`
    reads. Outside a task it does nothing. Raises nothing."""
    try:
        task = asyncio.current_task()
    except RuntimeError:
        return
    if task is None:
        return
    if getattr(manager, "_past_delay", None) is None:
        manager._past_delay = weakref.WeakSet()
    manager._past_delay.add(task)


def _kernel_of(slot: asyncio.Future) -> str | None:
    """The kernel id of a finished slot, or None."""
    if not slot.done() or slot.cancelled() or slot.exception() is not None:
        return None
    content = slot.result()
    return content.get("kernel_id") if isinstance(content, dict) else None


def without_failed_slots(get_pool_size):
    """``get_pool_size(self, notebook_name)`` of the class Voila's pool factory makes, counting only the slots that
    can give a page a kernel now. It first drops the failed slots (`failed_slot`) of that notebook's pool: their
    kernels are shut down and new ones asked for (``fill_if_needed``, after the pool's ``fill_delay``), each said in
    the server's log. Then it puts the started slots first, then those starting (their task is in
    ``self._past_delay``, see `past_delay`; Voila's ``get_rendered_notebook`` takes the first), and returns how many
    there are: a slot still waiting for its ``fill_delay`` (Voila counts it) would keep the page that takes it
    waiting that long (measured: with a 240 s delay, the 20 pages of 40 opened at once beyond a pool of 20 waited
    245-294 s for their HTML); the page gets a kernel started for it instead. A slot already starting is counted: a
    page arriving while the pool refills waits the seconds its kernel needs rather than starting one more."""

    @functools.wraps(get_pool_size)
    def checked(self, notebook_name: str) -> int:
        get_pool_size(self, notebook_name)  # Voila's own count: makes the notebook's pool if it has none
        pool = getattr(self, "_pools", {}).get(notebook_name)
        if pool is None:
            return 0
        bad = [slot for slot in pool if failed_slot(slot)]
        for slot in bad:
            pool.remove(slot)
            kernel_id = _kernel_of(slot)
            self.log.warning("A kernel of the pool of %s failed (%s): dropped and replaced", notebook_name,
                             kernel_id or "not started")
            if kernel_id is not None and kernel_id in self:
                asyncio.ensure_future(ensure_async(self.shutdown_kernel(kernel_id)))
        if bad:
            self.fill_if_needed(notebook_name=notebook_name)
        starting = getattr(self, "_past_delay", ())
        pool.sort(key=lambda slot: 0 if slot.done() else 1 if slot in starting else 2)  # each group in its order
        return sum(1 for slot in pool if slot.done() or slot in starting)

    return checked
