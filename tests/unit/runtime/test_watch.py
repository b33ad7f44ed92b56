"""TurnWatch: the turn timeout, the model's silence and the stop flag, and how a halt waits for a tool."""

from __future__ import annotations

import asyncio
import threading

import pytest

from charlotte.runtime.watch import MODEL_TIMEOUT, STOP, TURN_TIMEOUT, TurnWatch


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def watch_of(clock: Clock, *, stop: bool = False, **seconds: float) -> TurnWatch:
    options = {"idle_seconds": 10.0, "turn_seconds": 100.0, "poll_seconds": 0.01, **seconds}
    return TurnWatch(lambda: stop, clock=clock, **options)


async def until(watch: TurnWatch, step: object = None) -> str | None:
    """Run ``watch`` over work that never ends on its own; ``step`` moves the clock meanwhile."""
    work = asyncio.create_task(asyncio.sleep(30))
    try:
        if callable(step):
            asyncio.get_running_loop().call_later(0.05, step)
        return await asyncio.wait_for(watch.watch(work), timeout=10)
    finally:
        work.cancel()


def test_work_that_ends_by_itself_is_not_halted() -> None:
    async def scenario() -> str | None:
        watch = watch_of(Clock())
        return await watch.watch(asyncio.create_task(asyncio.sleep(0.02)))

    assert asyncio.run(scenario()) is None


def test_a_stop_halts_and_no_tool_starts_afterwards() -> None:
    watch = watch_of(Clock(), stop=True)

    assert asyncio.run(until(watch)) == STOP
    assert watch.halt == STOP
    assert watch.tool_may_start() is False


def test_silence_halts_model_timeout_and_each_event_resets_it() -> None:
    clock = Clock()
    watch = watch_of(clock)
    clock.now += 9.0
    watch.touch()
    clock.now += 9.0  # 18 s since the start, 9 since the last event

    def silence() -> None:
        clock.now += 1.0

    assert asyncio.run(until(watch, silence)) == MODEL_TIMEOUT


def test_a_running_tool_is_not_the_models_silence_and_is_waited_for() -> None:
    clock = Clock()
    watch = watch_of(clock, turn_seconds=50.0)
    assert watch.tool_may_start() is True
    clock.now += 40.0  # a long tool: no model_timeout while it runs
    ended = threading.Event()

    def end_of_turn_then_tool() -> None:
        clock.now += 20.0  # past the turn's bound
        threading.Timer(0.2, lambda: (watch.tool_ended(), ended.set())).start()

    halt = asyncio.run(until(watch, end_of_turn_then_tool))

    assert halt == TURN_TIMEOUT
    assert ended.is_set(), "the halt returned while the tool still ran"
    assert watch.tool_may_start() is False


def test_a_stop_flag_that_cannot_be_read_is_read_again() -> None:
    reads: list[int] = []

    def flaky() -> bool:
        reads.append(1)
        if len(reads) < 3:
            raise OSError("database down")
        return True

    watch = TurnWatch(flaky, idle_seconds=10, turn_seconds=100, poll_seconds=0.01, clock=Clock())

    assert asyncio.run(until(watch)) == STOP
    assert len(reads) == 3


@pytest.mark.parametrize("seconds", [{"idle_seconds": 0}, {"turn_seconds": -1}, {"poll_seconds": 0}])
def test_seconds_must_be_positive(seconds: dict[str, float]) -> None:
    options = {"idle_seconds": 1.0, "turn_seconds": 1.0, **seconds}
    with pytest.raises(ValueError):
        TurnWatch(lambda: False, **options)
