# Axis names chosen at run time: an object whose __getattr__ reads them
# from one of two classes, picked from the environment on first use (the
# way tpu-inference's ShardingAxisName is built). pallas-ls cannot know
# which names AXES.DATA holds, but it is the same value each time it is
# read.
import os


class _FlatAxes:
    DATA = "data"
    MODEL = "model"


class _SplitAxes:
    DATA = ("data", "model")
    MODEL = "model"


class _LazyAxes:
    def __init__(self):
        self._cls = None

    def __getattr__(self, name):
        if self._cls is None:
            self._cls = _SplitAxes if os.environ.get("SPLIT_AXES") else _FlatAxes
        return getattr(self._cls, name)


AXES = _LazyAxes()
