"""The host's CPU while it serves idle boards (`turnlight bench`: host_cpu_pct_1_board,
host_cpu_pct_8_boards): a Bridge of N links, each to a link-only board over a real pty,
linked and then left idle with their heartbeats for a while. The boards (and the ptys'
proxies) run in a child process, so only the host's own work is counted: the share of one
core its process used (user + system time over wall time), as a percentage.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time

IDLE_SECONDS = 10.0
TARGETS = {  # issue #17: at most 3% of a core for 8 boards
    "host_cpu_pct_8_boards": ("<=", 3.0),
}


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def host_cpu_pct(boards: int, seconds: float = IDLE_SECONDS) -> float:
    """Percent of one core the host used serving `boards` idle, linked boards."""
    from host.board.bridge import Bridge
    from shared.reference import build_reference_state

    child = subprocess.Popen(
        [sys.executable, "-m", "host.lab.bench_host_cpu", str(boards)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        paths = [child.stdout.readline().strip() for _ in range(boards)]
        bridge = Bridge(paths, lambda url: build_reference_state()).start()
        try:
            bridge.wait_linked(30)
            time.sleep(1.0)  # the first snapshots and their acknowledgements settle
            cpu, wall = _cpu_seconds(), time.monotonic()
            time.sleep(seconds)
            used = _cpu_seconds() - cpu
            took = time.monotonic() - wall
        finally:
            bridge.stop()
    finally:
        if child.stdin is not None:
            child.stdin.close()
        child.wait(timeout=30)
    return round(100 * used / took, 2)


def figures() -> dict[str, float]:
    return {
        "host_cpu_pct_1_board": host_cpu_pct(1),
        "host_cpu_pct_8_boards": host_cpu_pct(8),
    }


def _serve_boards(count: int) -> None:
    """The child: `count` link-only boards, each behind a pty proxy; prints the host's end
    of each, one a line, and serves them until its standard input closes."""
    from host.board.fault_proxy import FaultProxy
    from host.board.link_board import LinkBoard
    from shared.reference import build_reference_state

    proxies = [FaultProxy(None).start() for _ in range(count)]
    boards = [
        LinkBoard(p.board_path, build_reference_state(), nonce=i + 1).start()
        for i, p in enumerate(proxies)
    ]
    for proxy in proxies:
        print(proxy.host_path, flush=True)
    sys.stdin.read()
    for board in boards:
        board.stop()
    for proxy in proxies:
        proxy.stop()


if __name__ == "__main__":
    _serve_boards(int(sys.argv[1]))
