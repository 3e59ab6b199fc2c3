"""The command line: the entry point, one module a command, and how results are printed."""
