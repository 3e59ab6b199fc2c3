"""The database: creating its tables and views from schema/ and queries/, and publishing it whole."""
