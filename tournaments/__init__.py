"""Tournaments: config -> plan (matchups, deals, work units) -> run (this process or a
worker pool) -> tallies -> aggregate (statistics) -> report (a TOML table).

Imports the engine and the strategies only; it prints nothing and never exits.
"""
