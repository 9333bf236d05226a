"""CircuitPython's usb_cdc: `data` is stubrig's stream (a fakehw.Stream behind a 256-byte
send buffer, or None), and enable() says on the console what it was asked."""

import stubrig

console = None
data = stubrig.data


def enable(console=True, data=False):
    print("STUB usb_cdc.enable console=%s data=%s" % (console, data))
    return True
