"""`plural` lives in host/words.py now; this name stays for the engine's modules."""

from host.words import plural

__all__ = ["plural"]
