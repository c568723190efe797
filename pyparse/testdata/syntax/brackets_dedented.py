# Needs Python 3.8: inside brackets indentation does not count, so a line
# may be indented less than the statement it continues.
import os


class Paths:
    def join(self, parts):
        return os.path.join(
    *parts)

    def names(self, d):
        return [
  name for name in os.listdir(d)
        ]

    def first(self, xs):
        (xs.
    sort)()
        return xs[
0]
