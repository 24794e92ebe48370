"""Hostile input never makes a traceback: fuzzed tournament configs (only a `ConfigError` of one
sentence, or success), junk bytes at the play prompt (a wrong entry, asked again), paths that
are not regular files, data files too big or nested too deep, and game formats beyond bounds."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tournaments
from shutbox_cli.face.play.best import FILE_NAME, BestScores
from shutbox_cli.face.play.datafile import MOST_BYTES
from shutbox_cli.face.play.screen import Screen
from shutbox_cli.face.play.seats import make_seats
from shutbox_cli.face.play.table import Table, play_table
from shutbox_cli.game import Rules, RulesError
from tournaments.field.config import _TOP_KEYS
from tournaments.files import check_writable

from helpers.paths import ROOT

SPECS = ("greedy-high", "random", "target(margin=2)", "optimal", "nonsense", "a:b", "tests/hostile/import_exit.py:X")

scalars = st.one_of(
    st.integers(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, 1, 2, 12, 13, 1000, 1001, 10**9, 10**300, -1, 1e12, 1e300, 0.5]),
    st.booleans(),
    st.text(max_size=20),
    st.sampled_from(["sum", "digits", "share", "playoff", "exact", "simulate", "local", "any", "low-sum"]),
    st.datetimes(),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def mostly(plausible: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A plausible value five times in six, anything at all otherwise."""
    return st.one_of(*[plausible] * 5, values)


strategy_tables = st.fixed_dictionaries(
    {"spec": mostly(st.sampled_from(SPECS))},
    optional={
        "name": mostly(st.text(max_size=10)),
        "params": mostly(st.dictionaries(st.sampled_from(["margin", "x"]), values, max_size=2)),
    },
)
PLAUSIBLE = {
    "seed": st.integers(0, 2**64),
    "games": st.integers(1, 50),
    "table": st.integers(1, 4),
    "duplicate": st.booleans(),
    "workers": st.integers(-1, 8),
    "scheduler": st.sampled_from(["local", "local", "tcp://", "nonsense"]),
    "timeout": st.floats(0, 1e6),
    "memory_limit": st.integers(-1, 1 << 20),
    "isolate": st.booleans(),
    "method": st.sampled_from(["simulate", "exact", "other"]),
    "gauntlet": st.integers(-1, 4),
    "on_failure": st.sampled_from(["stop", "forfeit", "disqualify", "other"]),
    "rules": st.fixed_dictionaries(
        {},
        optional={
            "tiles": mostly(st.integers(2, 12)),
            "scoring": mostly(st.sampled_from(["sum", "count", "digits"])),
            "rounds": mostly(st.integers(1, 5)),
            "drop_out": mostly(st.integers(1, 200)),
            "ties": mostly(st.sampled_from(["share", "seat", "playoff"])),
            "shut_rule": mostly(st.sampled_from(["any", "dice-or-total", "one-tile"])),
            "one_die": mostly(st.sampled_from(["high-tiles", "low-sum", "off"])),
            "one_die_mode": mostly(st.sampled_from(["optional", "compulsory"])),
            "first_roll": mostly(st.sampled_from(["none", "2-to-go", "3-to-go"])),
            "instant_win": mostly(st.booleans()),
        },
    ),
    "strategy": st.lists(strategy_tables, min_size=1, max_size=4),
}
documents = st.fixed_dictionaries(
    {"strategy": mostly(PLAUSIBLE["strategy"])},
    optional={key: mostly(PLAUSIBLE[key]) for key in _TOP_KEYS if key != "strategy"},
).flatmap(
    lambda document: st.one_of(st.just({}), st.just({}), st.just({}), st.dictionaries(st.text(max_size=6), values)).map(
        lambda extra: {**extra, **document}
    )
)
"""TOML documents: every key of the config (each mostly with a plausible value, else any value
of any type and size), now and then unknown keys."""

