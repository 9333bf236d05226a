"""The link's stream when USB data is off (boot.py skipped it): nothing comes in, and what
goes out is dropped. The App imports it only then: a board with the data channel never
compiles it (docs/memory.md)."""


class NullStream:
    in_waiting = 0

    def readinto(self, buf):
        return 0

    def write(self, buf):
        return len(buf)
