"""Running an asyncio scenario in a test: on a loop in a thread of its own (the browser tests leave a
loop running in the main thread, where ``asyncio.run`` refuses to start another)."""

from __future__ import annotations

import asyncio
import threading


def run_in_own_loop(scenario, timeout: float = 30) -> None:
    """``asyncio.run(scenario())`` in a thread; its failure is raised here."""
    failures: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(scenario())
        except BaseException as err:  # noqa: BLE001
            failures.append(err)

    runner = threading.Thread(target=run)
    runner.start()
    runner.join(timeout)
    assert not runner.is_alive(), "the scenario did not end"
    if failures:
        raise failures[0]
