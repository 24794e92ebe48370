"""For CI: two reports compared with intervals of their differences, and gates (`--fail-if`) that
fail a run on its results."""
