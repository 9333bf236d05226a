"""The board firmware: the App (app.py), its keys, pages, palette and limiter, and one
data-only profile per board under boards/. code.py wires real hardware into the App."""
