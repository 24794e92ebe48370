"""Statistics: intervals, game pairs (the pentanomial), Elo and the SPRT, ratings, and the standings
a summary holds (docs/statistics.md)."""
