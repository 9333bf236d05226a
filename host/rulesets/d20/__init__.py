"""d20 combat from the SRD 5.1: a built-in ruleset (ruleset.py)."""
