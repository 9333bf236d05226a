"""The measurements behind `turnlight bench`: each is a function returning named figures.

Targets live here, not in timed tests, because these machines are shared and noisy. Later
work adds a function to MEASUREMENTS; the command prints whatever they return. A ruleset's
own figures are its to declare (Ruleset.bench_module): they are taken from the registry.
"""

from __future__ import annotations

import importlib
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

from host.board import micropython_vm
from host.core import registry
from host.lab import (
    bench_board,
    bench_campaign,
    bench_effects,
    bench_engine,
    bench_host_cpu,
    bench_hostile,
    bench_link,
    bench_session,
    bench_smart_dice,
    bench_stack,
    bench_whole_table,
)
from host.lab import bench_web as web_bench
from host.lab import bench_web_load as web_load_bench
from shared import codec
from shared.reference import build_reference_state

Figures = dict[str, float | int]


def state_size() -> Figures:
    """The encoded reference state (8 fighters, 3 cooldowns each, a 6-die roll)."""
    return {"state_bytes": len(codec.encode(build_reference_state()))}


def engine_memory() -> Figures:
    """Heap and allocation of the shared engine on the MicroPython VM (64-bit)."""
    with tempfile.TemporaryDirectory() as tmp:
        libs = micropython_vm.library_dir(Path(tmp))
        done = micropython_vm.run(
            micropython_vm.VM_SCRIPTS / "engine_memory.py", [], [libs, micropython_vm.ROOT]
        )
    found = dict(re.findall(r"(\w+)=(\d+)", done.stdout))
    if done.returncode or "heap" not in found:
        raise RuntimeError(f"engine_memory failed on the VM: {done.stdout}{done.stderr}")
    return {
        "engine_heap_bytes": int(found["heap"]),
        "engine_modules_bytes": int(found["modules"]),
        "end_turn_alloc_bytes_per_1000": int(found["end_turn_alloc"]),
        "encode_alloc_bytes_per_1000": int(found["encode_alloc"]),
    }


def ruleset_measurements() -> tuple[Callable[[], Figures], ...]:
    """The figures each ruleset that can be played declares (its bench_module)."""
    found = []
    for ruleset_id, _ in registry.described():
        target = registry.get(ruleset_id).bench_module
        if target:
            module, _, name = target.partition(":")
            found.append(getattr(importlib.import_module(module), name))
    return tuple(found)


MEASUREMENTS: tuple[Callable[[], Figures], ...] = (
    state_size,
    engine_memory,
    bench_engine.engine_turn,  # korxsol's turn and odds: the engine's own goals (TARGETS)
    bench_engine.odds_query,
    *ruleset_measurements(),
    bench_whole_table.engine_turn_24,  # every game with a whole table of fighters
)
MEASUREMENTS += bench_link.MEASUREMENTS
MEASUREMENTS += bench_board.MEASUREMENTS
MEASUREMENTS += bench_stack.MEASUREMENTS
MEASUREMENTS += bench_session.MEASUREMENTS
MEASUREMENTS += bench_effects.MEASUREMENTS
MEASUREMENTS += bench_campaign.MEASUREMENTS
MEASUREMENTS += (bench_host_cpu.figures,)
MEASUREMENTS += bench_hostile.MEASUREMENTS
MEASUREMENTS += bench_smart_dice.MEASUREMENTS
MEASUREMENTS += (
    web_bench.web_latency,
    web_bench.web_viewers_cpu,
    web_bench.web_viewers_cpu_24,
    web_bench.web_idle_bytes,
    web_bench.board_e2e_with_pages,
)
MEASUREMENTS += web_load_bench.MEASUREMENTS

TARGETS: dict[str, tuple[str, float]] = {
    # 100 with 8 slots; 24 slots (issue 39) widen each slot index by 2 bits: 103
    "state_bytes": ("<=", 104),
    "engine_heap_bytes": ("<=", 32 * 1024),
    "end_turn_alloc_bytes_per_1000": ("<=", 0),
    "engine_turn_us": ("<=", 1000),
    "odds_us": ("<=", 200),
}
TARGETS.update(bench_link.TARGETS)
TARGETS.update(bench_board.TARGETS)
TARGETS.update(bench_stack.TARGETS)
TARGETS.update(bench_session.TARGETS)
TARGETS.update(bench_host_cpu.TARGETS)
TARGETS.update(bench_hostile.TARGETS)
TARGETS.update(bench_smart_dice.TARGETS)
TARGETS.update(
    {
        "web_latency_ms_p50": ("<=", 50),
        "web_latency_ms_p99": ("<=", 200),
        "web_viewers_cpu_pct": ("<=", 3),
        "web_viewers_added_pct_24": ("<=", 1),
        "web_idle_bytes_per_min": ("<=", 10_000),
    }
)
TARGETS.update(web_load_bench.TARGETS)


def meets(key: str, value: float) -> bool | None:
    if key not in TARGETS:
        return None
    op, bound = TARGETS[key]
    return value <= bound if op == "<=" else value >= bound
