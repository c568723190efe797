"""The generator of the oracle corpus (oracle/gen.py runs it)."""
