"""Results: tallies made into a summary (standings, the ranking, head to head), and the report a
summary makes (schema 1, docs/report.md)."""
