"""`shutbox tournament --system knockout`: the options that make a knockout (or a knockout's
report given as the tournament file), checked in one sentence each, and the knockout played,
shown and written (docs/tournaments.md)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .errors import fail
from .output import Output
from .running import ends_cleanly

if TYPE_CHECKING:
    from tournaments import Knockout, Options, Sprt

SYSTEMS = ("round-robin", "knockout")
"""How a tournament's field meets."""


class KnockoutChoice:
    """The knockout options of `shutbox tournament`, as given."""

    def __init__(self, system: str | None, seeding: str | None, ratings: Path | None, sprt: str | None) -> None:
        if system is not None and system not in SYSTEMS:
            fail(f"--system is round-robin or knockout, not {system!r}.")
        self.system, self.seeding, self.ratings, self.sprt = system, seeding, ratings, sprt

    def chosen(self, config_file: Path | None) -> bool:
        """Whether the run is a knockout: asked for, or a knockout's report given and no other system.
        A knockout option without one is refused."""
        if self.system is None and config_file is not None:
            from tournaments.parts import is_knockout_report

            self.system = "knockout" if is_knockout_report(config_file) else None
        if self.system == "knockout":
            return True
        given = [flag for flag, value in self._options() if value is not None]
        if given:
            fail(f"{given[0]} goes with --system knockout.")
        return False

    def refuse(self, **given: object) -> None:
        """Refuse, in one sentence, an option of the round robin a knockout does not take."""
        for name, value in given.items():
            if value:
                fail(f"--{name.replace('_', '-')} does not go with --system knockout.")

    def play(self, config_file: Path | None, options: Options, output: Output, quiet: bool) -> Knockout:
        """Play the knockout, write its report whole, and show it (the bracket, or the --quiet line):
        the knockout, for the history to record."""
        import tournaments

        from .knockout_view import knockout_lines
        from .progress import progress_bar

        with ends_cleanly():
            output.check()
            test = None if self.sprt is None else _sprt(self.sprt)
            with progress_bar(show_bar=not quiet) as progress:
                knockout = tournaments.play_knockout(
                    config_file,
                    options,
                    seeding=self.seeding,
                    ratings=self.ratings,
                    sprt=test,
                    progress=progress,
                    report=output.file,
                )
            output.deliver(knockout, written=True)
        if knockout.seed_drawn and knockout.config.seed is not None:
            output.drawn(knockout.config.seed)
        if output.table:
            lines = [f"Knockout won by {knockout.winner} ({len(knockout.names)} strategies)."] if quiet else None
            for line in lines or knockout_lines(knockout):
                output.note(line)
        output.written()
        return knockout

    def _options(self) -> list[tuple[str, object]]:
        return [("--seeding", self.seeding), ("--ratings", self.ratings), ("--sprt", self.sprt)]


def _sprt(text: str) -> Sprt:
    """The ties' SPRT, as `shutbox match --sprt` takes it."""
    import tournaments

    try:
        return tournaments.parse_sprt(text)
    except tournaments.ConfigError as error:
        fail(f"--sprt: {error}")
