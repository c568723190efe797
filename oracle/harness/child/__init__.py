"""Runs inside a JAX venv: the code the oracle injects into each case process."""
