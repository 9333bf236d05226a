"""The built-in rulesets, one package each (korxsol, stones, forms, flare, advance). Each
declares itself under the `turnlight.rulesets` entry-point group in pyproject.toml, as a
third-party ruleset would, and the registry finds it there.

A ruleset may import `shared` and `host.core` only: never another ruleset, the board, the
screens, the web pages or the commands.
"""
