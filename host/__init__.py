"""Desktop side of Turnlight."""
