"""Running many requests: a thread pool of `num_parallel_requests`, retries with exponential backoff, a progress bar.

Results are handed back in the caller's thread as they complete (so they can be cached at once) and returned in
input order. Only failures marked retriable (429, 5xx, 408, timeouts, dropped connections) are retried.
"""

import asyncio
import random
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from itertools import islice
from typing import Any, Callable, Iterable, Iterator, List, Optional, Sequence

from .base import InferenceError


class RequestError(InferenceError):
    """A request failed; `retriable` says whether sending it again may succeed, `status` is the HTTP status."""

    def __init__(self, message: str, status: Optional[int] = None, retriable: bool = False,
                 retry_after: Optional[float] = None, **context: Any):
        self.status = status
        self.retriable = retriable
        self.retry_after = retry_after
        super().__init__(message, **context)


def with_retries(call: Callable[[], Any], max_retries: int, base_delay: float, max_delay: float,
                 label: str = "request") -> Any:
    """Run `call`, retrying retriable RequestErrors up to `max_retries` times with jittered exponential backoff; each
    retry is logged with its reason and wait (a server that is down is not 40 s of silence)."""
    attempt = 0
    while True:
        try:
            return call()
        except RequestError as error:
            if not error.retriable or attempt >= max_retries:
                if error.retriable:
                    error.message += f" (gave up after {attempt + 1} attempts)"
                    error.args = (error._compose(),)
                raise
            delay = min(max_delay, base_delay * (2 ** attempt))
            delay = delay * (0.5 + random.random() / 2)
            if error.retry_after is not None:
                delay = max(delay, min(error.retry_after, max_delay))
            from ..logging_utils import get_logger

            get_logger().warning(f"{label}: attempt {attempt + 1} of {max_retries + 1} failed ({error.message}); "
                                 f"retrying in {delay:.1f}s.")
            time.sleep(delay)
            attempt += 1


def progress_bar(total: int, description: str, enabled: bool = True):
    """A tqdm bar on stderr (tqdm ships with huggingface_hub); a no-op object when disabled or unavailable."""
    if enabled:
        try:
            from tqdm.auto import tqdm

            return tqdm(total=total, desc=description, unit="req", disable=None, leave=False)
        except ImportError:
            pass

    class _Silent:
        def update(self, n: int = 1) -> None:
            pass

        def close(self) -> None:
            pass

    return _Silent()


def _drain(running: dict, results: List[Any], on_result: Optional[Callable[[int, Any], None]]) -> None:
    """After a failure: cancel what has not started, keep the answers of what was already in flight."""
    for future in list(running):
        future.cancel()
    for future, position in list(running.items()):
        if future.cancelled():
            continue
        try:
            results[position] = future.result()
        except BaseException:  # noqa: BLE001 - the first failure is the one reported
            continue
        if on_result is not None:
            on_result(position, results[position])


def run_all(function: Callable[[Any], Any], items: Sequence[Any], num_parallel: int,
            on_result: Optional[Callable[[int, Any], None]] = None, description: str = "inference",
            show_progress: bool = True, pool: Optional[ThreadPoolExecutor] = None) -> List[Any]:
    """`function(item)` for every item with up to `num_parallel` in flight; results in input order. `pool`: a thread
    pool kept across calls (its workers bound what is in flight, shared by calls running at once), else one of
    `num_parallel` threads for this call.

    `on_result(position, result)` runs in the calling thread as each result arrives. The first failure cancels the
    requests not yet started, waits for those in flight (their answers are handed to `on_result` too: nothing
    answered is lost) and is raised with the failing item's position (`error.position`).
    """
    results: List[Any] = [None] * len(items)
    bar = progress_bar(len(items), description, show_progress and len(items) > 1)
    try:
        if num_parallel <= 1 or len(items) <= 1:
            for position, item in enumerate(items):
                try:
                    results[position] = function(item)
                except BaseException as error:
                    error.position = position
                    raise
                if on_result is not None:
                    on_result(position, results[position])
                bar.update(1)
            return results
        own_pool = pool is None
        if own_pool:
            pool = ThreadPoolExecutor(max_workers=min(num_parallel, len(items)))
        try:
            iterator = iter(enumerate(items))
            running = {}

            def submit_next() -> bool:
                try:
                    position, item = next(iterator)
                except StopIteration:
                    return False
                running[pool.submit(function, item)] = position
                return True

            for _ in range(min(num_parallel * 2, len(items))):
                submit_next()
            while running:
                done, _ = wait(list(running), return_when=FIRST_COMPLETED)
                for future in done:
                    position = running.pop(future)
                    error = future.exception()
                    if error is not None:
                        error.position = position
                        _drain(running, results, on_result)
                        raise error
                    results[position] = future.result()
                    if on_result is not None:
                        on_result(position, results[position])
                    bar.update(1)
                    submit_next()
        finally:
            if own_pool:
                pool.shutdown(wait=True)
        return results
    finally:
        bar.close()


def batched(lst: Iterable[Any], n: int) -> Iterator[List[Any]]:
    """Consecutive lists of `n` items (the last one shorter), lazily."""
    iterator = iter(lst)
    while True:
        batch = list(islice(iterator, n))
        if not batch:
            return
        yield batch


def run_with_imap(func: Callable[..., Any]) -> Callable[[Any, Sequence[Any]], Any]:
    """A method taking its arguments as one tuple (what `pool.imap(method, argument_tuples)` passes)."""

    def inner(self: Any, args: Sequence[Any]) -> Any:
        return func(self, *args)

    return inner


class AsyncTokenBucket:
    """An asyncio rate limiter: `rate` tokens a second up to `capacity` (the burst); `await acquire(n)` waits until
    `n` tokens are there and takes them."""

    def __init__(self, rate: float, capacity: float):
        self.rate = rate
        self.capacity = capacity
        self.tokens = capacity
        self.timestamp = time.perf_counter()
        self.lock = asyncio.Lock()
        self.interval = 1.0 / self.rate

    def _refill(self, now: float) -> None:
        """Add the whole tokens earned since the last refill (the remainder of an interval is kept for later)."""
        earned = int((now - self.timestamp) / self.interval)
        if earned > 0:
            self.tokens = min(self.capacity, self.tokens + earned)
            self.timestamp += earned * self.interval

    async def acquire(self, tokens: float = 1) -> None:
        """Wait until `tokens` tokens are available, then take them (other coroutines run while this one sleeps)."""
        while True:
            async with self.lock:
                now = time.perf_counter()
                self._refill(now)
                if self.tokens >= tokens:
                    self.tokens -= tokens
                    return
                wait_for = self.interval - (now - self.timestamp)
            await asyncio.sleep(wait_for)
