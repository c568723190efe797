from mylib_runtime import launcher


def run_sharded(fn, *args):
    # Project helper: hands fn to a runtime (outside the workspace) that
    # runs it under shard_map over every mesh axis.
    return launcher.sharded(fn)(*args)
