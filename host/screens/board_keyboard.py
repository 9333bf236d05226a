"""The simulated board's keys played from a computer keyboard (`turnlight sim`, and the
board pane of `turnlight play --sim`): which letter is which control and gesture, the line
that lists them for a board, and a letter played as a press.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from host.board.simulated_board import SimulatedBoard

# Keyboard letters in the interactive simulator: (letter, control, gesture). Only the ones
# whose control the board has are offered; 1-8 select a position where the board has keys
# for them. A hold outlasts the hold-to-confirm time, so "O" confirms what the Pico's menu
# shows (end combat, reset) and is a long press of anything else.
PRESS, LONG, HOLD = "press", "long", "hold"
KEYBOARD = (
    ("n", "next_turn", PRESS),
    ("N", "next_turn", LONG),
    ("r", "roll", PRESS),
    ("T", "roll", LONG),
    ("c", "chance", PRESS),
    ("C", "chance", LONG),
    ("d", "d100", PRESS),
    ("a", "add_die", PRESS),
    ("A", "add_die", LONG),
    ("k", "counter_next", PRESS),
    ("K", "counter_next", LONG),
    ("+", "counter_up", PRESS),
    ("-", "counter_down", PRESS),
    ("u", "undo", PRESS),
    ("p", "page", PRESS),
    ("P", "page", LONG),
    ("l", "brightness", PRESS),
    ("L", "brightness", LONG),
    ("[", "select_prev", PRESS),
    ("]", "select_next", PRESS),
    ("m", "menu_next", PRESS),
    ("M", "menu_next", LONG),
    ("o", "menu_do", PRESS),
    ("O", "menu_do", HOLD),
    ("E", "end_combat", HOLD),
    ("R", "reset", HOLD),
)
HOLD_MS = {PRESS: 0, LONG: 800, HOLD: 1700}  # 1700: longer than the hold-to-confirm time
LABELS = {"menu_next": "menu", "menu_do": "do", "select_prev": "select prev"}
LONG_LABELS = {  # what a long press does (README "Keys")
    "next_turn": "next phase",
    "roll": "one more die",
    "add_die": "one fewer die",
    "counter_next": "previous counter",
    "chance": "one more flip",
    "page": "page back",
    "brightness": "dimmer",
    "menu_next": "menu back",
}


def _label(control: str) -> str:
    if control.startswith("pos"):
        return f"select position {int(control[3:]) + 1}"
    return LABELS.get(control, control.replace("_", " "))


def _has(sim: SimulatedBoard, control: str) -> bool:
    try:
        sim.key_for(control)
    except KeyError:
        return False
    return True


def _menu(sim: SimulatedBoard) -> list[str]:
    """The controls the board's menu holds ("menu_do" runs them), or none."""
    from firmware.app import CONTROL_NAMES, MENU

    return [CONTROL_NAMES[c] for c in MENU] if _has(sim, "menu_do") else []


def help_line(sim: SimulatedBoard) -> str:
    """The keys for this board's controls only (and its menu, if it has one)."""
    words = []
    for ch, control, gesture in KEYBOARD:
        if _has(sim, control):
            if gesture == LONG:
                words.append(f"{ch}={LONG_LABELS[control]}")
            else:
                kind = "hold " if gesture == HOLD else ""
                words.append(f"{ch}={kind}{_label(control)}")
    if _has(sim, "pos0"):
        words.append("1-8=select position")
    words.append("q=quit")
    text = "keys: " + "  ".join(words)
    menu = _menu(sim)
    if menu:
        text += (
            "\nmenu (m steps, o does the one shown, O holds do: it confirms end combat and"
            " reset): " + ", ".join(_label(c) for c in menu)
        )
    return text


def _action(sim: SimulatedBoard, ch: str) -> tuple[int, int] | str:
    """(key, hold_ms) for a keyboard letter, or a one-line reason it does nothing here."""
    found = [(c, g) for k, c, g in KEYBOARD if k == ch]
    if "1" <= ch <= "8" and len(ch) == 1:
        found = [(f"pos{int(ch) - 1}", PRESS)]
    shown = ch if ch.isprintable() else repr(ch)
    if not found:
        return f"{shown}: not a key of the simulator (the keys are listed above the grid)"
    control, gesture = found[0]
    if _has(sim, control):
        return sim.key_for(control), HOLD_MS[gesture]
    said = f"{shown} ({_label(control)}) does nothing on {sim.board_name}"
    if control.startswith("pos"):
        if _has(sim, "select_next"):
            return f"{said}: it has no position keys; [ and ] select"
        control = "select_next"  # the Pico: in the menu
    if control in _menu(sim):
        then = "O (hold do)" if control in ("end_combat", "reset") else "o (do)"
        return f"{said}: {_label(control)} is in its menu: m until it is chosen, then {then}"
    return f"{said}: it has no key for it"


def press_letter(sim: SimulatedBoard, ch: str) -> str:
    """Play a keyboard letter on the board; "" or the one line saying why it did nothing."""
    action = _action(sim, ch)
    if isinstance(action, str):
        return action
    key, hold = action
    sim.press(key, hold)
    return ""
