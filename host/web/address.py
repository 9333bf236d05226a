"""Where the web pages are served: the `--web` option's address (`parse_address`, its
one-line WebError), whether a host is this machine's own (`is_loopback`), and this
machine's address on its network (`lan_address`, what a phone can reach)."""

from __future__ import annotations

import ipaddress
import socket

from host.core import numbers

DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 8765


class WebError(ValueError):
    """A bad --web address or a port that cannot be opened; str() is one line."""


def parse_address(text: str) -> tuple[str, int]:
    """`HOST:PORT`, `HOST`, `:PORT` or `PORT` (an IPv6 host in brackets)."""
    host, port = DEFAULT_HOST, DEFAULT_PORT
    text = text.strip()
    if numbers.meant_as_a_number(text):
        return host, _port(text)
    if text.startswith("["):
        inside, _, rest = text[1:].partition("]")
        host = inside
        if rest:
            if not rest.startswith(":"):
                raise WebError(f"--web {text}: write an IPv6 address as [ADDRESS]:PORT")
            port = _port(rest[1:])
        return host or DEFAULT_HOST, port
    name, colon, number = text.rpartition(":")
    if not colon:
        return text or DEFAULT_HOST, port
    return name or DEFAULT_HOST, _port(number)


def _port(text: str) -> int:
    try:
        return numbers.whole(text, low=0, high=65535)
    except numbers.NotANumber:
        raise WebError(f"--web: the port must be a number from 0 to 65535, not {text!r}") from None


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_address(ipv6: bool = False) -> str:
    """This machine's address on its network: the one its route to the outside leaves
    from (a UDP socket's connect sends nothing), else the loopback address."""
    family = socket.AF_INET6 if ipv6 else socket.AF_INET
    probe = ("2001:db8::1", 9) if ipv6 else ("192.0.2.1", 9)  # documentation addresses
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probing:
            probing.connect(probe)
            address = str(probing.getsockname()[0])
    except OSError:
        address = ""
    if not address or is_loopback(address) or address in ("0.0.0.0", "::"):
        return "::1" if ipv6 else "127.0.0.1"
    return address
