"""Records: what every report holds and every room reads, the schema (its header, rules table and
rounded figures) and the one reader of reports, every value checked (docs/report.md)."""
