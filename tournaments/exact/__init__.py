"""Exact answers, computed rather than played: exact tournaments of exact strategies, one strategy
against another exactly (the duel), and a strategy's own score distribution (analysis: exact when
it is tabulable, else a seeded simulation with intervals)."""
