"""A scenario for the real code.py on the MicroPython VM (TURNLIGHT_VM_SCENARIO=start_up): it
ends the run at code.py's first loop step, once code.py has imported and compiled the board's
modules in its own order and made the App, printing `started`. The smallest heap in which
it gets here is `device_import_peak_bytes` (host/lab/bench_board.py)."""

print("started")
raise SystemExit(0)
