"""The state digest that heartbeats carry: CRC-16/CCITT-FALSE of the encoded state.

Both ends compute it the same way, so equal digests mean equal encodings (up to the CRC's
1 in 65,536 chance). With a buffer of codec.MAX_ENCODED bytes it allocates nothing. It lives
in shared/link/framing.py, which the board loads anyway (one module fewer on the board's
heap); the host and the tests import it from here.
"""

from shared.link.framing import state_digest

__all__ = ["state_digest"]
