"""The engine's one way to run jobs on threads: the batch driver's chunks and :mod:`rougekit.process`'s rows
(:func:`run_tasks`, a queue of tasks over :func:`on_threads`).

Low-level threads, with Ctrl-C handled the same way for every caller: the jobs already running
are waited for (the engines and output arrays they write must outlive them), told to take no
further work, and the interrupt is raised once they are done.
"""

from __future__ import annotations

import _thread
import threading


def on_threads(run, jobs: int, stop=None) -> None:
    """``run(k)`` for k in 0..jobs-1, k >= 1 each on a new thread, 0 on this one (``run`` catches
    its own errors).  Low-level threads: threading.Thread.start waits until the new thread runs
    (about 0.1 ms here), which job 0 spends scoring instead.

    Every thread started is waited for, even when this one is interrupted (Ctrl-C): the engines
    and the output array must outlive them.  ``stop(exc)`` then asks them to take no further
    chunk, and the interrupt is raised once they are done."""
    ends: list = []  # one [lock, finished] per thread started: see _wait_for
    # the threads reach ``run`` through this list, emptied once they are waited for: a thread still
    # returning from ``body`` then holds nothing of the caller's (its scorer, engines and arrays could
    # not be collected, nor a collected scorer's engines go back to the pool, until it had returned)
    task = [run]
    try:
        for k in range(1, jobs):
            end = [_thread.allocate_lock(), False]
            end[0].acquire()

            def body(k=k, end=end):
                try:
                    task[0](k)
                finally:
                    end[1] = True  # before the release: a waiter that finds it set never blocks
                    end[0].release()

            # listed before it starts: a Ctrl-C handler runs after a call returns, so one arriving as
            # start_new_thread returns still finds the thread in ``ends`` (``+=``, not a call: no
            # handler runs between the listing and the start, which would wait for a thread never started)
            ends += (end,)
            try:
                _thread.start_new_thread(body, ())
            except RuntimeError:  # no thread started ("can't start new thread"): none to wait for
                del ends[-1]
                raise
        run(0)
    except BaseException as exc:
        if stop is not None:
            stop(exc)
        _wait_for(ends, stop)
        task.clear()
        raise
    _wait_for(ends, stop)
    task.clear()


def run_tasks(tasks: list, workers: int, job) -> None:
    """``job(*task)`` for every task, in order of taking, on ``workers`` threads (this one included;
    the kernels release the GIL). The first error (Ctrl-C too) stops every thread before its next
    task and is raised once the tasks being run are done (they write into the caller's output)."""
    if workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            job(*task)
        return
    queue = list(tasks)
    lock = threading.Lock()
    errors: list[BaseException] = []

    def run(_k: int) -> None:
        while True:
            with lock:
                if not queue or errors:
                    return
                task = queue.pop(0)
            try:
                job(*task)
            except BaseException as exc:  # noqa: BLE001 - re-raised in the caller (Ctrl-C too)
                errors.append(exc)
                return

    on_threads(run, min(workers, len(queue)), errors.append)
    if errors:
        raise errors[0]


def _wait_for(ends: list, stop) -> None:
    """Wait until every thread of ``ends`` has finished; an interrupt meanwhile calls ``stop(exc)``,
    the wait goes on, and the interrupt is raised at the end.

    Whether a thread finished is read from its flag, never from having taken its lock: a Ctrl-C
    handled just after ``acquire`` returned (a second Ctrl-C, or one that arrived as this thread
    went to sleep and so ran only once the lock was free) would otherwise send the wait back to a
    lock it already holds, for ever."""
    pending = None
    while True:
        try:
            for end in ends:
                while not end[1]:  # its lock is released once, just after the flag is set
                    end[0].acquire()
            break
        except BaseException as exc:  # noqa: BLE001 - re-raised below, once the threads are done
            if pending is None:
                pending = exc
                if stop is not None:
                    stop(exc)
    if pending is not None:
        raise pending
