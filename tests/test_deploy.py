"""`turnlight deploy`: what lands on a CIRCUITPY drive, and that no copy leaves it half-written.

The drive is a folder in tmp_path holding boot_out.txt, as a mounted CIRCUITPY drive does; the
project is a small fake one built in tmp_path, except in the test against the real project.
"""

from __future__ import annotations

import errno
import importlib.util
import os
import shutil
import subprocess
from collections import namedtuple
from pathlib import Path

import pytest

from host import cli
from host.board import circuitpy_drive
from host.board.micropython_vm import ROOT, mpy_cross_command

PROJECT = {
    "boot.py": b"import usb_cdc\nusb_cdc.enable(console=True, data=True)\n",
    "firmware/__init__.py": b"",
    "firmware/code.py": b"from firmware import app\napp.main()\n",
    "firmware/app.py": b"def main():\n    pass\n",
    "firmware/boards/__init__.py": b"",
    "firmware/boards/trellis_m4.py": b"GRID = (8, 4)\n",
    "firmware/boards/macropad.py": b"GRID = (3, 4)\n",
    "shared/__init__.py": b"",
    "shared/x.py": b"X = 1\n",
    "shared/link/__init__.py": b"",
    "shared/link/y.py": b"Y = 2\n",
    # None of these may reach the board:
    "shared/__pycache__/x.cpython-311.pyc": b"\x00compiled",
    "shared/tests/test_x.py": b"def test_x():\n    assert True\n",
    "firmware/notes.txt": b"not a module\n",
}
LIBRARY_FILES = ("lib/adafruit_ticks.py",)
# The first line of boot_out.txt as CircuitPython writes it on each profile's board.
BOOT_OUT = {
    "trellis_m4": "Adafruit CircuitPython 9.2.1 on 2024-11-20; "
    "Adafruit Trellis M4 Express with samd51g19\nBoard ID:trellis_m4_express\n",
    "macropad": "Adafruit CircuitPython 10.0.3 on 2025-10-17; "
    "Adafruit Macropad RP2040 with rp2040\nBoard ID:adafruit_macropad_rp2040\n",
    "pico_matrix": "Adafruit CircuitPython 9.2.1 on 2024-11-20; "
    "Raspberry Pi Pico W with rp2040\nBoard ID:raspberry_pi_pico_w\n",
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    for name, data in PROJECT.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return root


@pytest.fixture
def drive(tmp_path: Path) -> Path:
    path = tmp_path / "CIRCUITPY"
    path.mkdir()
    (path / "boot_out.txt").write_text(BOOT_OUT["trellis_m4"])
    return path


def files_on(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def deploy_to(drive: Path, root: Path, board: str = "trellis_m4") -> list[str]:
    lines: list[str] = []
    circuitpy_drive.apply_plan(circuitpy_drive.make_plan(drive, board, root), out=lines.append)
    return lines


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], list[str]]:
    code = cli.main(["deploy", *args])
    captured = capsys.readouterr()
    return code, captured.out.splitlines(), captured.err.splitlines()


