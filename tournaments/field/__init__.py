"""The field and its settings: what a tournament is, before it is planned.

`config` reads a tournament's settings (a TOML or JSON file, a report's `[config]`, options given
by the command line or a library caller), checks each against one table of settings (`SETTINGS`)
and writes them back into reports (`config_table`). `entries` owns the field: the strategies as
the settings give them, a built-in one loaded here, a user's probed in a process of its own
(isolation), each named, and a user's fingerprinted (the sha256 of its file, which tells a later
run whether it changed);
`sources` follows a strategy file's own imports, so a resume notices a helper module edited since.
"""
