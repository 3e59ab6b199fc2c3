"""The SQL box: ad-hoc read-only queries, checked by the guard and run in a bounded child process."""
