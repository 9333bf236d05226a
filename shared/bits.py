"""Most-significant-bit-first bit packing into and out of byte buffers, without allocating.

Fields are at most 16 bits wide, so the accumulator stays a small int on every board.
"""


class BitWriter:
    def __init__(self, buf):
        self.buf = buf
        self.start(0)

    def start(self, pos):
        self.pos = pos
        self._acc = 0
        self._n = 0

    def write(self, value, width):
        if value < 0 or value >> width:
            raise ValueError("%d does not fit in %d bits" % (value, width))
        self._acc = (self._acc << width) | value
        self._n += width
        while self._n >= 8:
            self._n -= 8
            if self.pos >= len(self.buf):
                raise ValueError("the buffer is full")
            self.buf[self.pos] = (self._acc >> self._n) & 0xFF
            self.pos += 1
            self._acc &= (1 << self._n) - 1

    def finish(self):
        """Pad the last byte with zero bits; returns the bytes written."""
        if self._n:
            self.write(0, 8 - self._n)
        return self.pos


class BitReader:
    def __init__(self, data, pos=0):
        self.data = data
        self.pos = pos
        self._acc = 0
        self._n = 0

    def read(self, width):
        """Read `width` bits; raises EOFError if the data runs out."""
        while self._n < width:
            if self.pos >= len(self.data):
                raise EOFError
            self._acc = (self._acc << 8) | self.data[self.pos]
            self.pos += 1
            self._n += 8
        self._n -= width
        value = self._acc >> self._n
        self._acc &= (1 << self._n) - 1
        return value

    def padding_is_clean(self):
        """True if the bits left in the current byte are zero padding."""
        return self._acc == 0
