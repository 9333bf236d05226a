"""Turnlight's trimmed engine: pure Python that runs unchanged on the board and the desktop.

It owns the game state, the turn-order machine, korxsol's timing rules, dice, initiative
and the binary codec. CircuitPython 9/10, MicroPython and CPython all import it; nothing
here touches hardware, threads, sleeps or the wall clock.
"""
