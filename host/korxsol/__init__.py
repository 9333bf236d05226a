"""The full korxsol ruleset for the desktop, and nothing else: encounters, the rules
engine, rolls, odds, statistics, the command language, the demo AI, what a board press
means and what the views show; ruleset.py is what the host sees of it (host/ruleset.py).
The trimmed rules it shares with the board (turn order, timing, cooldowns, stacks, dice,
initiative) come from `shared/`."""
