"""Tug, a small game for turnlight's tests, installed as a package of its own: its Ruleset
(ruleset.py) and its example encounter (encounters/rope.toml), declared to turnlight by
the entry point `tug` of the group `turnlight.rulesets` (pyproject.toml)."""
