"""The loaders, one per source and format (imported as accuracy_db.etl).

Python's csv module refuses a field over 128 kB unless told otherwise, and its limit is the process's: it is set
here, once, to the largest it takes, when the loaders are imported and so before any thread of theirs reads a
CSV (a build reads games.csv in a thread while the mistake lists are read). The csv module then reads every field
DuckDB's reader reads: both must read the same rows.
"""

import csv
import ctypes

csv.field_size_limit(2 ** (8 * ctypes.sizeof(ctypes.c_long) - 1) - 1)  # a C long, as the module stores it