def test_a_drive_without_boot_out_txt_is_refused_and_nothing_is_written(
    tmp_path: Path,
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(circuitpy_drive, "ROOT", project)
    not_a_drive = tmp_path / "usbstick"
    not_a_drive.mkdir()
    code, out, err = run_cli(capsys, "--drive", str(not_a_drive))
    assert code == 2
    assert len(err) == 1 and "boot_out.txt" in err[0]
    assert out == []
    assert list(not_a_drive.iterdir()) == []


def test_a_missing_drive_path_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_cli(capsys, "--drive", str(tmp_path / "not-mounted"))
    assert code == 2
    assert len(err) == 1 and "not-mounted" in err[0]


def test_the_board_files_land_where_circuitpython_looks_for_them(
    drive: Path, project: Path
) -> None:
    deploy_to(drive, project)
    on_drive = files_on(drive)
    assert on_drive["code.py"] == PROJECT["firmware/code.py"]
    assert on_drive["boot.py"] == PROJECT["boot.py"]
    for name in (
        "firmware/__init__.py",
        "firmware/app.py",
        "firmware/boards/__init__.py",
        "firmware/boards/trellis_m4.py",
        "firmware/boards/macropad.py",
        "shared/__init__.py",
        "shared/x.py",
        "shared/link/__init__.py",
        "shared/link/y.py",
    ):
        assert on_drive[name] == PROJECT[name], name
    assert set(on_drive) == {
        *(n for n in PROJECT if n.endswith(".py") and "tests" not in n),
        "code.py",
        "boot_out.txt",
        "settings.toml",
        *LIBRARY_FILES,
    } - {"firmware/code.py"}


def test_the_libraries_are_the_installed_packages_files(drive: Path, project: Path) -> None:
    deploy_to(drive, project)
    spec = importlib.util.find_spec("adafruit_ticks")
    assert spec is not None and spec.origin is not None
    assert (drive / "lib" / "adafruit_ticks.py").read_bytes() == Path(spec.origin).read_bytes()
    # The strip is driven by the built-in neopixel_write (firmware/strip.py): the neopixel
    # library, and the adafruit_pixelbuf under it, would be dead weight.
    assert not (drive / "lib" / "neopixel.py").exists()
    assert not (drive / "lib" / "adafruit_pixelbuf.py").exists()


def test_the_libraries_ship_as_py_because_circuitpython_refuses_the_registry_compilers_mpy(
    drive: Path, project: Path, tmp_path: Path
) -> None:
    source = tmp_path / "one.py"
    source.write_text("X = 1\n")
    subprocess.run(
        [mpy_cross_command(), "-o", str(tmp_path / "one.mpy"), str(source)],
        check=True,
        capture_output=True,
    )
    header = (tmp_path / "one.mpy").read_bytes()[:4]
    assert header[:2] == b"M\x06"  # MicroPython's mark: CircuitPython 9 and 10 refuse it
    assert not circuitpy_drive.circuitpython_loads(header)
    assert circuitpy_drive.circuitpython_loads(b"C\x06\x00\x1f")  # what they load
    deploy_to(drive, project)
    assert not list((drive / "lib").glob("*.mpy"))
    assert (drive / "lib" / "adafruit_ticks.py").is_file()


def test_settings_toml_keeps_every_other_line_and_names_the_board(
    drive: Path, project: Path
) -> None:
    before = [
        "# my settings",
        'CIRCUITPY_WIFI_SSID = "table"',
        'TURNLIGHT_BOARD = "trellis_m4"',
        "CIRCUITPY_PYSTACK_SIZE = 4000",
    ]
    (drive / "settings.toml").write_text("\n".join(before) + "\n")
    (drive / "boot_out.txt").write_text(BOOT_OUT["macropad"])
    deploy_to(drive, project, board="macropad")
    after = (drive / "settings.toml").read_text().splitlines()
    assert after == [before[0], before[1], 'TURNLIGHT_BOARD = "macropad"', before[3]]


def test_deploy_sets_the_python_stack_the_board_needs_and_keeps_the_other_keys(
    drive: Path, project: Path
) -> None:
    before = ["# mine", 'CIRCUITPY_WIFI_SSID = "table"', "CIRCUITPY_PYSTACK_SIZE = 1024"]
    (drive / "settings.toml").write_text("\n".join(before) + "\n")
    deploy_to(drive, project)
    after = (drive / "settings.toml").read_text().splitlines()
    stack = f"CIRCUITPY_PYSTACK_SIZE = {circuitpy_drive.PYSTACK_BYTES}"
    assert after == [before[0], before[1], stack, 'TURNLIGHT_BOARD = "trellis_m4"']
    fresh = circuitpy_drive.settings_with_pystack("")
    assert fresh == stack + "\n"


def test_a_larger_python_stack_on_the_drive_stays() -> None:
    text = "A = 1\nCIRCUITPY_PYSTACK_SIZE = 4096  # mine\n"
    assert circuitpy_drive.settings_with_pystack(text) == text


def _boot_out(version: str) -> str:
    return f"Adafruit CircuitPython {version} on 2025-10-17; Adafruit Trellis M4 Express with x\n"


def _stack_after_deploy(drive: Path, project: Path, version: str, settings: str = "") -> str:
    (drive / "boot_out.txt").write_text(_boot_out(version))
    if settings:
        (drive / "settings.toml").write_text(settings)
    circuitpy_drive.apply_plan(
        circuitpy_drive.make_plan(drive, "trellis_m4", project, force=True), out=lambda _: None
    )
    lines = (drive / "settings.toml").read_text().splitlines()
    return next(line for line in lines if line.startswith("CIRCUITPY_PYSTACK_SIZE"))


@pytest.mark.parametrize("version", ["9.0.0", "9.2.1", "9.2.8"])
def test_deploy_on_circuitpython_9_sets_the_1536_byte_stack_9_gives_every_board(
    drive: Path, project: Path, version: str
) -> None:
    assert _stack_after_deploy(drive, project, version) == "CIRCUITPY_PYSTACK_SIZE = 1536"


@pytest.mark.parametrize("version", ["10.0.0-beta.2", "10.0.3", "10.2.1"])
def test_deploy_on_circuitpython_10_never_sets_less_than_its_2048_byte_default(
    drive: Path, project: Path, version: str
) -> None:
    # 10.x gives SAMD51 and RP2040 2048 bytes; writing 1536 would take 512 away.
    assert _stack_after_deploy(drive, project, version) == "CIRCUITPY_PYSTACK_SIZE = 2048"


def test_deploy_on_circuitpython_10_raises_a_smaller_stack_on_the_drive_to_its_default(
    drive: Path, project: Path
) -> None:
    # What a deploy from before this rule wrote on a 10.x board.
    settings = "A = 1\nCIRCUITPY_PYSTACK_SIZE = 1536\n"
    after = _stack_after_deploy(drive, project, "10.2.1", settings)
    assert after == "CIRCUITPY_PYSTACK_SIZE = 2048"
    assert (drive / "settings.toml").read_text().startswith("A = 1\n")


@pytest.mark.parametrize("version", ["9.2.1", "10.2.1", "11.0.0"])
def test_deploy_keeps_a_larger_stack_on_the_drive_on_every_version(
    drive: Path, project: Path, version: str
) -> None:
    settings = "CIRCUITPY_PYSTACK_SIZE = 4096  # mine\n"
    assert _stack_after_deploy(drive, project, version, settings) == settings.strip()


def test_deploy_on_a_circuitpython_newer_than_10_keeps_at_least_10s_default(
    drive: Path, project: Path
) -> None:
    assert _stack_after_deploy(drive, project, "11.0.0") == "CIRCUITPY_PYSTACK_SIZE = 2048"


def test_an_unknown_circuitpython_version_gets_the_largest_default_known() -> None:
    assert circuitpy_drive.pystack_bytes(None) == 2048


def test_a_forced_deploy_on_circuitpython_older_than_9_sets_the_1536_bytes_it_needs(
    drive: Path, project: Path
) -> None:
    assert _stack_after_deploy(drive, project, "8.2.10") == "CIRCUITPY_PYSTACK_SIZE = 1536"


def test_the_stack_deploy_writes_is_never_below_a_versions_default_nor_the_boards_need() -> None:
    for major, default in circuitpy_drive.PYSTACK_DEFAULTS.items():
        written = circuitpy_drive.pystack_bytes((major, 0))
        assert written >= default and written >= circuitpy_drive.PYSTACK_BYTES
        assert written % 8 == 0


def test_the_python_stack_deploy_sets_keeps_a_third_spare_over_the_benchs_goal() -> None:
    from host.lab import bench_stack

    assert circuitpy_drive.PYSTACK_BYTES % 8 == 0
    assert bench_stack.TARGETS["device_stack_bytes"] == (
        "<=",
        circuitpy_drive.PYSTACK_BYTES * 2 // 3,
    )


def test_settings_toml_gets_the_board_above_the_first_table() -> None:
    # CircuitPython's os.getenv only reads the keys above the first [table].
    text = circuitpy_drive.settings_with_board('A = 1\n[extra]\nB = "x"', "macropad")
    assert text == 'A = 1\nTURNLIGHT_BOARD = "macropad"\n[extra]\nB = "x"'


def test_settings_toml_without_a_final_newline_or_with_duplicates_ends_with_one_setting() -> None:
    assert circuitpy_drive.settings_with_board("A = 1", "pico_matrix") == (
        'A = 1\nTURNLIGHT_BOARD = "pico_matrix"\n'
    )
    text = circuitpy_drive.settings_with_board(
        'TURNLIGHT_BOARD="a"\nA = 1\nTURNLIGHT_BOARD = "b"\n', "macropad"
    )
    assert text == 'TURNLIGHT_BOARD = "macropad"\nA = 1\n'


def test_a_second_deploy_rewrites_nothing(drive: Path, project: Path) -> None:
    first = deploy_to(drive, project)
    assert sum(line.startswith("copied") for line in first) == len(files_on(drive)) - 1
    stamps = {p: p.stat().st_mtime_ns for p in drive.rglob("*")}
    second = deploy_to(drive, project)
    assert second and all(line.startswith("unchanged") for line in second)
    assert {p: p.stat().st_mtime_ns for p in drive.rglob("*")} == stamps


def test_a_module_gone_from_the_project_is_removed_from_the_drive(
    drive: Path, project: Path
) -> None:
    deploy_to(drive, project)
    (drive / "lib" / "my_own_library.py").write_bytes(b"MINE = 1\n")
    (drive / "notes.txt").write_bytes(b"keep me\n")
    (project / "shared" / "link" / "y.py").unlink()
    lines = deploy_to(drive, project)
    assert not (drive / "shared" / "link" / "y.py").exists()
    assert "removed    shared/link/y.py (stale)" in lines
    # Files the project never put there are the user's own.
    assert (drive / "lib" / "my_own_library.py").read_bytes() == b"MINE = 1\n"
    assert (drive / "notes.txt").read_bytes() == b"keep me\n"


def test_code_py_is_written_last(
    drive: Path, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deploy_to(drive, project)
    (drive / "shared" / "gone.py").write_bytes(b"OLD = 1\n")
    for name in ("firmware/code.py", "shared/x.py", "firmware/app.py"):
        (project / name).write_bytes(PROJECT[name] + b"# version 2\n")
    events: list[str] = []
    real_replace, real_unlink = os.replace, Path.unlink

    def replace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        events.append("write " + Path(dst).relative_to(drive).as_posix())
        real_replace(src, dst)

    def unlink(path: Path, missing_ok: bool = False) -> None:
        events.append("remove " + path.relative_to(drive).as_posix())
        real_unlink(path, missing_ok)

    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(Path, "unlink", unlink)
    deploy_to(drive, project)
    assert events == [
        "write firmware/app.py",
        "write shared/x.py",
        "remove shared/gone.py",
        "write code.py",
    ]


InterruptedRun = namedtuple("InterruptedRun", "old new message")


def interrupt_second_deploy(
    drive: Path, project: Path, monkeypatch: pytest.MonkeyPatch, breaking: str
) -> InterruptedRun:
    """Deploy, change every project file, then deploy again with `breaking` failing on its
    fourth call; returns what the drive held before, what the project holds now, the error."""
    deploy_to(drive, project)
    old = files_on(drive)
    for name in PROJECT:
        if name.endswith(".py"):
            (project / name).write_bytes(PROJECT[name] + b"# version 2\n")
    real = getattr(os, breaking)
    calls = []

    def failing(*args: object) -> object:
        calls.append(args)
        if len(calls) == 4:
            if breaking == "fsync":  # the drive filled up halfway through the file
                fd = args[0]
                assert isinstance(fd, int)
                os.ftruncate(fd, os.fstat(fd).st_size // 2)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(*args)

    monkeypatch.setattr(os, breaking, failing)
    with pytest.raises(circuitpy_drive.DeployError) as failure:
        deploy_to(drive, project)
    monkeypatch.setattr(os, breaking, real)
    return InterruptedRun(old, files_on(drive), str(failure.value))


@pytest.mark.parametrize("breaking", ["fsync", "replace"])
def test_an_interrupted_copy_leaves_every_file_complete_old_or_new(
    drive: Path, project: Path, monkeypatch: pytest.MonkeyPatch, breaking: str
) -> None:
    run = interrupt_second_deploy(drive, project, monkeypatch, breaking)
    wanted = files_on(project)
    wanted["code.py"] = wanted.pop("firmware/code.py")
    assert set(run.new) == set(run.old)  # no temporaries left behind, nothing lost
    updated = 0
    for name, data in run.new.items():
        assert data == run.old[name] or data == wanted.get(name), name
        updated += data != run.old[name]
    assert updated == 3  # the copy really stopped partway
    assert run.new["code.py"] == run.old["code.py"]
    assert "drive is full" in run.message and "\n" not in run.message
    deploy_to(drive, project)
    assert files_on(drive)["code.py"] == wanted["code.py"]


def test_temporaries_left_by_a_killed_deploy_are_removed(drive: Path, project: Path) -> None:
    (drive / "lib").mkdir()
    (drive / "lib" / "neopixel.py.turnlight-tmp").write_bytes(b"half a fi")
    (drive / "code.py.turnlight-tmp").write_bytes(b"import fir")
    lines = deploy_to(drive, project)
    assert not list(drive.rglob("*.turnlight-tmp"))
    assert "removed    lib/neopixel.py.turnlight-tmp (left by an interrupted deploy)" in lines
    assert "removed    code.py.turnlight-tmp (left by an interrupted deploy)" in lines


def test_a_drive_too_small_is_refused_before_anything_is_written(
    drive: Path, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(64_000, 63_000, 1_000))
    with pytest.raises(circuitpy_drive.DeployError) as failure:
        deploy_to(drive, project)
    assert "1,000 bytes free" in str(failure.value)
    assert set(files_on(drive)) == {"boot_out.txt"}


def test_dry_run_prints_the_plan_and_writes_nothing(
    drive: Path, project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(circuitpy_drive, "ROOT", project)
    (drive / "code.py.turnlight-tmp").write_bytes(b"left over")
    before = files_on(drive)
    code, out, err = run_cli(capsys, "--drive", str(drive), "--dry-run")
    assert code == 0, err
    assert files_on(drive) == before
    assert f"would copy   code.py ({len(PROJECT['firmware/code.py'])} bytes)" in out
    assert "would remove code.py.turnlight-tmp" in out
    assert out[-1].startswith("dry run") and "nothing written" in out[-1]


def test_the_command_prints_a_line_per_file_and_a_summary(
    drive: Path, project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(circuitpy_drive, "ROOT", project)
    (drive / "boot_out.txt").write_text(BOOT_OUT["macropad"])
    code, out, err = run_cli(capsys, "--drive", str(drive), "--board", "macropad")
    assert code == 0, err
    copied = [line for line in out if line.startswith("copied")]
    assert len(copied) == len(files_on(drive)) - 1
    size = sum(len(data) for name, data in files_on(drive).items() if name != "boot_out.txt")
    assert out[-1] == (
        f"deployed board macropad to {drive}: {len(copied)} copied ({size:,} bytes), "
        "0 unchanged, 0 removed"
    )


def test_an_unknown_board_is_refused_with_the_valid_names(
    drive: Path, project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(circuitpy_drive, "ROOT", project)
    # The fake project has profiles for trellis_m4 and macropad only.
    code, _, err = run_cli(capsys, "--drive", str(drive), "--board", "pico_matrix")
    assert code == 2
    assert err == ["turnlight: unknown board 'pico_matrix'; valid boards: macropad, trellis_m4"]
    assert set(files_on(drive)) == {"boot_out.txt"}


def test_without_board_profiles_the_three_known_boards_are_accepted(tmp_path: Path) -> None:
    assert circuitpy_drive.board_names(tmp_path) == ["trellis_m4", "macropad", "pico_matrix"]


def test_help_says_what_each_option_does(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["deploy", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--drive PATH where the CIRCUITPY drive is mounted" in text
    assert "--board NAME board profile to select" in text
    assert "--dry-run print what would be copied" in text


def test_every_module_of_the_real_shared_package_arrives(tmp_path: Path, drive: Path) -> None:
    root = ROOT
    if not (ROOT / "boot.py").is_file() or not (ROOT / "firmware" / "code.py").is_file():
        # Until the firmware is merged in, the real shared/ travels with stand-in firmware.
        root = tmp_path / "project"
        (root / "firmware").mkdir(parents=True)
        (root / "shared").symlink_to(ROOT / "shared")
        (root / "boot.py").write_bytes(PROJECT["boot.py"])
        (root / "firmware" / "code.py").write_bytes(PROJECT["firmware/code.py"])
    deploy_to(drive, root)
    shipped = [p for p in (ROOT / "shared").rglob("*.py") if "__pycache__" not in p.parts]
    assert len(shipped) > 10 and any(p.parent.name == "link" for p in shipped)
    for path in shipped:
        name = path.relative_to(ROOT).as_posix()
        assert (drive / name).read_bytes() == path.read_bytes(), name
    assert not list(drive.rglob("__pycache__")) and not list(drive.rglob("*.pyc"))


def test_a_drive_that_fails_to_read_is_a_one_line_error(
    drive: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def unreadable(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO), str(drive / "code.py"))

    monkeypatch.setattr(circuitpy_drive, "make_plan", unreadable)
    code, out, err = run_cli(capsys, "--drive", str(drive))
    assert code == 1 and out == []
    assert err == [f"turnlight: {drive / 'code.py'}: {os.strerror(errno.EIO)}"]


# ---------------------------------------------------------------- what boot_out.txt says


@pytest.mark.parametrize(
    "first_line",
    [
        "Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico with rp2040",
        "Adafruit CircuitPython 10.0.0 on 2025-09-01; Raspberry Pi Pico W with rp2040",
        "Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico 2 with rp2350a",
        "Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico 2 W with rp2350a",
    ],
)
def test_every_pico_is_a_pico_matrix(tmp_path: Path, first_line: str) -> None:
    (tmp_path / "boot_out.txt").write_text(first_line + "\n")
    boot = circuitpy_drive.check_boot_out(tmp_path, "pico_matrix")
    assert boot.board is not None and boot.board.startswith("Raspberry Pi Pico")


@pytest.mark.parametrize("board", ["trellis_m4", "macropad", "pico_matrix"])
def test_each_profile_s_own_board_passes(tmp_path: Path, board: str) -> None:
    (tmp_path / "boot_out.txt").write_text(BOOT_OUT[board])
    assert (
        circuitpy_drive.profile_for(circuitpy_drive.check_boot_out(tmp_path, board).board or "")
        == board
    )


def test_circuitpython_older_than_9_is_refused_with_what_to_install(
    drive: Path, project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(circuitpy_drive, "ROOT", project)
    (drive / "boot_out.txt").write_text(
        "Adafruit CircuitPython 8.2.10 on 2024-02-14; Adafruit Trellis M4 Express with samd51g19\n"
    )
    code, out, err = run_cli(capsys, "--drive", str(drive))
    assert code == 2 and out == []
    assert len(err) == 1
    assert err[0].startswith("turnlight: ") and "CircuitPython 8.2" in err[0]
    assert "install it" in err[0] and "CircuitPython 9 or 10" in err[0]
    assert set(files_on(drive)) == {"boot_out.txt"}


def test_a_drive_of_another_board_is_refused_naming_both_and_the_right_board(
    drive: Path, project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(circuitpy_drive, "ROOT", project)
    (drive / "boot_out.txt").write_text(BOOT_OUT["macropad"])
    code, out, err = run_cli(capsys, "--drive", str(drive), "--dry-run")
    assert code == 2 and out == []
    assert err == [
        "turnlight: the drive's boot_out.txt names the board 'Adafruit Macropad RP2040', but "
        "--board trellis_m4 is for the Adafruit Trellis M4 Express: deploy with --board "
        "macropad (or --force)"
    ]
    assert set(files_on(drive)) == {"boot_out.txt"}


def test_force_deploys_onto_another_board_or_an_old_circuitpython(
    drive: Path, project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(circuitpy_drive, "ROOT", project)
    (drive / "boot_out.txt").write_text(
        "Adafruit CircuitPython 8.0.0 on 2023-02-01; Adafruit Feather RP2040 with rp2040\n"
    )
    code, _, err = run_cli(capsys, "--drive", str(drive))
    assert code == 2 and "Adafruit Feather RP2040" not in err[0]  # the version first
    code, out, err = run_cli(capsys, "--drive", str(drive), "--force")
    assert code == 0, err
    assert out[-1].startswith("deployed board trellis_m4")


def test_a_boot_out_txt_that_is_not_circuitpython_s_is_refused_even_with_force(
    drive: Path, project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(circuitpy_drive, "ROOT", project)
    (drive / "boot_out.txt").write_text("my holiday notes\n")
    for extra in ((), ("--force",)):
        code, out, err = run_cli(capsys, "--drive", str(drive), *extra)
        assert code == 2 and out == []
        assert len(err) == 1 and "not a CIRCUITPY drive" in err[0] and "my holiday" in err[0]
    assert set(files_on(drive)) == {"boot_out.txt"}


def test_help_documents_force(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["deploy", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--force deploy even when boot_out.txt names another board" in text


# ---------------------------------------------------------------- symlinks on the drive


def tree(folder: Path) -> list[tuple[str, str]]:
    """Every entry under `folder` without following symlinks: (path, what it holds)."""
    entries = []
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in sorted(dirnames + filenames):
            path = Path(dirpath) / name
            if path.is_symlink():
                held = "-> " + os.readlink(path)
            else:
                held = "folder" if path.is_dir() else path.read_bytes().decode()
            entries.append((path.relative_to(folder).as_posix(), held))
    return sorted(entries)


@pytest.mark.parametrize("folder", ["firmware", "shared/link", "lib"])
def test_deploy_refuses_a_folder_symlink_that_leaves_the_drive(
    tmp_path: Path,
    drive: Path,
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    folder: str,
) -> None:
    monkeypatch.setattr(circuitpy_drive, "ROOT", project)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "precious.py").write_text("MINE = 1\n")
    (drive / folder).parent.mkdir(parents=True, exist_ok=True)
    (drive / folder).symlink_to(elsewhere)
    before = tree(drive)
    code, out, err = run_cli(capsys, "--drive", str(drive))
    assert code == 2 and out == []
    assert err == [
        f"turnlight: {drive / folder} is a symlink to {elsewhere.resolve()}, outside the drive: "
        "deploy follows no symlink on the drive; refusing to deploy"
    ]
    assert tree(elsewhere) == [("precious.py", "MINE = 1\n")]
    assert tree(drive) == before


def test_deploy_refuses_a_settings_toml_symlink_and_copies_nothing_from_its_target(
    tmp_path: Path,
    drive: Path,
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(circuitpy_drive, "ROOT", project)
    secrets = tmp_path / "secrets.toml"
    secrets.write_text('API_KEY = "hunter2"\n')
    (drive / "settings.toml").symlink_to(secrets)
    code, out, err = run_cli(capsys, "--drive", str(drive))
    assert code == 2 and out == []
    assert len(err) == 1
    assert f"{drive / 'settings.toml'} is a symlink to {secrets.resolve()}" in err[0]
    assert secrets.read_text() == 'API_KEY = "hunter2"\n'
    assert tree(drive) == [
        ("boot_out.txt", BOOT_OUT["trellis_m4"]),
        ("settings.toml", f"-> {secrets}"),
    ]


def test_deploy_refuses_a_file_symlink_rather_than_reading_or_replacing_it(
    tmp_path: Path, drive: Path, project: Path
) -> None:
    mine = tmp_path / "my_code.py"
    mine.write_bytes(PROJECT["firmware/code.py"])  # the same bytes: deploy would read it
    (drive / "code.py").symlink_to(mine)
    with pytest.raises(circuitpy_drive.DeployError) as failure:
        deploy_to(drive, project)
    assert str(failure.value).startswith(f"{drive / 'code.py'} is a symlink to {mine.resolve()}")
    assert mine.read_bytes() == PROJECT["firmware/code.py"]
    assert tree(drive) == [("boot_out.txt", BOOT_OUT["trellis_m4"]), ("code.py", f"-> {mine}")]


def test_deploy_refuses_a_symlink_that_stays_on_the_drive_too(drive: Path, project: Path) -> None:
    (drive / "old_shared").mkdir()
    (drive / "shared").symlink_to(drive / "old_shared")
    with pytest.raises(circuitpy_drive.DeployError) as failure:
        deploy_to(drive, project)
    message = str(failure.value)
    assert message.startswith(
        f"{drive / 'shared'} is a symlink to {(drive / 'old_shared').resolve()}:"
    )
    assert "outside" not in message and "follows no symlink" in message
    assert list((drive / "old_shared").iterdir()) == []


def test_a_drive_path_that_is_a_symlink_to_the_mount_still_deploys(
    tmp_path: Path,
    drive: Path,
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(circuitpy_drive, "ROOT", project)
    media = tmp_path / "media"
    media.mkdir()
    (media / "CIRCUITPY").symlink_to(drive)
    code, out, err = run_cli(capsys, "--drive", str(media / "CIRCUITPY"))
    assert code == 0, err
    assert (drive / "code.py").read_bytes() == PROJECT["firmware/code.py"]
    assert (drive / "shared" / "link" / "y.py").read_bytes() == PROJECT["shared/link/y.py"]


def test_a_boot_out_txt_with_an_overlong_first_line_is_refused_in_one_line(
    drive: Path, project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 40 KB first line took 25.6 s to search (issue #19, finding 8): it is refused unread
    past the few KB a real boot_out.txt could hold."""
    monkeypatch.setattr(circuitpy_drive, "ROOT", project)
    first, rest = BOOT_OUT["trellis_m4"].split("\n", 1)
    (drive / "boot_out.txt").write_text(first + "x" * 40_000 + "\n" + rest)
    code, out, err = run_cli(capsys, "--drive", str(drive), "--force")
    assert code == 2 and out == []
    assert err == [
        f"turnlight: {drive / 'boot_out.txt'}'s first line is 4,096+ characters long;"
        " CircuitPython's is under 200, so this is not a CIRCUITPY drive; refusing to write"
    ]
    assert set(files_on(drive)) == {"boot_out.txt"}


def test_only_the_head_of_boot_out_txt_is_read(tmp_path: Path) -> None:
    """Whatever follows the first line, however much of it, is never read."""
    with (tmp_path / "boot_out.txt").open("w") as file:
        file.write(BOOT_OUT["macropad"])
        file.write("x" * (circuitpy_drive.BOOT_OUT_READ * 64))
    boot = circuitpy_drive.check_boot_out(tmp_path, "macropad")
    assert boot.version is not None and boot.board == "Adafruit Macropad RP2040"
