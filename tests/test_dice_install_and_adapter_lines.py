"""The first-hour issue, item 6: the smart dice's refusals name what would work where
turnlight runs. `pip install 'turnlight[dice]'` works nowhere (turnlight is on no package
index): from a checkout the line names this Python and the checkout's `dice` extra; and a
scan with no Bluetooth adapter says so, not "[Errno 2] No such file or directory"."""

from __future__ import annotations

import errno
import shlex
import sys
from pathlib import Path

from host.dice.transport import DICE_PACKAGES, install_line, scan_failure

ROOT = Path(__file__).resolve().parent.parent


def test_from_a_checkout_the_install_line_is_this_python_installing_the_checkout_s_extra() -> None:
    line = install_line()
    assert f"{shlex.quote(sys.executable)} -m pip install -e" in line
    # (the checkout's folder may itself be called turnlight: the PyPI form has a space before it)
    assert f"{ROOT}[dice]" in line and " turnlight[dice]" not in line


def test_outside_a_checkout_the_install_line_names_the_extra_s_packages(tmp_path: Path) -> None:
    line = install_line(python="/usr/bin/python3", root=tmp_path)
    assert line.endswith("/usr/bin/python3 -m pip install " + " ".join(DICE_PACKAGES))


def test_a_scan_with_no_bluez_socket_says_no_adapter_is_reachable() -> None:
    said = scan_failure(FileNotFoundError(errno.ENOENT, "No such file or directory"))
    assert said.startswith("cannot scan: no Bluetooth adapter is reachable here")
    assert "\n" not in said


def test_a_scan_that_bluez_says_has_no_adapter_says_so() -> None:
    assert "no Bluetooth adapter" in scan_failure(Exception("No Bluetooth adapters found."))


def test_another_scan_failure_is_said_as_it_is() -> None:
    assert scan_failure(Exception("operation timed out")) == "cannot scan: operation timed out"
