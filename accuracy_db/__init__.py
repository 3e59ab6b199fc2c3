"""accuracy-db: an SQL-backed evaluation database for the Accuracy Evaluation Shared Task (INLG 2021)."""

__version__ = "0.1.0"
