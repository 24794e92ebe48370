"""A knockout takes no --on-failure but stop: a forfeit or a disqualification would leave a tie of
no pairs, which must never read as a draw that sends a failing strategy through. Refused in one
sentence, exit status 2, before any tie is played (docs/tournaments.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournaments import ConfigError, Options, play_knockout

from helpers.command import shutbox

FIELD = ("-s", "tests/hostile/forfeits.py:RaisesInBulk", "-s", "tips", "-s", "random", "-s", "greedy-high")


@pytest.mark.parametrize("failure", ["forfeit", "disqualify"])
def test_a_knockout_refuses_to_go_on_past_a_failing_strategy(tmp_path: Path, failure: str) -> None:
    report = tmp_path / "kof.toml"
    done = shutbox(
        "tournament", "--system", "knockout", *FIELD, "-n", "400", "--seed", "1", "--on-failure", failure,
        "-o", str(report),
    )  # fmt: skip
    assert done.returncode == 2, done.stdout
    said = done.stderr.strip().removeprefix("shutbox: error: ")
    assert said == (
        f"--on-failure {failure} does not go with a knockout: a tie a strategy fails in has no "
        "pairs to decide it, so a knockout stops at the failure (--on-failure stop)."
    )
    assert done.stdout == "" and not report.exists()


def test_the_library_refuses_it_alike() -> None:
    options = Options(strategies=["tips", "random"], seed=1, on_failure="forfeit")
    with pytest.raises(ConfigError, match=r"^on_failure='forfeit' does not go with a knockout: "):
        play_knockout(options)
