"""`turnlight dice`: the smart dice (Pixels, GoDice) in range and the ones paired with this
computer. `scan` lists the dice in range (make, id, kind, name, battery, a GoDice's
colour); `pair ID` keeps one in the user's settings by its own id, with a GoDice's shell
(`--shell`, which the die cannot report); `list` and `forget ID` read and edit them;
`unstable yes|no` says whether a GoDice's unstable rests count as rolls. The
dice then fill wanted rolls in `play --dice smart`. Needs the `dice` extra (bleak)."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING

from host.core.names import printable
from host.dice import godice, pixels
from host.dice.model import GODICE, KINDS, DieInfo
from host.dice.transport import Transport, TransportError

if TYPE_CHECKING:
    from host.dice.settings import PairedDie

GODICE_ASK_S = 1.5  # how long a scan waits for a GoDice's battery and colour


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "dice",
        help="smart dice (Pixels, GoDice) over Bluetooth: scan, pair, list, forget, unstable",
        description="Smart dice fill the rolls actions wait for in `play --dice smart`. "
        "Pair each die once, by its own id as `scan` shows it (not its address). Needs "
        "Bluetooth support: the `dice` extra (`pip install -e '.[dice]'` in turnlight's "
        "checkout).",
    )
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True)
    scan = verbs.add_parser("scan", help="list the smart dice in range")
    pair = verbs.add_parser("pair", help="keep a die (by its id) for `play --dice smart`")
    pair.add_argument("die_id", metavar="ID", help="the die's id, as `scan` lists it")
    pair.add_argument(
        "--shell",
        choices=sorted(godice.SHELLS),
        help="a GoDice's shell (the die cannot tell): d6 (no shell), d20, d10, d10x (the "
        "tens of a d100), d4, d8 or d12",
    )
    pair.add_argument(
        "--kind",
        choices=KINDS,
        help="a Pixels die whose kind its advertisement does not say (older firmware)",
    )
    for verb in (scan, pair):
        verb.add_argument(
            "--seconds",
            type=float,
            default=5.0,
            metavar="S",
            help="how long to listen for dice (default 5)",
        )
    verbs.add_parser("list", help="the paired dice")
    unstable = verbs.add_parser(
        "unstable",
        help="whether a GoDice's fake, tilt and move stable rests count as rolls (no by "
        "default: a pick-up or a nudge gives them too)",
    )
    unstable.add_argument("allow", choices=("yes", "no"), help="yes: count them; no: do not")
    forget = verbs.add_parser("forget", help="forget a paired die")
    forget.add_argument("die_id", metavar="ID", help="the die's id")
    for verb in (scan, pair, verbs.choices["list"], forget, unstable):
        verb.add_argument(
            "--file",
            metavar="PATH",
            help="the paired-dice file (default: dice.json beside the journal, in "
            "$XDG_DATA_HOME/turnlight)",
        )
    p.set_defaults(run=run)


async def scan_dice(transport: Transport, seconds: float) -> list[DieInfo]:
    """The dice in range; a GoDice is asked for its battery and colour (it does not
    advertise them)."""
    found = []
    for advert in await transport.scan(seconds):
        info = pixels.parse_advert(
            advert.address, advert.name, advert.services, advert.manufacturer, advert.service_data
        ) or godice.parse_advert(advert.address, advert.name, advert.services)
        if info is None:
            continue
        if info.make == GODICE:
            info = await _ask_godice(transport, info)
        found.append(info)
    return sorted(found, key=lambda d: (d.make, d.die_id))


async def _ask_godice(transport: Transport, info: DieInfo) -> DieInfo:
    heard: dict[str, int | str] = {}
    got = asyncio.Event()

    def on_data(data: bytes) -> None:
        event = godice.parse(data, "")
        if event.what == "battery":
            heard["battery"] = event.value
        elif event.what == "colour":
            heard["colour"] = event.note
        if len(heard) == 2:
            got.set()

    try:
        link = await transport.connect(info.address, lambda: None)
        try:
            await link.subscribe(godice.NOTIFY, on_data)
            await link.write(godice.WRITE, godice.request_battery())
            await link.write(godice.WRITE, godice.request_colour())
            try:
                await asyncio.wait_for(got.wait(), GODICE_ASK_S)
            except asyncio.TimeoutError:
                pass
        finally:
            await link.disconnect()
    except TransportError:
        return info
    return dataclasses.replace(
        info,
        battery=int(heard.get("battery", -1)),
        colour=str(heard.get("colour", "")),
    )


def _shown(text: str) -> str:
    """A die's own words (its id and name, which anyone in radio range sets) as printed:
    control characters spelt out, as `play`'s view shows them (host/core/names.py)."""
    return printable(text, lines=False)


