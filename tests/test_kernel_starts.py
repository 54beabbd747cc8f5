"""Kernels start a few at a time and a failed slot of Voila's pool is never handed to a page (rookserver.kernel_starts,
issue 31 item 2). The kernels here are stand-ins (the gate's own logic); a real Voila server goes through it in
tests/test_serving.py and the browser tests with a pool (tests/browser/test_learner_pages.py)."""
from __future__ import annotations

import asyncio
import logging

import pytest

from rookserver import kernel_starts
from rookserver.kernel_starts import StartGate, failed_slot, past_delay, starts_at_once, without_failed_slots


class FakeClient:
    def __init__(self, kernel):
        self.kernel = kernel

    def start_channels(self):
        self.kernel.clients += 1

    async def wait_for_ready(self, timeout):
        await asyncio.sleep(self.kernel.answer_after)
        if self.kernel.broken:
            raise RuntimeError("Kernel died before replying to kernel_info")

    def stop_channels(self):
        self.kernel.clients -= 1


class FakeKernel:
    def __init__(self, answer_after=0.05, broken=False):
        self.answer_after, self.broken, self.clients = answer_after, broken, 0

    def client(self):
        return FakeClient(self)


class FakeManager:
    def __init__(self):
        self.kernels = {}

    def get_kernel(self, kernel_id):
        return self.kernels[kernel_id]


def test_the_number_of_starts_at_once_comes_from_the_machine_or_the_environment(caplog):
    assert starts_at_once({}) >= 2
    assert starts_at_once({"ROOK_KERNEL_STARTS": "3"}) == 3
    with caplog.at_level(logging.WARNING):
        assert starts_at_once({"ROOK_KERNEL_STARTS": "0"}) == starts_at_once({})
    assert "ROOK_KERNEL_STARTS is a whole number >= 1, not '0'" in caplog.text


def test_kernels_start_a_few_at_a_time_in_order_each_until_it_answers():
    async def run():
        gate, manager = StartGate(2), FakeManager()
        most, order = [0], []

        async def launch(n):
            most[0] = max(most[0], gate.starting)
            order.append(n)
            manager.kernels[f"k{n}"] = FakeKernel(answer_after=0.05)
            return f"k{n}"

        ids = await asyncio.gather(*(gate.start(manager, lambda n=n: launch(n)) for n in range(7)))
        return ids, most[0], order, manager, gate

    ids, most, order, manager, gate = asyncio.run(run())
    assert ids == [f"k{n}" for n in range(7)] and order == list(range(7))
    assert most == 2 and gate.starting == 0 and gate.waiting == 0
    assert all(k.clients == 0 for k in manager.kernels.values())  # each answering client closed


def test_a_kernel_that_never_answers_frees_its_place_and_says_so(monkeypatch, caplog):
    monkeypatch.setattr(kernel_starts, "READY_TIMEOUT_S", 0.2)

    async def run():
        gate, manager = StartGate(1), FakeManager()
        manager.kernels["bad"] = FakeKernel(broken=True)
        manager.kernels["good"] = FakeKernel()

        async def launch(kid):
            return kid

        return await asyncio.gather(gate.start(manager, lambda: launch("bad")),
                                    gate.start(manager, lambda: launch("good")))

    with caplog.at_level(logging.WARNING):
        assert asyncio.run(run()) == ["bad", "good"]
    assert "Kernel bad did not answer" in caplog.text


def test_a_launch_that_fails_frees_its_place():
    async def run():
        gate = StartGate(1)

        async def boom():
            raise OSError("no kernel")

        with pytest.raises(OSError):
            await gate.start(FakeManager(), boom)
        return gate.starting, gate._slots._value

    assert asyncio.run(run()) == (0, 1)


def _slot(loop, *, error=None, render_error=None, render_done=True, kernel="k"):
    slot = loop.create_future()
    if error is not None:
        slot.set_exception(error)
        return slot
    render = loop.create_future()
    if render_done:
        if render_error is not None:
            render.set_exception(render_error)
        else:
            render.set_result(([], None))
    slot.set_result({"kernel_id": kernel, "task": render, "renderer": None})
    return slot


