"""The full korxsol ruleset for the desktop, and nothing else: encounters, the rules
engine, rolls, odds, statistics, the command language, the demo AI, what a board press
means (board_presses.py), what the board shows and runs of korxsol (its descriptor: device.py) and
what the views show; ruleset.py is what the host sees of it (host/core/interface.py). The trimmed
rules it shares with the board (turn order, the timing rules the descriptor states,
cooldowns, counters, dice, initiative) come from `shared/`."""
