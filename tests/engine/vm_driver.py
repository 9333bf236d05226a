"""Runs the engine tests inside MicroPython: imports each named module, calls every
test_* function, and prints one line per test (PASS name / FAIL name: error). Each test
module is let go before the next is imported, so the VM's heap holds one at a time."""

import gc
import sys


def main(modules):
    failed = 0
    for name in modules:
        module = __import__(name)
        for attr in sorted(dir(module)):
            if not attr.startswith("test_"):
                continue
            fn = getattr(module, attr)
            try:
                fn()
                print("PASS %s.%s" % (name, attr))
            except Exception as err:
                failed += 1
                print("FAIL %s.%s: %s %s" % (name, attr, type(err).__name__, err))
        del module
        del sys.modules[name]
        gc.collect()
    print("DONE failed=%d" % failed)


main(sys.argv[1:])
