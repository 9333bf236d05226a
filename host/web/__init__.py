"""The second screen (#16): a live web page for the players (`/`) and a game master's
console (`/gm`), for every ruleset, from the same session that drives the board.
`serving.py` serves them (the app of `routes.py` under uvicorn) at an address of
`address.py`; `hub.py` keeps their views and publishes them, from a source of `sources.py`
(or `board_source.py`); `console.py` runs the console's lines; `page_data.py` makes the view
data from the Ruleset interface; `static/` holds the pages (plain HTML, CSS and JS: no build
step, no CDN)."""
