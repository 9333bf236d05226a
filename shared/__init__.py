"""Turnlight's trimmed engine: pure Python that runs unchanged on the board and the desktop.

It owns the generic game state, the turn-order machine, the timing rules a ruleset's
descriptor states, dice, initiative and the binary codec. CircuitPython 9/10, MicroPython
and CPython all import it; nothing here touches hardware, threads, sleeps or the wall clock,
and nothing here names a ruleset: a game is data (shared/descriptor.py).
"""
