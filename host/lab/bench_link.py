"""The link's figures for `turnlight bench`: frame sizes (a snapshot, korxsol's descriptor,
an event), wire time, the board's idle
allocation on the MicroPython VM, and a soak through the fault-injecting proxy over ptys.

The soak plays SOAK_EVENTS presses on a link-only board while the proxy corrupts 1% of the
bytes, drops 1% of the frames and pulls the cable about every 1,000 frames; then it
compares, in order, the events the host applied with those the board journalled (the host
must apply exactly the board's sequence) and checks that both ends hold the same state.
The echo soak does the same with SOAK_ECHO_EVENTS presses on ports that also echo: each
end reads back every frame it sends (the proxy's echo fault), and must apply none of them.
"""

from __future__ import annotations

import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from host.board import micropython_vm
from host.board.bridge import BoardLink
from host.board.fault_proxy import FaultCounts, FaultProxy, Faults
from host.board.link_board import LinkBoard
from host.board.state_json import state_to_compact_json, state_to_json
from host.board.vm.fakehw import SEND_BUFFER
from host.rulesets.korxsol import device as korxsol_device
from shared import codec, dice, host_only
from shared import events as ev
from shared.host_only import make_event
from shared.link import messages as m
from shared.link.digest import state_digest
from shared.reference import BIG_TABLE, build_reference_state
from shared.slots import Slots
from shared.state import GameState

Figures = dict[str, float | int]

SOAK_EVENTS = 10_000
SOAK_FAULTS = Faults(corrupt=0.01, drop=0.01, disconnect_every=1000)
SOAK_ECHO_EVENTS = 2_000
SOAK_ECHO_FAULTS = Faults(corrupt=0.01, drop=0.01, disconnect_every=1000, echo="added")
BAUD = 115200


def snapshot_frame(fighters: int = 8) -> bytes:
    """The reference state (of `fighters`: 8, or the big table's 24) as one framed
    SNAPSHOT, as the host sends it."""
    body = codec.encode(build_reference_state(fighters=fighters))
    return host_only.frame(bytes([m.SNAPSHOT, 0, 0]) + body)


def descriptor_frame() -> bytes:
    """Korxsol's ruleset descriptor as one framed DESCRIPTOR, as the host sends it once per
    link."""
    return host_only.frame(bytes([m.DESCRIPTOR, 0, 0]) + korxsol_device.descriptor())


def roll_event_frame() -> bytes:
    """A framed EVENT carrying a 6-die action roll, as the board sends it."""
    record = make_event(ev.ROLL_ACTION, 0, dice.KIND_ACTION_D3, (3, 1, 2, 3, 3, 2))
    return host_only.frame(bytes([m.EVENT | m.FROM_BOARD, 0, 0]) + record)


def wire_ms(n_bytes: int, baud: int = BAUD) -> float:
    """Time on a UART-style wire: 10 bits per byte (start, 8 data, stop)."""
    return round(n_bytes * 10 * 1000 / baud, 2)


def link_sizes() -> Figures:
    snapshot = len(snapshot_frame())
    as_json = len(state_to_json(build_reference_state()).encode())
    compact = len(state_to_compact_json(build_reference_state()).encode())
    return {
        "snapshot_bytes": snapshot,
        "descriptor_bytes": len(descriptor_frame()),
        "snapshot_json_bytes": as_json,
        "snapshot_json_ratio": round(as_json / snapshot, 2),
        "snapshot_json_compact_bytes": compact,
        "snapshot_json_compact_ratio": round(compact / snapshot, 2),
        "event_bytes": len(roll_event_frame()),
        "wire_ms_115200": wire_ms(snapshot),
        "snapshot_bytes_24": len(snapshot_frame(BIG_TABLE)),
        "wire_ms_115200_24": wire_ms(len(snapshot_frame(BIG_TABLE))),
    }


