"""The state digest that heartbeats carry: CRC-16/CCITT-FALSE of the encoded state.

Both ends compute it the same way, so equal digests mean equal encodings (up to the CRC's
1 in 65,536 chance). With a buffer of codec.MAX_ENCODED bytes it allocates nothing.
"""

from shared import codec
from shared.link.framing import crc16


def state_digest(state, buf=None):
    if buf is None:
        buf = bytearray(codec.MAX_ENCODED)
    n = codec.encode(state, buf)
    return crc16(buf, 0, n)
