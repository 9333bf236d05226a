"""The second screen (#16): a live web page for the players (`/`) and a game master's
console (`/gm`), for every ruleset, from the same session that drives the board.
`hub.py` serves them; `view.py` makes their view data from the Ruleset interface;
`static/` holds the pages (plain HTML, CSS and JS: no build step, no CDN)."""
