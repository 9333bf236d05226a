"""The full korxsol ruleset for the desktop: encounters, the rules engine, rolls, odds,
scoring, the journal and the command language. The trimmed rules it shares with the board
(turn order, timing, cooldowns, stacks, dice, initiative) come from `shared/`."""
