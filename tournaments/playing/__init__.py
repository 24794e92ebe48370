"""Playing: a configuration made into a plan (matchups, seatings, deals and fixed-size work units),
the units played (game by game in the general engine, or many games at once in bulk), what a
unit counts (tallies), and one game found again to be watched (replay)."""
