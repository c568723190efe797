"""Run settings. Run this module directly to try a setting from the
command line: `python config.py --no-shard-map`."""

import sys

USE_SHARD_MAP = True

if __name__ == "__main__":
    # Only when run as a script: importing this module keeps the default.
    USE_SHARD_MAP = "--no-shard-map" not in sys.argv
    print("shard_map:", USE_SHARD_MAP)
