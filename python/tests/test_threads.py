"""Separate Worlds stepped from two Python threads at once (step releases the GIL) give
exactly the results of stepping them one after the other."""

import threading
import time

import numpy as np
import pivot
import pytest

SCENES = ["peg_in_hole.json", "block_stack_rotated_5.json"]
STEPS = 200


def final_state(world):
    return np.concatenate([world.positions, world.orientations, world.linear_velocities,
                           world.angular_velocities], axis=1)


def test_two_threads_match_serial(scenes):
    loaded = [pivot.load_scene(str(scenes / name)) for name in SCENES]
    serial = []
    for scene in loaded:
        world = pivot.World(scene)
        world.step(STEPS)
        serial.append(final_state(world))

    worlds = [pivot.World(scene) for scene in loaded]
    start = threading.Barrier(len(worlds))
    errors = []

    def run(world):
        try:
            start.wait()
            for _ in range(STEPS // 10):
                world.step(10)
        except Exception as e:  # reported below; a thread's exception is otherwise lost
            errors.append(e)

    threads = [threading.Thread(target=run, args=(w,)) for w in worlds]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for world, expected in zip(worlds, serial):
        np.testing.assert_array_equal(final_state(world), expected)


def test_step_releases_the_gil(scenes):
    # While one thread is inside a long step(n), another thread keeps running Python.
    world = pivot.World(pivot.load_scene(str(scenes / "block_stack_rotated_5.json")))
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    ticker = threading.Thread(target=tick)
    ticker.start()
    time.sleep(0.01)
    before = len(ticks)
    t0 = time.perf_counter()
    world.step(2000)  # about 0.25 s
    elapsed = time.perf_counter() - t0
    done.set()
    ticker.join()
    during = len([t for t in ticks if t0 <= t <= t0 + elapsed])
    assert before > 0
    # A held GIL lets the ticker run not at all inside the call (no bytecode runs there to
    # hand it over); released, it ticks about every millisecond, some 200 times.
    assert elapsed > 0.05, "the run is too short to tell"
    assert during >= 10


def test_ctrl_c_stops_a_long_step(scenes):
    # KeyboardInterrupt reaches a step(n) running with the GIL released: it is checked
    # between steps (every 1024), and the world keeps the steps it finished.
    import _thread

    world = pivot.World(pivot.load_scene(str(scenes / "block_stack_rotated_5.json")))
    timer = threading.Timer(0.05, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            world.step(10_000_000)  # about an hour
    finally:
        timer.cancel()
    assert 0 < world.step_count < 10_000_000
    assert world.step_count % 1024 == 0
    world.step()  # still usable
