"""A knockout's report played again keeps its seeding: the field in the recorded seed order and the
recorded seeding word, so the replay's report is the same byte for byte (no ratings report needed,
no exact tournament run again)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from helpers.command import shutbox


@pytest.mark.slow
@pytest.mark.parametrize(
    ("field", "seeding", "heading"),
    [
        (("-s", "random", "-s", "greedy-high", "-s", "optimal"), "ratings", "seeded by"),
        (("-s", "greedy-high", "-s", "tips", "-s", "optimal"), "exact", "seeded by their exact tournament"),
    ],
)
def test_a_knockout_seeded_by_ratings_or_exactly_replays_byte_for_byte(
    tmp_path: Path, field: tuple[str, ...], seeding: str, heading: str
) -> None:
    shutbox("tournament", *field, "-n", "400", "--seed", "2", "-o", str(tmp_path / "rr.toml"), "-q")
    rated = ("--ratings", str(tmp_path / "rr.toml")) if seeding == "ratings" else ()
    cup, again = tmp_path / "cup.toml", tmp_path / "again.toml"
    first = shutbox(
        "tournament", "--system", "knockout", *field, "--seeding", seeding, *rated, "-n", "400", "--seed", "2",
        "-o", str(cup),
    )  # fmt: skip
    assert first.returncode == 0, first.stderr
    (tmp_path / "rr.toml").unlink()  # the replay needs no ratings report
    replay = shutbox("tournament", str(cup), "-o", str(again))
    assert replay.returncode == 0, replay.stderr
    assert tomllib.loads(again.read_text())["seeding"] == seeding
    assert again.read_bytes() == cup.read_bytes()
    assert heading in replay.stdout and replay.stdout == first.stdout
