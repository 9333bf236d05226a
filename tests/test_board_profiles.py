"""Board profiles (issue 4, item 4): one data-only file per board, consistent with its pins,
its grid and the link's profile numbers."""

from __future__ import annotations

import ast

import pytest

from firmware.app import CONTROL_NAMES
from firmware.boards import DEFAULTS, NAMES, load
from host.board.micropython_vm import ROOT
from shared.link.host import PROFILE_NAMES


@pytest.mark.parametrize("name", NAMES)
def test_a_profile_is_data_only(name: str) -> None:
    tree = ast.parse((ROOT / "firmware" / "boards" / f"{name}.py").read_text())
    for node in tree.body[1:]:  # after the docstring
        assert isinstance(node, ast.Assign), ast.unparse(node)
        ast.literal_eval(node.value)  # raises on anything but a literal


@pytest.mark.parametrize("name", NAMES)
def test_every_key_has_a_known_control_and_a_pin(name: str) -> None:
    p = load(name)
    assert set(p.KEYMAP) | set(p.ENCODER_MAP) <= set(CONTROL_NAMES)
    keys = len(p.ROW_PINS) * len(p.COLUMN_PINS) if p.KEY_SCAN == "matrix" else len(p.KEY_PINS)
    assert keys == len(p.KEYMAP)
    assert 0 <= p.BOOT_SKIP_KEY < keys
    assert len(p.ENCODER_MAP) == (2 if p.ENCODER_PINS else 0)


@pytest.mark.parametrize("name", NAMES)
def test_the_profile_number_is_the_links(name: str) -> None:
    p = load(name)
    assert PROFILE_NAMES[p.PROFILE] == p.NAME == name


def test_an_unknown_profile_name_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="known: trellis_m4"):
        load("toaster")


def _defaults() -> dict[str, object]:
    return dict(zip(DEFAULTS[::2], DEFAULTS[1::2], strict=True))


@pytest.mark.parametrize("name", NAMES)
def test_a_profile_names_only_what_differs_from_the_defaults(name: str) -> None:
    tree = ast.parse((ROOT / "firmware" / "boards" / f"{name}.py").read_text())
    defaults = _defaults()
    for node in tree.body[1:]:
        assert isinstance(node, ast.Assign)
        target = node.targets[0]
        assert isinstance(target, ast.Name)
        if target.id in defaults:
            assert ast.literal_eval(node.value) != defaults[target.id], target.id


@pytest.mark.parametrize("name", NAMES)
def test_loading_a_profile_gives_it_every_default_it_does_not_set(name: str) -> None:
    profile = load(name)
    for key in _defaults():
        assert hasattr(profile, key), key
    assert load("pico_matrix").SERPENTINE is False  # not restated there: the default


def test_keymaps_name_generic_controls_only() -> None:
    # A board carries no ruleset's words: its keys roll, add dice, move counters ...
    for name in NAMES:
        p = load(name)
        for control in (*p.KEYMAP, *p.ENCODER_MAP):
            assert control in CONTROL_NAMES
    assert not [c for c in CONTROL_NAMES if "frost" in c or "burn" in c]


def test_the_position_controls_end_the_control_names() -> None:
    # App.do_control takes every code from pos0's on as a turn position.
    assert CONTROL_NAMES[-8:] == tuple(f"pos{i}" for i in range(8))
    assert CONTROL_NAMES[-9] != "pos8"