def link_board_memory() -> Figures:
    """The board session on the MicroPython VM: idle and heartbeat allocation, its heap."""
    with tempfile.TemporaryDirectory() as tmp:
        libs = micropython_vm.library_dir(Path(tmp))
        done = micropython_vm.run(
            micropython_vm.VM_SCRIPTS / "link_idle.py", [], [libs, micropython_vm.ROOT]
        )
    found = dict(re.findall(r"(\w+)=(\d+)", done.stdout))
    if done.returncode or "idle_alloc" not in found:
        raise RuntimeError(f"link_idle failed on the VM: {done.stdout}{done.stderr}")
    return {
        "link_idle_alloc_bytes_per_1000": int(found["idle_alloc"]),
        "link_heartbeat_alloc_bytes_per_100": int(found["heartbeat_alloc"]),
        "link_session_heap_bytes": int(found["session_heap"]),
    }


def soak_presses(count: int, fighters: int = 8) -> list[bytes]:
    """A game's worth of presses: turns, 6-die rolls (each one's faces unique), counter 0
    up and down (the reference table's first counter) on each fighter in turn."""
    presses = []
    for i in range(count):
        step = i % 5
        if step == 0:
            presses.append(make_event(ev.NEXT_TURN))
        elif step == 4:
            code = ev.COUNTER_UP if (i // 5) % 2 == 0 else ev.COUNTER_DOWN
            presses.append(make_event(code, slot=(i // 5) % fighters, arg=0))
        else:
            faces, x = [], i
            for _ in range(6):
                faces.append(x % 6 + 1)
                x //= 6
            presses.append(make_event(ev.ROLL_ACTION, arg=dice.KIND_ACTION_D6, faces=faces))
    return presses


def compare_in_order(
    played: list[bytes], applied: list[bytes], limit: int = 2000
) -> tuple[int, int, int]:
    """(lost, duplicated, out_of_order) between the events the board played and those the
    host applied, in order. Many presses are byte-identical (every next turn), so counting
    without order lets one lost and one applied twice cancel out; here the two sequences
    are aligned (the fewest events removed from one and added to the other, Myers' diff).
    An event removed in one place and added in another is out of order; for identical
    presses that is also how one lost plus one repeated shows, never as nothing."""
    start = 0
    while start < len(played) and start < len(applied) and played[start] == applied[start]:
        start += 1
    end_p, end_a = len(played), len(applied)
    while end_p > start and end_a > start and played[end_p - 1] == applied[end_a - 1]:
        end_p -= 1
        end_a -= 1
    a, b = played[start:end_p], applied[start:end_a]
    if not a or not b:
        return len(a), len(b), 0
    script = _edit_script(a, b, limit)
    if script is None:  # too far apart to align: count without order, and the misplaced
        differ = sum(1 for x, y in zip(a, b, strict=False) if x != y)
        lost = sum((Counter(a) - Counter(b)).values())
        return lost, sum((Counter(b) - Counter(a)).values()), differ
    deleted, inserted = script
    moved = sum((Counter(deleted) & Counter(inserted)).values())
    return len(deleted) - moved, len(inserted) - moved, moved


def _edit_script(a: list[bytes], b: list[bytes], limit: int) -> tuple[list, list] | None:
    """Myers' shortest edit script from a to b: (items deleted from a, items inserted from
    b), or None if it takes more than `limit` edits."""
    n, m = len(a), len(b)
    v = {1: 0}
    trace = []
    for d in range(min(n + m, limit) + 1):
        trace.append(dict(v))
        for k in range(-d, d + 1, 2):
            if k == -d or (k != d and v[k - 1] < v[k + 1]):
                x = v[k + 1]
            else:
                x = v[k - 1] + 1
            y = x - k
            while x < n and y < m and a[x] == b[y]:
                x += 1
                y += 1
            v[k] = x
            if x >= n and y >= m:
                return _backtrack(a, b, trace)
    return None


def _backtrack(a: list[bytes], b: list[bytes], trace: list[dict[int, int]]) -> tuple[list, list]:
    deleted, inserted = [], []
    x, y = len(a), len(b)
    for d in range(len(trace) - 1, 0, -1):
        v = trace[d]
        k = x - y
        prev_k = k + 1 if k == -d or (k != d and v[k - 1] < v[k + 1]) else k - 1
        prev_x = v[prev_k]
        prev_y = prev_x - prev_k
        while x > prev_x and y > prev_y:
            x -= 1
            y -= 1
        if x == prev_x:
            inserted.append(b[prev_y])
        else:
            deleted.append(a[prev_x])
        x, y = prev_x, prev_y
    return deleted, inserted


@dataclass
class SoakResult:
    events: int
    lost: int
    duplicated: int
    out_of_order: int
    digest_mismatches: int  # left at the end
    resyncs: int  # mismatches found by heartbeats during the run (and healed)
    seconds: float
    faults: FaultCounts
    disconnects_seen: int
    retransmits: int
    frames_dropped: int
    timed_out: bool
    stalled: int = 0  # not applied yet, but still held by the board to resend: not lost
    echoes: int = 0  # frames the host refused as its own read back (a host's direction bit)
    board_refused: int = 0  # frames the board refused: its own read back, and bad messages
    short_writes: int = 0  # board writes the send buffer took only part of
    tail_dropped: int = 0  # board frames dropped because its unsent tail was full


def soak(
    events: int = SOAK_EVENTS,
    faults: Faults = SOAK_FAULTS,
    seed: int = 1,
    timeout: float = 120.0,
    progress: Callable[[int, int], None] | None = None,
    send_buffer: int = SEND_BUFFER,
    fighters: int = 8,
) -> SoakResult:
    """`events` presses on a board of the reference table (`fighters` of it), through the
    fault proxy; the board keeps its state as a board does (shared.slots: two views)."""
    presses = soak_presses(events, fighters)
    applied: list[bytes] = []
    start = time.monotonic()
    with FaultProxy(faults, seed=seed) as proxy:
        # The board writes as usb_cdc.data does: into a 256-byte send buffer that takes
        # what fits (host/board/vm/fakehw.py's SendBuffer, drained at DRAIN_PER_MS).
        board = LinkBoard(
            proxy.board_path,
            build_reference_state(GameState(Slots(2)), fighters),
            nonce=seed,
            send_buffer=send_buffer,
        )
        host = BoardLink(
            proxy.host_path,
            build_reference_state(fighters=fighters),
            on_event=lambda record, ok, why: applied.append(record),
        )
        with board, host:
            board.press(*presses)
            timed_out = True
            while time.monotonic() - start < timeout:
                time.sleep(0.02)
                if progress is not None:
                    progress(len(applied), events)
                with board.lock, host.lock:
                    if len(applied) < events or not board.idle() or not host.session.quiet():
                        continue
                    if state_digest(board.session.state) == state_digest(host.session.state):
                        timed_out = False
                        break
            seconds = time.monotonic() - start
            with board.lock, host.lock:
                mismatch = state_digest(board.session.state) != state_digest(host.session.state)
                journalled = list(board.journalled)
                lost, duplicated, out_of_order = compare_in_order(journalled, list(applied))
                # What the board still holds in its journal it will resend: a stall when
                # the run timed out, not a loss. Only what it let go of unapplied is lost.
                stalled = min(lost, board.session.journal.count)
                result = SoakResult(
                    events=len(journalled),
                    lost=lost - stalled,
                    stalled=stalled,
                    duplicated=duplicated,
                    out_of_order=out_of_order,
                    digest_mismatches=int(mismatch),
                    resyncs=host.session.resyncs,
                    seconds=round(seconds, 2),
                    faults=proxy.counts,
                    disconnects_seen=host.disconnects,
                    retransmits=host.session.retransmits + board.session.retransmits,
                    frames_dropped=host.session.dropped_frames() + board.session.dropped_frames(),
                    timed_out=timed_out,
                    echoes=host.session.echoes,
                    board_refused=board.session.bad_messages,
                    short_writes=board.short_writes(),
                    tail_dropped=board.session.tail_dropped,
                )
    return result


class _Progress:
    """One progress line on stderr: rewritten in place on a terminal, else one per 1,000."""

    def __init__(self) -> None:
        self.shown = -1
        self.tty = sys.stderr.isatty()

    def __call__(self, done: int, total: int) -> None:
        bucket = done if self.tty else done // 1000
        if bucket == self.shown:
            return
        self.shown = bucket
        end = "\r" if self.tty else "\n"
        print(f"soak: {done:>6}/{total} events applied", end=end, file=sys.stderr, flush=True)


def link_soak() -> Figures:
    result = soak(events=SOAK_EVENTS, progress=_Progress())
    if sys.stderr.isatty():
        print(file=sys.stderr)
    return {
        **_outcome("soak", result),
        "soak_seconds": result.seconds,
        "soak_resyncs": result.resyncs,
        "soak_disconnects": result.faults.disconnects,
        "soak_corrupted_bytes": result.faults.corrupted_bytes,
        "soak_proxy_dropped_frames": result.faults.dropped_frames,
        "soak_frames_dropped": result.frames_dropped,
        "soak_retransmits": result.retransmits,
        "soak_short_writes": result.short_writes,
        "soak_tail_dropped": result.tail_dropped,
    }


def _outcome(prefix: str, result: SoakResult) -> Figures:
    return {
        f"{prefix}_events": result.events,
        f"{prefix}_lost": result.lost,
        f"{prefix}_stalled": result.stalled,
        f"{prefix}_duplicated": result.duplicated,
        f"{prefix}_digest_mismatches": result.digest_mismatches,
        f"{prefix}_out_of_order": result.out_of_order,
        f"{prefix}_timed_out": int(result.timed_out),
    }


def link_echo_soak() -> Figures:
    """The soak on ports that echo (the proxy's echo fault, added to its other faults)."""
    result = soak(events=SOAK_ECHO_EVENTS, faults=SOAK_ECHO_FAULTS, progress=_Progress())
    if sys.stderr.isatty():
        print(file=sys.stderr)
    return {
        **_outcome("soak_echo", result),
        "soak_echo_seconds": result.seconds,
        "soak_echo_echoed_frames": result.faults.echoed_frames,
        "soak_echo_host_refused": result.echoes,
        "soak_echo_board_refused": result.board_refused,
    }


MEASUREMENTS: tuple[Callable[[], Figures], ...] = (
    link_sizes,
    link_board_memory,
    link_soak,
    link_echo_soak,
)

TARGETS = {
    "snapshot_bytes": ("<=", 128),
    # the big table: 24 fighters in one frame, well under the link's largest (MAX_WIRE, 475)
    "snapshot_bytes_24": ("<=", 300),
    "descriptor_bytes": ("<=", 192),
    "snapshot_json_ratio": (">=", 5),
    "event_bytes": ("<=", 24),
    "link_idle_alloc_bytes_per_1000": ("<=", 0),
    "soak_events": (">=", 10_000),
    "soak_lost": ("<=", 0),
    "soak_stalled": ("<=", 0),
    "soak_duplicated": ("<=", 0),
    "soak_out_of_order": ("<=", 0),
    "soak_digest_mismatches": ("<=", 0),
    "soak_timed_out": ("<=", 0),
    "soak_seconds": ("<=", 60),
    "soak_echo_events": (">=", SOAK_ECHO_EVENTS),
    "soak_echo_lost": ("<=", 0),
    "soak_echo_stalled": ("<=", 0),
    "soak_echo_duplicated": ("<=", 0),
    "soak_echo_out_of_order": ("<=", 0),
    "soak_echo_digest_mismatches": ("<=", 0),
    "soak_echo_timed_out": ("<=", 0),
}
