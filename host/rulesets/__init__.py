"""The built-in rulesets, one package each. Each declares itself under the
`turnlight.rulesets` entry-point group in pyproject.toml, as a third-party ruleset would,
and the registry (host/core/registry.py) finds it there: nothing else lists them.

A ruleset may import `shared`, `host.core` and the board's palette (firmware/palette.py,
for its descriptor's colours): never another ruleset, the board, the screens, the web
pages or the commands. Its bench figures (bench_turn.py) are the lab's code, named by the
ruleset and imported only by `turnlight bench` (tests/test_layers.py holds all of this).
"""
