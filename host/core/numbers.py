"""Typed text to a number: the only place in the host where text a person wrote becomes an
int or a float (a command's word or option, a `turnlight` option, the web console's
`timer`, a --web port, a drive's settings.toml), and where an encounter file's value is
checked as a whole number (`is_whole`). Nothing else calls int() or float() on
such text, or asks str.isdigit() whether it may.

Python's own readers take more than a person means and refuse in ways a prompt cannot
show: str.isdigit() says yes to '²' and '¹⁷', which int() then refuses with a ValueError
(a traceback at the prompt); int() and float() take '١٢' (Arabic-Indic), '１２'
(full-width), '1_000' and spaces around the digits; float() takes 'nan' and 'inf'. Here a
whole number is ASCII digits 0-9 with one sign (+ or -) before them where the caller
allows it, and a decimal the same with at most one '.'; anything else is refused as a
NotANumber, whose str() is one line that says what to type. Nothing is changed by a
refusal: the reader reads, and the caller acts only on what it returns.
"""

from __future__ import annotations

import re

from host.core.errors import IllegalAction

MOST_DIGITS = 4_300  # int()'s own bound (sys.get_int_max_str_digits): past it, a ValueError

_WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)", re.ASCII)
# Signs a keyboard or a word processor may type for + and -: named in the refusal.
_OTHER_SIGNS = "\u2212\uff0b\uff0d\u2012\u2013\u2014\ufe62\ufe63\u207a\u207b\u208a\u208b"


class NotANumber(IllegalAction):
    """Text that is not a number as this module reads it; str() is one line."""


def whole(
    text: str,
    what: str = "",
    low: int | None = None,
    high: int | None = None,
    signed: bool = False,
) -> int:
    """`text` as a whole number: ASCII digits, after a + or - only where `signed`, from
    `low` to `high` (None: no bound). `what` names it in the refusal (`heal: the amount`)."""
    if not _WHOLE.fullmatch(text) or (not signed and text[0] in "+-"):
        raise NotANumber(_not_a_number(text, what, "a whole number", signed))
    _check_length(text, what)
    value = int(text)
    _check_range(value, str(value), what, low, high)
    return value


def whole_or_none(text: str, signed: bool = False) -> int | None:
    """`text` as `whole` reads it (no bounds), or None where it is no whole number."""
    try:
        return whole(text, signed=signed)
    except NotANumber:
        return None


def meant_as_a_number(text: str) -> bool:
    """Whether `text` is digits of any script (`12`, `¹⁷`, `١٢`, `１２`), so where a word
    may be a number or a name (--web's HOST or PORT), a number typed wrongly is refused as
    a number rather than read as a name."""
    return bool(text) and all(c.isnumeric() for c in text)


def is_whole(value: object, low: int | None = None, high: int | None = None) -> bool:
    """Whether a value an encounter file gives (TOML writes its integers in ASCII digits)
    is a whole number from `low` to `high`: an int, and not a bool (an int to Python). The
    rulesets' encounter readers ask this, each in its own words when it is not."""
    if isinstance(value, bool) or not isinstance(value, int):
        return False
    return (low is None or value >= low) and (high is None or value <= high)


def decimal(
    text: str,
    what: str = "",
    low: float | None = None,
    high: float | None = None,
    signed: bool = False,
) -> float:
    """`text` as a number that may have a fraction (`1.5`, `.25`, `3`): ASCII digits and
    one '.', no exponent, never nan or inf; otherwise as `whole`."""
    if not _DECIMAL.fullmatch(text) or (not signed and text[0] in "+-"):
        raise NotANumber(_not_a_number(text, what, "a number", signed))
    _check_length(text, what)
    value = float(text)
    _check_range(value, text, what, low, high)
    return value


def _check_length(text: str, what: str) -> None:
    digits = len(text.lstrip("+-").replace(".", ""))
    if digits > MOST_DIGITS:
        shown = f"{what} {text[:12]!r}..." if what else f"{text[:12]!r}..."
        raise NotANumber(
            f"{shown} has {digits:,} digits; at most {MOST_DIGITS:,} make a number here"
        )


def _check_range(
    value: float, shown: str, what: str, low: float | None, high: float | None
) -> None:
    if (low is None or value >= low) and (high is None or value <= high):
        return
    if high is None:
        bounds = f"at least {low}"
    elif low is None:
        bounds = f"at most {high}"
    else:
        bounds = f"{low}..{high}"
    raise NotANumber(f"{what or 'the number'} must be {bounds}, not {shown}")


def _not_a_number(text: str, what: str, kind: str, signed: bool) -> str:
    """The one-line refusal: what it must be, and what to type where the text holds digits
    or signs of another script (`'¹⁷' is not a whole number: type digits 0-9`)."""
    said = f"{what} must be {kind}, not {text!r}" if what else f"{text!r} is not {kind}"
    if any(c.isdigit() or c.isnumeric() for c in text if not "0" <= c <= "9"):
        return said + ": type digits 0-9"
    if any(c in _OTHER_SIGNS for c in text):
        return said + (": type the sign as + or -" if signed else ": type digits 0-9, no sign")
    if not signed and text[:1] in ("+", "-") and _DECIMAL.fullmatch(text):
        return said + ": type digits 0-9, no sign"
    if text != text.strip():
        return said + ": type the digits without spaces"
    return said
