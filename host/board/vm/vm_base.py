"""Runs inside the MicroPython VM: the heap the VM holds once started, before any of the
board's code (its own start-up: the module table, sys.path), with the board's paths. Prints
`vm_base=<bytes>`. This script's own code, a few dozen bytes, is in it."""

import gc

gc.collect()
print("vm_base=%d" % gc.mem_alloc())