def test_a_slot_fails_when_its_start_or_its_notebook_run_failed():
    loop = asyncio.new_event_loop()
    try:
        pending = loop.create_future()
        assert not failed_slot(pending)  # still starting
        assert not failed_slot(_slot(loop, render_done=False))  # waiting for its page: sound
        assert not failed_slot(_slot(loop))  # its notebook ran to the end (a request it could not read): sound
        assert failed_slot(_slot(loop, error=RuntimeError("Kernel didn't respond in 60 seconds")))
        assert failed_slot(_slot(loop, render_error=RuntimeError("Kernel didn't respond in 60 seconds")))
    finally:
        loop.close()


def test_the_pool_drops_its_failed_slots_before_a_page_takes_one(caplog):
    class Pool:
        log = logging.getLogger("pool-test")

        def __init__(self, loop):
            self.loop = loop
            self._pools = {"app.ipynb": [_slot(loop, kernel="a", render_error=RuntimeError("x")),
                                         _slot(loop, kernel="b", render_done=False),
                                         _slot(loop, error=RuntimeError("start failed"))]}
            self.refills, self.shut = [], []

        def __contains__(self, kernel_id):
            return kernel_id in ("a", "b")

        async def shutdown_kernel(self, kernel_id):
            self.shut.append(kernel_id)

        def fill_if_needed(self, notebook_name=None, **kwargs):
            self.refills.append(notebook_name)

        def get_pool_size(self, notebook_name):
            return len(self._pools.get(notebook_name, []))

    Pool.get_pool_size = without_failed_slots(Pool.get_pool_size)

    async def run():
        pool = Pool(asyncio.get_running_loop())
        size = pool.get_pool_size("app.ipynb")
        await asyncio.sleep(0)
        return pool, size

    with caplog.at_level(logging.WARNING):
        pool, size = asyncio.run(run())
    assert size == 1 and [s.result()["kernel_id"] for s in pool._pools["app.ipynb"]] == ["b"]
    assert pool.shut == ["a"] and pool.refills == ["app.ipynb"]
    assert caplog.text.count("failed") == 2


class _SoundPool:
    """A pool of Voila's kind holding ``slots`` (futures) for app.ipynb, none failed; its get_pool_size checked."""
    log = logging.getLogger("pool-test")

    def __init__(self, slots):
        self._pools = {"app.ipynb": list(slots)}

    def __contains__(self, kernel_id):
        return True

    def fill_if_needed(self, notebook_name=None, **kwargs):
        raise AssertionError("nothing failed")

    @without_failed_slots
    def get_pool_size(self, notebook_name):
        return len(self._pools.get(notebook_name, []))


def test_the_pool_counts_only_started_slots_and_gives_them_first():
    """A refill still waiting for its fill_delay is in Voila's pool: a page given it would wait that long."""
    async def run():
        loop = asyncio.get_running_loop()
        waiting, ready = loop.create_future(), _slot(loop, kernel="r", render_done=False)  # waiting: in its delay
        pool = _SoundPool([waiting, ready])
        first = pool.get_pool_size("app.ipynb")
        order = list(pool._pools["app.ipynb"])
        pool._pools["app.ipynb"].pop(0)  # Voila's get_rendered_notebook takes the first
        return first, order == [ready, waiting], pool.get_pool_size("app.ipynb")

    first, ready_first, then = asyncio.run(run())
    assert first == 1 and ready_first  # Voila alone counted 2 and gave the waiting one
    assert then == 0  # only the refill in its delay is left: the next page gets a kernel started for it


def test_a_slot_starting_its_kernel_is_counted_after_the_started_ones():
    """A slot past its fill_delay (its kernel starting: a refill under way) is given to a page, which waits the
    seconds it needs, rather than a kernel started for the page; the started ones go first."""
    async def starting_slot(pool, go):
        past_delay(pool)  # what RookKernelManager.start_kernel does for a pool kernel
        await go

    async def run():
        loop = asyncio.get_running_loop()
        waiting, ready, go = loop.create_future(), _slot(loop, kernel="r", render_done=False), loop.create_future()
        pool = _SoundPool([waiting])
        starting = loop.create_task(starting_slot(pool, go))
        pool._pools["app.ipynb"] += [starting, ready]
        await asyncio.sleep(0)  # the slot's task runs up to its kernel's start
        size = pool.get_pool_size("app.ipynb")
        in_order = pool._pools["app.ipynb"] == [ready, starting, waiting]
        go.set_result(None)
        await starting
        return size, in_order

    assert asyncio.run(run()) == (2, True)


def test_past_delay_outside_a_task_does_nothing():
    class Manager:
        pass

    manager = Manager()
    past_delay(manager)
    assert getattr(manager, "_past_delay", None) is None
