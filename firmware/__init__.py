"""The board firmware: the App (app.py), its keys and limiter, its pages (pages.py, and
whole_pages.py for those that use the whole grid), the palette, and one data-only profile
per board under boards/. code.py wires real hardware into the App."""
