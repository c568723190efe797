# Axis names chosen at run time, the way tpu-inference's ShardingAxisName
# is built: __getattr__ returns a runtime override when one was set, and
# otherwise reads one of two classes picked from the environment on first
# use. pallas-ls cannot know which names AXES.DATA holds, but it is the
# same value each time it is read.
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
        self._overrides = {}

    def override(self, **kwargs):
        self._overrides.update(kwargs)

    def __getattr__(self, name):
        if name in self._overrides:
            return self._overrides[name]
        if self._cls is None:
            self._cls = _SplitAxes if os.environ.get("SPLIT_AXES") else _FlatAxes
        return getattr(self._cls, name)


AXES = _LazyAxes()
