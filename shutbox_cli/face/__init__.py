"""The face: the `shutbox` command (thin Typer commands in commands/), interactive play (play/),
and what the terminal shows (tables, help, progress, messages). The only layer that prints, exits
or spells a command-line flag; it calls the library (tournaments, strategies, the engine)."""
