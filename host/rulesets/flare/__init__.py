"""Flare (flare-summoning-turn.txt): summoning creatures by patterns on a token grid."""
