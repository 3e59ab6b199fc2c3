"""Import from and export to other formats and engines: corpora, factgenie, PostgreSQL, Spark."""
