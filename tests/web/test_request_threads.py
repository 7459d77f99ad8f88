"""The long-lived threads a web process runs Django's requests on (blaze_site.http_threads)."""

import asyncio
import threading

import pytest

from blaze_site.http_threads import Threads


def test_a_call_runs_on_one_of_the_threads_and_its_result_comes_back():
    threads = Threads(2, "t")

    async def main():
        return await asyncio.gather(*(threads.run(lambda i: (i, threading.current_thread().name), i)
                                      for i in range(20)))

    results = asyncio.run(main())
    assert [i for i, _ in results] == list(range(20))
    assert {name for _, name in results} <= {"t_0", "t_1"}


def test_an_error_on_a_thread_is_raised_in_the_awaiting_task():
    threads = Threads(1, "t")

    def fails():
        raise KeyError("gone")

    async def main():
        with pytest.raises(KeyError, match="gone"):
            await threads.run(fails)
        return await threads.run(lambda: "still serving")

    assert asyncio.run(main()) == "still serving"


def test_a_stop_iteration_cannot_end_the_awaiting_task_silently():
    threads = Threads(1, "t")

    async def main():
        with pytest.raises(RuntimeError, match="StopIteration"):
            await threads.run(next, iter(()))

    asyncio.run(main())


def test_a_cancelled_request_leaves_the_threads_serving_the_next():
    threads = Threads(1, "t")
    release = threading.Event()
    ran = []

    def slow():
        release.wait(30)
        ran.append("slow")
        return "late"

    async def main():
        waiting = asyncio.ensure_future(threads.run(slow))
        await asyncio.sleep(0)
        waiting.cancel()
        release.set()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        return await threads.run(lambda: "next")

    assert asyncio.run(main()) == "next"
    assert ran == ["slow"]  # the call ran to its end; its answer went nowhere


def test_calls_from_two_event_loops_each_come_back_to_their_own():
    threads = Threads(2, "t")

    def in_loop(tag):
        async def main():
            return [await threads.run(lambda i: (tag, i), i) for i in range(50)]
        return asyncio.run(main())

    out = {}
    workers = [threading.Thread(target=lambda t=t: out.__setitem__(t, in_loop(t)))
               for t in ("a", "b")]
    for w in workers:
        w.start()
    for w in workers:
        w.join(60)
    assert out == {t: [(t, i) for i in range(50)] for t in ("a", "b")}
