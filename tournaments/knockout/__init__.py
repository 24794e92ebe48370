"""A knockout tournament: a seeded bracket of ties, each a match of game pairs (docs/tournaments.md)."""
