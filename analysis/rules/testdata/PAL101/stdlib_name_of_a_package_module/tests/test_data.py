"""Shuffles a list with the standard library's random module, not with
pkg/random.py: `tests/` is on sys.path, `pkg/` (a package) is not."""

import random


def test_shuffle_keeps_items():
    items = [1, 2, 3, 4]
    random.shuffle(items)
    assert sorted(items) == [1, 2, 3, 4]
