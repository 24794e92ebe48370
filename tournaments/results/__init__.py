"""Results: tallies made into statistics (standings, the ranking, head to head, intervals), and the
report those make (schema 1, docs/report.md)."""
