"""The board's figures for `turnlight bench`: the firmware App on the MicroPython VM (heap,
idle allocation, the time of one rendering step), end-to-end latency over a real pty, and
the LED current of a scripted demo session on the simulated board.

e2e latency, one sample: a key press on the simulated board (next turn), the host bridge
applies it, its snapshot comes back, and the board's frame is shown with it; measured
from the press to the end of the loop step that took the host's snapshot (that step
renders and shows the frame).
"""

from __future__ import annotations

import re
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from firmware.app import DEFAULT_BUDGET_MA
from host import micropython_vm

Figures = dict[str, float | int]
LATENCY_SAMPLES = 500


def device_figures() -> Figures:
    with tempfile.TemporaryDirectory() as tmp:
        libs = micropython_vm.library_dir(Path(tmp))
        micropython_vm.board_frames(libs)
        done = micropython_vm.run(
            micropython_vm.VM_SCRIPTS / "board_app.py", [], [libs, micropython_vm.ROOT]
        )
    found = dict(re.findall(r"(\w+)=(\d+)", done.stdout))
    if done.returncode or "heap" not in found or "FAIL" in done.stdout:
        raise RuntimeError(f"board_app failed on the VM: {done.stdout}{done.stderr}")
    return {
        "device_heap_bytes": int(found["heap"]),
        "device_modules_bytes": int(found["modules"]),
        "device_app_bytes": int(found["app"]),
        "device_idle_alloc_bytes": int(found["idle_alloc"]),
        "device_step_us": int(found["step_us"]),
    }


def e2e_latency(samples: int = LATENCY_SAMPLES) -> Figures:
    return _e2e(samples, 0, "")


def e2e_latency_uart(samples: int = LATENCY_SAMPLES // 5) -> Figures:
    """The same over a wire paced as a 115200-baud UART (a real serial line, not USB CDC):
    the press's event and the host's snapshot each take their bytes' time."""
    return _e2e(samples, 115200, "_uart")


def _e2e(samples: int, baud: int, suffix: str) -> Figures:
    from host.bridge import BoardLink
    from host.faultproxy import FaultProxy, Faults
    from host.simboard import SimulatedBoard
    from shared.reference import build_reference_state

    sim = SimulatedBoard("trellis_m4", seed=3)
    proxy = FaultProxy(Faults(baud=baud)).start() if baud else None
    if proxy is None:
        path = sim.start()
    else:  # the board behind the paced wire
        sim.start(proxy.board_path)
        path = proxy.host_path
    times: list[float] = []
    try:
        with BoardLink(path, build_reference_state()) as link:
            link.wait_linked()
            _until(lambda: sim.app.state.count == 8 and sim.app.session.journal.count == 0)
            key = sim.key_for("next_turn")
            session = sim.app.session
            for _ in range(samples):
                with sim.lock:
                    seen = session.snapshots
                start = time.perf_counter()
                sim.press(key)
                while True:
                    with sim.lock:
                        if session.snapshots > seen and session.journal.count == 0:
                            break
                    time.sleep(0.0001)
                times.append((time.perf_counter() - start) * 1000)
    finally:
        sim.stop()
        if proxy is not None:
            proxy.stop()
    times.sort()
    return {
        f"e2e_latency_ms_p50{suffix}": round(statistics.median(times), 2),
        f"e2e_latency_ms_p99{suffix}": round(times[max(0, int(len(times) * 0.99) - 1)], 2),
    }


def _until(ready: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        if time.monotonic() > deadline:
            raise RuntimeError("the simulated board did not get the host's state")
        time.sleep(0.005)


DEMO_SCRIPT = (
    # control, hold ms, then run ms
    ("next_turn", 0, 300),
    ("roll", 0, 600),
    ("page", 0, 300),
    ("page", 0, 300),
    ("chance", 0, 600),
    ("d100", 0, 600),
    ("page", 0, 300),
    ("page", 0, 300),
    ("pos2", 0, 100),
    ("counter_up", 0, 100),
    ("counter_next", 0, 100),
    ("counter_up", 0, 100),
    ("page", 0, 300),
    ("page", 0, 300),
    ("end_combat", 1600, 300),
)


def demo_current() -> Figures:
    """Every frame of a scripted demo on the simulated board, at each brightness level,
    stepped on a fake clock (5 ms a step)."""
    from host.simboard import SimulatedBoard
    from shared.reference import build_reference_state

    sim = SimulatedBoard("trellis_m4", seed=9)
    app = sim.app
    now = 0
    frames = 0
    try:
        for level in range(1, 9):
            sim.load_state(build_reference_state())
            app.brightness = level
            for control, hold, after in DEMO_SCRIPT:
                key = sim.key_for(control)
                sim.keys.events.put(key, True, 0)
                for _ in range(max(hold, 5) // 5):
                    now += 5
                    app.step(now)
                sim.keys.events.put(key, False, 0)
                for _ in range(after // 5):
                    now += 5
                    app.step(now)
            frames = app.frames
    finally:
        sim.stop()
    return {
        "led_budget_ma": app.budget_ma,
        "max_frame_ma": app.max_ma,
        "demo_frames": frames,
        "demo_frames_limited": app.limited,
    }


MEASUREMENTS: tuple[Callable[[], Figures], ...] = (
    device_figures,
    e2e_latency,
    e2e_latency_uart,
    demo_current,
)

TARGETS = {
    "device_heap_bytes": ("<=", 65536),
    "device_idle_alloc_bytes": ("<=", 0),
    "device_step_us": ("<=", 1000),
    "e2e_latency_ms_p50": ("<=", 5),
    "e2e_latency_ms_p99": ("<=", 20),
    "max_frame_ma": ("<=", DEFAULT_BUDGET_MA),
}
