"""Backends: where a plan's work units are played. This process, a pool of worker processes, or a
Dask cluster; each hands back the units' tallies, and the open files each needs are counted first."""
