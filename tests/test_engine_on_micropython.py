"""Every engine test in tests/engine runs a second time, inside the real MicroPython VM.

Each test function there becomes one item here, so a test that passes on CPython but fails
(or never runs) on MicroPython shows up by name.
"""

from __future__ import annotations

import ast

import pytest

from host.board.micropython_vm import ROOT, library_dir, run

ENGINE = ROOT / "tests" / "engine"


def _engine_tests() -> list[tuple[str, str]]:
    found = []
    for path in sorted(ENGINE.glob("test_*.py")):
        tree = ast.parse(path.read_text())
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                found.append((path.stem, node.name))
    return found


@pytest.fixture(scope="session")
def vm_results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    modules = sorted({module for module, _ in _engine_tests()})
    libs = library_dir(tmp_path_factory.mktemp("mplib"))
    done = run(ENGINE / "vm_driver.py", modules, [libs, ROOT, ENGINE])
    lines = done.stdout.splitlines()
    assert lines and lines[-1].startswith("DONE"), f"VM run died:\n{done.stdout}\n{done.stderr}"
    results = {}
    for line in lines[:-1]:
        verdict, _, rest = line.partition(" ")
        name, _, message = rest.partition(": ")
        results[name] = message if verdict == "FAIL" else ""
    return results


@pytest.mark.parametrize(("module", "name"), _engine_tests())
def test_passes_on_micropython(vm_results: dict[str, str], module: str, name: str) -> None:
    key = f"{module}.{name}"
    assert key in vm_results, f"{key} did not run on the MicroPython VM"
    assert vm_results[key] == "", f"{key} failed on MicroPython: {vm_results[key]}"
