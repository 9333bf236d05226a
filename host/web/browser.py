"""Debian's headless Chromium through Selenium, for the web pages' tests and the bench:
the system's `chromium` and `chromedriver` (packages chromium and chromium-driver), never a
browser downloaded at run time."""

from __future__ import annotations

import shutil
from typing import Any

INSTALL = "apt-get install -y chromium chromium-driver"
PHONE = (390, 844)  # a phone held upright, in CSS pixels
TV = (1920, 1080)


def missing() -> str:
    """Why the browser cannot run here ("" when it can)."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install selenium)"
    for program in ("chromium", "chromedriver"):
        if shutil.which(program) is None:
            return f"no {program} on this machine ({INSTALL})"
    return ""


def chromium(size: tuple[int, int] = TV) -> Any:
    """A headless Chromium of that window size (its viewport in CSS pixels)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        f"--window-size={size[0]},{size[1]}",
    ):
        options.add_argument(flag)
    service = Service(executable_path=shutil.which("chromedriver") or "chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    resize(driver, size)
    return driver


def resize(driver: Any, size: tuple[int, int]) -> None:
    """Make the page's viewport (not the window) this size."""
    driver.set_window_size(*size)
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_size(size[0] * 2 - inner[0], size[1] * 2 - inner[1])
