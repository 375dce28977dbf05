"""Where a match's jobs run: this process, a local process pool, or a Ray cluster.

A match is a list of independent jobs (a board in every rotation, or one rotation of a
whole game).  :func:`run_jobs` runs ``fn(job, threads)`` for each and hands every result to
``take`` as it arrives (in completion order: the caller sorts).  Each job is seeded by its
own arguments, so the results are the same wherever it runs; only the decision times differ.

- ``workers <= 1`` and no Ray: in this process, the solver on 2 threads;
- ``workers > 1``: a :class:`~concurrent.futures.ProcessPoolExecutor`, the solver on one
  thread per process;
- Ray (``ray_address`` given, or the ``RAY_ADDRESS`` environment variable set): each job a
  Ray task of one CPU on the cluster at that address (``"local"`` starts a private one on
  this machine; a Ray already initialised in this process is used as it is).  Every node needs
  this package installed, the same version, C solver built.

``start_more(k)`` is asked before job ``k`` (after the first) is started; ``False`` stops
starting jobs (a time limit), the jobs begun are finished.

>>> out = []
>>> run_jobs(_square, [1, 2, 3], workers=1, take=out.append)
>>> out
[1, 4, 9]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, TypeVar

J = TypeVar("J")
R = TypeVar("R")


class RayUnavailable(ValueError):
    """Ray was asked for but cannot be used (not installed, or no cluster at the address)."""


def ray_address_from_env(address: str | None) -> str | None:
    """The Ray address to use: the one given, else ``RAY_ADDRESS``, else ``None`` (no Ray)."""
    if address:
        return address
    env = os.environ.get("RAY_ADDRESS", "").strip()
    return env or None


def _square(x: int, threads: int) -> int:
    return x * x


def run_jobs(
    fn: Callable[[J, int], R],
    jobs: Sequence[J],
    *,
    workers: int,
    take: Callable[[R], None],
    start_more: Callable[[int], bool] | None = None,
    ray_address: str | None = None,
) -> None:
    """Run ``fn(job, threads)`` for every job; see the module docstring."""
    def may_start(k: int) -> bool:
        return k == 0 or start_more is None or start_more(k)

    if ray_address is not None:
        _run_ray(fn, jobs, take, may_start, ray_address)
        return
    if workers <= 1:
        for k, job in enumerate(jobs):
            if not may_start(k):
                break
            take(fn(job, 2))
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: set[Future[R]] = set()
        k = 0
        while True:
            while k < len(jobs) and len(pending) < 2 * workers and may_start(k):
                pending.add(pool.submit(fn, jobs[k], 1))
                k += 1
            if not pending:
                break
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                take(f.result())
            if k < len(jobs) and not may_start(k):
                k = len(jobs)  # the time is up: finish what runs, start nothing more


def _run_ray(
    fn: Callable[[J, int], R],
    jobs: Sequence[J],
    take: Callable[[R], None],
    may_start: Callable[[int], bool],
    address: str,
) -> None:
    try:
        import ray
    except ImportError:
        raise RayUnavailable(
            "--ray needs the ray package (pip install 'preferans[ray]' or pip install ray)"
        ) from None
    started_here = not ray.is_initialized()
    if started_here:
        try:
            if address == "local":
                ray.init(include_dashboard=False, log_to_driver=False)
            else:
                ray.init(address=address, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise RayUnavailable(f"cannot connect to Ray at {address}: {exc}") from None
    try:
        remote = ray.remote(num_cpus=1)(fn)
        window = max(4, 2 * int(ray.cluster_resources().get("CPU", 1)))
        pending: list[Any] = []
        k = 0
        while True:
            while k < len(jobs) and len(pending) < window and may_start(k):
                pending.append(remote.remote(jobs[k], 1))
                k += 1
            if not pending:
                break
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                take(ray.get(ref))
            if k < len(jobs) and not may_start(k):
                k = len(jobs)
    finally:
        if started_here:
            ray.shutdown()
