"""Run settings, and a check of them: `python config.py --no-shard-map`
prints what a run would use. Its main block runs only when config.py is
the script; `python ring.py` imports config and never runs it."""

import sys

from jax.experimental import pallas as pl  # the block size lives here too

USE_SHARD_MAP = True
BLOCK = (8, 128)

if __name__ == "__main__":
    USE_SHARD_MAP = "--no-shard-map" not in sys.argv
    print("shard_map:", USE_SHARD_MAP, "block:", BLOCK, pl.BlockSpec(BLOCK).block_shape)
