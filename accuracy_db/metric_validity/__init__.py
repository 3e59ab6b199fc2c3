"""Metric meta-evaluation: how well a metric's scores track the gold list's mistakes, text by text and system by
system (`accuracy-db metrics`, the dashboard's metrics page)."""
