"""Stopping a long-running command quietly: SIGINT (Ctrl+C) and SIGTERM alike."""

from __future__ import annotations

import signal

import duckdb


class Signals:
    """While in this block, SIGINT and SIGTERM stop it: the block ends with KeyboardInterrupt(signal name).

    DuckDB turns an interrupt that arrives during a query into an error of its own (RuntimeError: Query
    interrupted); the signal is remembered (`received`), so that such an error, too, ends the block as the
    signal it was."""

    def __init__(self) -> None:
        self.received: str | None = None

    def __enter__(self) -> Signals:
        self.previous = {number: signal.signal(number, self.stop) for number in (signal.SIGINT, signal.SIGTERM)}
        return self

    def stop(self, number: int, frame) -> None:
        self.received = signal.Signals(number).name
        raise KeyboardInterrupt(self.received)

    def hold(self) -> None:
        """Until release(), a signal is only remembered: for a step that an exception must not cut in two, such as
        starting a process (interrupted half-way, it would leave the process running and nothing holding it)."""
        for number in self.previous:
            signal.signal(number, self.remember)

    def remember(self, number: int, frame) -> None:
        self.received = signal.Signals(number).name

    def release(self) -> None:
        """Stop on a signal again, and at once if one came while held."""
        for number in self.previous:
            signal.signal(number, self.stop)
        if self.received:
            raise KeyboardInterrupt(self.received)

    def __exit__(self, kind, error, traceback) -> None:
        for number, handler in self.previous.items():
            signal.signal(number, handler)
        if self.received and error is not None and not isinstance(error, KeyboardInterrupt):
            raise KeyboardInterrupt(self.received) from None


def is_interrupt(error: BaseException) -> bool:
    """Whether an exception is a stop asked for (KeyboardInterrupt, SystemExit), or DuckDB's error for a signal that
    came during a query: a RuntimeError "Query interrupted" (DuckDB 2.0's Python client), or an InterruptException
    (a query interrupted from another thread)."""
    if not isinstance(error, Exception) or isinstance(error, duckdb.InterruptException):
        return True
    return type(error) is RuntimeError and str(error) == "Query interrupted"
