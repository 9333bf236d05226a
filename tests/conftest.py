"""Lets the CPython-only tests reuse the helpers that the engine tests share with the VM."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "engine"))
