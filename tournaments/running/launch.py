"""What `shutbox tournament` runs, in one call: the tournament a config file and options describe,
or the rest of the one a checkpoint keeps; its report written before its checkpoint goes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..errors import ConfigError, setting
from ..exact.tournament import ExactSummary
from ..field.config import Options, TournamentConfig, load_config
from ..results.aggregate import Summary
from .checkpoint import CHECKPOINT_SECONDS, checkpoint_path
from .runner import Progress, resume, run


def launch(
    config_file: Path | None,
    options: Options,
    *,
    resume_from: Path | None = None,
    report: Path | None = None,
    progress: Progress | None = None,
    bulk: bool = True,
    checkpoint_seconds: float = CHECKPOINT_SECONDS,
    loaded: Callable[[TournamentConfig], None] | None = None,
) -> Summary | ExactSummary:
    """Load the configuration and run it, keeping a checkpoint beside `report` (else in the user's
    state folder) and writing `report`; or, given `resume_from`, finish that checkpoint's run, which a
    config file or `bulk=False` cannot change (a ConfigError), writing `report` (the caller passes the
    one the checkpoint records unless told another: see `recorded_report`). `loaded` is told the
    configuration once the strategies are loaded (their modules may have taken over what the caller
    set up: signal handlers). Raises what `load_config`, `run` and `resume` raise."""
    if resume_from is not None:
        if config_file is not None or not bulk:
            given = "a CONFIG.toml" if config_file is not None else setting("bulk", False)
            raise ConfigError(
                f"{given} cannot change a resumed run: checkpoint {str(resume_from)!r} holds its configuration."
            )
        return resume(
            resume_from,
            options,
            progress=progress,
            checkpoint_seconds=checkpoint_seconds,
            report=report,
            loaded=loaded,
        )
    config = load_config(config_file, options)
    if loaded is not None:
        loaded(config)
    return run(
        config,
        progress=progress,
        bulk=bulk,
        checkpoint=checkpoint_path(report),
        checkpoint_seconds=checkpoint_seconds,
        report=report,
    )
