"""One deadline per call (SPEC §11 step 6, §13), and the caller's abort signal.

The clock and the sleep are passed in, so the policy is tested with a fake clock and nothing sleeps for real.
"""

from __future__ import annotations

import threading
from typing import Callable

from .errors import RcpAbortedError, RcpTimeoutError

Clock = Callable[[], float]
Sleep = Callable[[float], None]


class AbortSignal:
    """Set once by its :class:`AbortController`; a call in progress ends with ``RCP_ABORTED``.

    Callbacks registered with :meth:`on_abort` run on :meth:`AbortController.abort` (the sender closes its
    socket there, so a blocked read returns at once).
    """

    def __init__(self) -> None:
        self._aborted = threading.Event()
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[], None]] = []

    @property
    def aborted(self) -> bool:
        return self._aborted.is_set()

    def on_abort(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Run ``callback`` when aborted (at once if already); returns a function that unregisters it."""
        with self._lock:
            if not self._aborted.is_set():
                self._callbacks.append(callback)
                return lambda: self._remove(callback)
        callback()
        return lambda: None

    def _remove(self, callback: Callable[[], None]) -> None:
        with self._lock:
            if callback in self._callbacks:
                self._callbacks.remove(callback)

    def wait(self, seconds: float) -> bool:
        """Wait up to ``seconds``; True when aborted meanwhile."""
        return self._aborted.wait(seconds)

    def _fire(self) -> None:
        with self._lock:
            if self._aborted.is_set():
                return
            self._aborted.set()
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            try:
                callback()
            except Exception:  # noqa: BLE001 - an abort callback never fails the abort
                pass


class AbortController:
    """Owns an :class:`AbortSignal` to pass as ``signal=`` to ``execute`` / ``call``.

    Example::

        controller = AbortController()
        threading.Timer(2.0, controller.abort).start()
        client.execute(tool, args, signal=controller.signal)
    """

    def __init__(self) -> None:
        self.signal = AbortSignal()

    def abort(self) -> None:
        self.signal._fire()


class Deadline:
    """The time left of one call: every step reads it, nothing waits past it."""

    def __init__(self, timeout: float, clock: Clock, signal: AbortSignal | None = None) -> None:
        self._clock = clock
        self._end = clock() + timeout
        self.timeout = timeout
        self.signal = signal

    def remaining(self) -> float:
        return self._end - self._clock()

    def check(self) -> None:
        """Raise ``RCP_ABORTED`` or ``RCP_TIMEOUT`` when the call may not go on."""
        if self.signal is not None and self.signal.aborted:
            raise RcpAbortedError("The call was aborted by its caller.")
        if self.remaining() <= 0:
            raise self.timeout_error()

    def timeout_error(self) -> RcpTimeoutError:
        return RcpTimeoutError(f"The call took longer than its deadline of {round(self.timeout * 1000)} ms.")

    def fits(self, seconds: float) -> bool:
        """Whether a wait of ``seconds`` ends before the deadline."""
        return seconds < self.remaining()
