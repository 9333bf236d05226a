"""Lets the CPython-only tests reuse the helpers that the engine tests share with the VM,
and makes every Hypothesis property test run the same inputs on every `make test`: a run
must not fail on an input no earlier run tried (CI would land nothing); `make fuzz` is where
new inputs are explored."""

import sys
from pathlib import Path

from hypothesis import settings

settings.register_profile("make-test", derandomize=True, database=None)
settings.load_profile("make-test")

sys.path.insert(0, str(Path(__file__).resolve().parent / "engine"))
