"""The session core: what every game shares and no game implements.

It owns the Ruleset interface (interface.py) and its errors (errors.py), the registry of
rulesets, encounter files, the command line every game shares, names typed at the prompt,
the session (undo, redo, waiting rolls), the journal and its checkpoints, a game as plain
data, the timeline and scores.

It may import `shared` and itself only: never a ruleset, the board, the screens, the web
pages, the commands or the lab (tests/test_layers.py holds it to that).
"""
