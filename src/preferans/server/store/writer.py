"""The store's writer thread: every write runs on it in the order it was made, so the
event loop never waits on the disk; the saves queued while it writes are committed together
(:data:`GROUP_COMMIT` in one transaction), and a group that fails is tried again a save at a
time, so a bad save fails only its own move."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import queue
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, TypeVar

T = TypeVar("T")

GROUP_COMMIT = 64
"""The most saves the writer thread commits in one transaction."""


_STOP = object()


_Save = tuple[str, dict[str, Any], "asyncio.Future[None]"]
"""A save waiting for the writer thread: the game, its values, the future its caller awaits."""


def _settle(outcomes: list[tuple[asyncio.Future[None], BaseException | None]]) -> None:
    """On the event loop: give each save's caller its outcome (None: committed)."""
    for future, error in outcomes:
        if future.done():
            continue
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)


class Writer:
    """The writer thread of a :class:`.games.GameStore` (a part of it: the store saves,
    this part orders and groups the saves)."""

    _closed: bool

    def _start_writer(self) -> None:
        """Start the writer thread (on opening the store)."""
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._batches: dict[asyncio.AbstractEventLoop, list[_Save]] = {}
        """Saves made in the current iteration of each event loop, not handed over yet."""
        self._closed = False
        self._writer = threading.Thread(target=self._write_forever, name="preferans-store",
                                        daemon=True)
        self._writer.start()

    def _stop_writer(self) -> None:
        """Finish the writes queued and stop the thread (on closing the store)."""
        if not self._closed:
            self._closed = True
            self._jobs.put(_STOP)
            self._writer.join()

    if TYPE_CHECKING:  # the store's own, used here
        def guard(self, writing: bool = False) -> AbstractContextManager[None]: ...

        def _begin(self) -> AbstractContextManager[Any]: ...

        def _update_many(self, conn: Any, saves: list[tuple[str, Mapping[str, Any]]]) -> None: ...

        def save(self, game_id: str, **values: Any) -> None: ...

    async def write(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run ``fn`` (a write: :meth:`save`, :meth:`claim`) on the store's writer thread,
        after every write submitted before it; the event loop goes on meanwhile."""
        self._hand_over(asyncio.get_running_loop())  # the saves made before it go first
        return await asyncio.wrap_future(self._submit("call", functools.partial(fn, *args,
                                                                                **kwargs)))

    def write_now(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """:meth:`write` from a thread that may block (a route run in the thread pool)."""
        return self._submit("call", functools.partial(fn, *args, **kwargs)).result()

    def _on_writer(self, job: Callable[[], T]) -> T:
        """Run a write on the writer thread and wait for it, so that a write from another
        thread (a new game, from a route in the thread pool) never contends with the saves
        for SQLite's lock (it timed out after 5 s under full load); directly on the writer
        thread itself or once the store is closed."""
        if self._closed or threading.current_thread() is self._writer:
            return job()
        return self._submit("call", job).result()

    def _submit(self, kind: str, job: Any) -> Future[Any]:
        if self._closed:
            raise RuntimeError("the store is closed")
        future: Future[Any] = Future()
        self._jobs.put((kind, job, future))
        return future

    def _write_forever(self) -> None:
        """The writer thread: each job in turn; consecutive saves as one group."""
        pending: Any = None
        while True:
            item = pending if pending is not None else self._jobs.get()
            pending = None
            if item is _STOP:
                self._refuse_left()
                return
            kind, job, future = item
            if kind == "call":
                if future.set_running_or_notify_cancel():
                    try:
                        future.set_result(job())
                    except BaseException as exc:
                        future.set_exception(exc)
                continue
            group: list[_Save] = list(job)
            while len(group) < GROUP_COMMIT:
                try:
                    following = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if following is _STOP or following[0] != "saves":
                    pending = following
                    break
                group.extend(following[1])
            self._save_group(group)

    def _refuse_left(self) -> None:
        """Once stopped: fail what was queued behind the stop (nothing waits for ever)."""
        closed = RuntimeError("the store is closed")
        while True:
            try:
                kind, job, future = self._jobs.get_nowait()
            except queue.Empty:
                return
            except (TypeError, ValueError):  # a second stop
                continue
            if kind == "saves":
                for _, _, waiting in job:
                    with contextlib.suppress(RuntimeError):
                        waiting.get_loop().call_soon_threadsafe(_settle, [(waiting, closed)])
            elif future.set_running_or_notify_cancel():
                future.set_exception(closed)

    def _save_group(self, group: list[_Save]) -> None:
        """Commit saves in one transaction; if it fails, each alone (:meth:`save`), so only
        the saves that cannot be written fail.  Their futures are settled on their event
        loop, one call for the whole group (one wake-up of the loop, not one per save)."""
        group = [save for save in group if not save[2].done()]  # its caller stopped waiting
        outcomes: list[tuple[asyncio.Future[None], BaseException | None]] = []
        if len(group) > 1:
            try:
                with self.guard(writing=True), self._begin() as conn:
                    self._update_many(conn, [(game_id, values) for game_id, values, _ in group])
            except Exception:
                pass  # tried again one by one below, where each save fails on its own
            else:
                outcomes = [(future, None) for _, _, future in group]
        if not outcomes:
            for game_id, values, future in group:
                try:
                    self.save(game_id, **values)
                except BaseException as exc:
                    outcomes.append((future, exc))
                else:
                    outcomes.append((future, None))
        by_loop: dict[asyncio.AbstractEventLoop, list[Any]] = {}
        for outcome in outcomes:
            by_loop.setdefault(outcome[0].get_loop(), []).append(outcome)
        for loop, settled in by_loop.items():
            with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits
                loop.call_soon_threadsafe(_settle, settled)

    async def save_async(self, game_id: str, **values: Any) -> None:
        """:meth:`save` on the writer thread (see :meth:`write`), committed together with the
        saves queued with it; raises as :meth:`save` does.

        The saves made in one iteration of the event loop go to the writer thread as one
        job, and each group's outcomes come back in one call: a save costs the loop no
        thread-safe future and no wake-up of its own."""
        if self._closed:
            raise RuntimeError("the store is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        batch = self._batches.get(loop)
        if batch is None:
            batch = self._batches[loop] = []
            loop.call_soon(self._hand_over, loop)
        batch.append((game_id, values, future))
        await future

    def _hand_over(self, loop: asyncio.AbstractEventLoop) -> None:
        """Give the saves of this loop iteration to the writer thread (at its end)."""
        batch = self._batches.pop(loop, None)
        if not batch:
            return
        if self._closed:
            _settle([(future, RuntimeError("the store is closed")) for _, _, future in batch])
            return
        self._jobs.put(("saves", batch, None))
