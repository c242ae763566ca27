"""The engine's one thread pool (``rougekit.engine.threads``) as ``rougekit.process`` uses it:
Ctrl-C stops the jobs before their next rows and is raised once the rows being scored are done."""

from __future__ import annotations

import signal
import threading
import time

import pytest

from rougekit.process import blocks


@pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="signal.pthread_kill is POSIX only")
def test_process_rows_an_interrupt_waits_for_the_running_rows_and_stops_the_rest():
    main = threading.get_ident()
    events: list[str] = []
    rows: list[int] = []
    tasks = 40  # 40 ranges of rows (16 rows each)

    def job(r0: int, r1: int) -> None:
        rows.append(r0)
        if threading.get_ident() != main and "interrupt" not in events:
            events.append("interrupt")
            signal.pthread_kill(main, signal.SIGINT)
            time.sleep(0.3)  # still scoring its rows when the interrupt arrives
            events.append("rows done")
        else:
            time.sleep(0.02)

    # Python's own Ctrl-C handler for this test: a process started with SIGINT ignored (a background
    # job of a shell, a pytest-xdist worker started from one) would otherwise never see the signal
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            blocks._run_rows(16 * tasks, 2, job)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert events == ["interrupt", "rows done"]  # raised only once the running rows were done
    time.sleep(0.1)
    taken = len(rows)
    time.sleep(0.3)
    assert len(rows) == taken < tasks  # no job took further rows


def test_process_rows_all_run_once_on_threads():
    seen: list[tuple[int, int]] = []
    lock = threading.Lock()

    def job(r0: int, r1: int) -> None:
        with lock:
            seen.append((r0, r1))

    blocks._run_rows(100, 3, job)
    assert sorted(seen) == [(0, 16), (16, 32), (32, 48), (48, 64), (64, 80), (80, 96), (96, 100)]


def test_a_thread_still_returning_holds_nothing_of_the_caller(monkeypatch):
    """A thread releases its lock, then returns: in that window it held ``run`` (and so the scorer,
    its engines and arrays), which a caller that had been told the work is done could not collect
    (test_batch's pool test failed in a random-order run: the scorer's engines were not given back)."""
    import gc
    import weakref

    from rougekit.engine import threads

    main = threading.get_ident()
    allocate = threads._thread.allocate_lock

    class SlowToReturn:  # a thread's lock whose release is followed by a pause, as on a busy machine
        def __init__(self):
            self.lock = allocate()

        def acquire(self, *args):
            return self.lock.acquire(*args)

        def release(self):
            self.lock.release()
            if threading.get_ident() != main:
                time.sleep(0.5)

    class Job:
        def __call__(self, k: int) -> None:
            pass

    monkeypatch.setattr(threads._thread, "allocate_lock", SlowToReturn)
    job = Job()
    gone = weakref.ref(job)
    threads.on_threads(job, 3)
    del job
    gc.collect()
    assert gone() is None


def test_an_interrupt_handled_just_after_the_wait_took_the_lock_does_not_hang(monkeypatch):
    """Ctrl-C is handled between bytecodes: one that lands as ``acquire`` returns (a second Ctrl-C,
    or one that arrived as the waiting thread went to sleep, and so ran only once the job was done)
    raised after the lock was taken. The wait then went back to a lock it already held, for ever:
    a README run hung here (test_batch's interrupt test, with pytest-timeout's stack in _wait_for)."""
    from rougekit.engine import threads

    allocate = threads._thread.allocate_lock
    waiting = threading.Event()
    calls: list[str] = []

    class InterruptedAsItReturns:  # the waiter's acquire takes the lock, then the handler raises
        def __init__(self):
            self.lock = allocate()
            self.acquires = 0

        def acquire(self, *args):
            self.acquires += 1
            if self.acquires == 1:  # on_threads' own, before the thread starts
                return self.lock.acquire(*args)
            calls.append("acquire")
            if self.acquires > 2:  # the lock is held by the waiter: the real one would block for ever
                return True
            waiting.set()
            self.lock.acquire(*args)
            raise KeyboardInterrupt

        def release(self):
            self.lock.release()

    def run(k: int) -> None:
        if k == 1:
            assert waiting.wait(60)

    stops: list = []
    monkeypatch.setattr(threads._thread, "allocate_lock", InterruptedAsItReturns)
    with pytest.raises(KeyboardInterrupt):
        threads.on_threads(run, 2, stops.append)
    assert calls == ["acquire"]  # the thread had finished: the wait did not take its lock again
    assert len(stops) == 1 and isinstance(stops[0], KeyboardInterrupt)
