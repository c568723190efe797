# Oracle driver (not part of the case): calls min_free_memory as a caller
# outside the workspace would, eagerly.
import os
import sys

sys.path.insert(0, os.getcwd())  # the case directory

import memory

memory.min_free_memory(1024.0)