FUZZ = settings(max_examples=150, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def load(text: bytes) -> None:
    """Load a config file of these bytes: success or a ConfigError of one sentence, nothing else."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "config.toml"
        path.write_bytes(text)
        try:
            tournaments.load_config(path, tournaments.Options())
        except tournaments.ConfigError as error:
            message = str(error)
            assert message and "\n" not in message and "Traceback" not in message


@pytest.mark.slow
@FUZZ
@given(documents)
def test_a_fuzzed_config_document_loads_or_is_one_config_error(document: dict[str, Any]) -> None:
    load(tomli_w.dumps(document).encode())


@pytest.mark.slow
@settings(max_examples=100, derandomize=True)
@given(st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_config_bytes_of_any_kind_load_or_are_one_config_error(text: bytes) -> None:
    load(text)


CONFIGS_FOR_THE_COMMAND = [
    b"[" * 100_000,
    b"x = " + b"[" * 5_000 + b"]" * 5_000,
    b"\xff\xfe garbage",
    b"rounds = 1e300\n",
    b"timeout = 1e300\n",
    b"[rules]\nrounds = 1001\n",
    b"[rules]\ndrop_out = 1000000000\n",
    b"[rules]\nrounds = 99999999999999999999\n",
    b'[[strategy]]\nspec = "tests/hostile/import_exit.py:X"\n[[strategy]]\nspec = "random"\n',
    b'[[strategy]]\nspec = "tests/hostile/names.py:NameEscapes"\n[[strategy]]\nspec = "random"\n',
    b'[[strategy]]\nspec = "greedy-high"\nname = "\\u001b[31mred"\nparams = 3\n',
]


@pytest.mark.slow
@pytest.mark.parametrize("text", CONFIGS_FOR_THE_COMMAND, ids=range(len(CONFIGS_FOR_THE_COMMAND)))
def test_the_command_refuses_a_hostile_config_in_one_sentence(text: bytes, tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_bytes(text)
    done = subprocess.run(
        [sys.executable, "-m", "shutbox_cli", "tournament", str(tmp_path / "config.toml")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("shutbox: error: ") and done.stderr.count("\n") == 1 and "\x1b" not in done.stderr


def test_game_formats_are_bounded_in_one_sentence_each() -> None:
    assert Rules(rounds=1000).rounds == 1000 and Rules(drop_out=45_000).drop_out == 45_000
    assert Rules(drop_out=9_000, scoring="count").drop_out == 9_000  # type: ignore[arg-type]
    for rules, words in (
        ({"rounds": 1001}, "rounds must be a whole number from 1 to 1,000, not 1001."),
        (
            {"drop_out": 45_001},
            "drop_out must be a whole number from 0 (no drop-out) to 45,000 (what a player can total",
        ),
        ({"drop_out": 9_001, "scoring": "count"}, "drop_out must be a whole number from 0 (no drop-out) to 9,000"),
        ({"rounds": 10**5000}, "not a number too long to show."),
    ):
        with pytest.raises(RulesError) as caught:
            Rules(**rules)
        assert words in str(caught.value)


ENTRIES = st.lists(
    st.sampled_from(
        [b"\n", b"1\n", b"2\n", b"y\n", b"n\n", b"h\n", b"?\n", b"3 6\n", b"\xff\n", b"\xc3(\n", b"\x1b[2J\n"]
    )
    | st.binary(max_size=12),
    max_size=40,
).map(b"".join)
"""What a player might type, junk bytes and invalid UTF-8 among it."""


def play_bytes(typed: bytes, computers: tuple[str, ...] = ()) -> tuple[int, str]:
    """A game at the prompt in this process, standard input these bytes read as UTF-8: the status and the screen."""
    shown = io.StringIO()
    stdin = io.TextIOWrapper(io.BytesIO(typed), encoding="utf-8")
    saved = sys.stdin
    sys.stdin = stdin
    try:
        with contextlib.redirect_stdout(shown):
            rules = Rules()
            table = Table(Screen(0.0), rules, make_seats(rules, ["Ann"], computers), 1)
            status = play_table(table)
    finally:
        sys.stdin = saved
    return status, shown.getvalue()


@pytest.mark.slow
@settings(max_examples=200, derandomize=True)
@given(ENTRIES)
def test_any_bytes_at_the_play_prompt_are_entries_or_wrong_entries(typed: bytes) -> None:
    status, shown = play_bytes(typed)
    assert status in (0, 1)
    assert all(line.isprintable() for line in shown.splitlines())


def test_invalid_utf8_is_a_wrong_entry_written_out_and_asked_again() -> None:
    status, shown = play_bytes(b"\xff\n\n")
    assert status == 1  # input ended mid-game, as any input that stops does
    assert "Roll [Enter]: \\xff\nPress Enter to roll" in shown and shown.count("Roll [Enter]:") == 2


@pytest.mark.slow
@pytest.mark.parametrize(
    "typed", [b"\xff\n", b"\xff\xfe\x00\n\n\n", bytes(range(256)), b"\n\xc3(\n1 2\n" * 5, os.urandom(0)]
)
def test_the_command_reads_junk_bytes_under_a_utf8_locale(typed: bytes, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "shutbox_cli", "play", "--seed", "1", "--no-save"],
        input=typed,
        capture_output=True,
        timeout=60,
        env={**os.environ, "PYTHONIOENCODING": "utf-8", "LC_ALL": "C.UTF-8", "SHUTBOX_DATA_DIR": str(tmp_path)},
    )
    assert done.returncode in (0, 1) and b"Traceback" not in done.stderr and done.stderr == b""


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_report_path_that_is_not_a_regular_file_is_one_sentence(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "folder").mkdir()
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    for path, words in (
        (tmp_path / "pipe", "it is not a regular file"),
        (tmp_path / "folder", "it is a folder"),
        (Path(os.devnull), "it is not a regular file"),
        (tmp_path / "loop", "Too many levels of symbolic links"),
        (tmp_path / ("x" * 300), "File name too long"),
        (tmp_path / "a\0b", "a file name cannot hold a null character"),
        (tmp_path / "missing" / "report.toml", "there is no folder"),
    ):
        with pytest.raises(tournaments.FileWriteError) as caught:
            check_writable(path)
        assert words in str(caught.value)
    assert (tmp_path / "pipe").exists() and not (tmp_path / "pipe").is_file()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_best_score_file_that_is_a_pipe_is_left_alone_unread(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / FILE_NAME)
    best = BestScores(tmp_path)
    assert (
        best.load() == f"The best-score file {tmp_path / FILE_NAME} is not a regular file; it is left alone, unchanged."
    )
    assert best.submit(Rules(), 3).problem is not None and not (tmp_path / FILE_NAME).is_file()


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "is nested too deep for a best-score file"),
        (b" " * (MOST_BYTES + 1), "is larger than 1 MiB, too big for a best-score file"),
        (b'{"format": 1, "best": {"x": ' + b"9" * 5000 + b"}}", "is not a best-score file"),
    ],
    ids=["deep", "big", "long number"],
)
def test_a_best_score_file_too_big_or_too_deep_is_set_aside(tmp_path: Path, content: bytes, words: str) -> None:
    (tmp_path / FILE_NAME).write_bytes(content)
    said = BestScores(tmp_path).load()
    assert said is not None and words in said and "kept as" in said
    assert (tmp_path / "best-scores.corrupt.json").read_bytes() == content
