"""Measuring and fuzzing: `turnlight bench`'s keys, the fuzz targets (`make fuzz`) and the
firmware type check. Nothing the product runs imports this package; the `bench` command
loads it only when it runs.

It may import anything in `host`.
"""
