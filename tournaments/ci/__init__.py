"""Reports read back: two compared with intervals of their differences, gates (`--fail-if`) that
fail a run on its results, a report as a Markdown page, and a report's figures as data."""
