"""The terminal screens: `turnlight play` (prompt and full-screen view), the paced demo,
text tables, the PNG chart and the board's pictures, and the exports as tables.

It may import `shared`, `host.core` and `host.board`.
"""