def _row(d: DieInfo) -> str:
    battery = f"{d.battery}%" if d.battery >= 0 else "?"
    if d.charging:
        battery += " charging"
    extra = f"  colour {_shown(d.colour)}" if d.colour else ""
    kind = d.kind or ("shell?" if d.make == GODICE else "?")
    return (
        f"{_shown(d.die_id):<22} {d.make:<7} {kind:<6} battery {battery:<13}"
        f" {_shown(d.name)}{extra}"
    )


def _paired_row(p: PairedDie) -> str:
    shell = f" (shell {p.shell})" if p.shell else ""
    return f"{_shown(p.die_id):<22} {p.make:<7} {p.kind:<6} {_shown(p.name)}{shell}"


def run(args: argparse.Namespace) -> int:
    from host.commands._errors import fail
    from host.dice import settings

    path = Path(args.file) if args.file else None
    try:
        paired = settings.load(path)
    except settings.SettingsError as err:
        return fail(str(err))
    if args.verb == "list":
        if not paired:
            print("no smart dice paired: `turnlight dice scan`, then `turnlight dice pair ID`")
        for p in paired:
            print(_paired_row(p))
        return 0
    if args.verb == "unstable":
        settings.save(paired, path, args.allow == "yes")
        counted = "count as rolls" if args.allow == "yes" else "are said and not counted"
        print(f"a GoDice's fake, tilt and move stable rests {counted}")
        return 0
    if args.verb == "forget":
        kept = [p for p in paired if p.die_id != args.die_id]
        if len(kept) == len(paired):
            known = ", ".join(p.die_id for p in paired) or "none"
            return fail(f"no paired die {args.die_id!r} (paired: {known})")
        settings.save(kept, path)
        print(f"forgot {_shown(args.die_id)}")
        return 0
    from host.dice.play_hook import bleak_missing

    missing = bleak_missing()
    if missing:
        return fail(missing)
    from host.dice.bleak_transport import BleakTransport

    try:
        found = asyncio.run(scan_dice(BleakTransport(), args.seconds))
    except TransportError as err:
        return fail(str(err))
    if args.verb == "scan":
        if not found:
            print("no smart dice in range (wake them: pick them up, or take them off the charger)")
        for d in found:
            print(_row(d))
        return 0
    return _pair(args, found, paired, path)


def _pair(args, found: list[DieInfo], paired: list, path: Path | None) -> int:
    from host.commands._errors import fail
    from host.dice import settings

    die = next((d for d in found if d.die_id == args.die_id), None)
    if die is None:
        seen = ", ".join(d.die_id for d in found) or "none"
        return fail(f"no die {args.die_id!r} in range (in range: {seen})")
    if die.make == GODICE:
        if not args.shell:
            return fail(
                f"{die.die_id} is a GoDice: say its shell, --shell {'|'.join(godice.SHELLS)}"
            )
        kind, shell = godice.SHELLS[args.shell], args.shell
    else:
        if args.shell:
            return fail(f"{die.die_id} is a Pixels die: it has no shell (--shell is for GoDice)")
        kind, shell = args.kind or die.kind, ""
        if not kind:
            return fail(f"{die.die_id} does not say its kind: give it, --kind {'|'.join(KINDS)}")
    new = settings.PairedDie(die.die_id, die.make, kind, die.name, die.address, shell)
    saved = settings.save(settings.paired_with(paired, new), path)
    print(f"paired {_shown(die.die_id)} ({die.make} {kind}) in {_shown(str(saved))}")
    return 0
