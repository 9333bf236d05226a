"""CircuitPython's usb_hid: disable() says so on the console."""


def disable():
    print("STUB usb_hid.disable")
    return True
