"""The standard streams as every command writes them: a reader that goes away (`| head -1`) ends
the command quietly with SIGPIPE's status, a stream that cannot encode a character gets its ASCII
look-alike, and a command-line name that is not UTF-8 is refused in one sentence."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from shutbox_cli.face.streams import CLOSED_PIPE, from_a_file, look_alike

from helpers.command import unconfined
from helpers.paths import EXAMPLES

SHUTBOX = str(Path(sys.executable).parent / "shutbox")
TOURNAMENT = ("tournament", "-s", "optimal", "-s", "tips", "-s", "greedy-high", "-n", "40", "--seed", "1", "-j", "1")


def _env(**extra: str) -> dict[str, str]:
    """This environment without what would decide the encoding or the width for the command."""
    unset = ("COLUMNS", "LINES", "FORCE_COLOR", "PYTHONIOENCODING", "PYTHONUTF8", "LC_ALL", "LC_CTYPE", "LANG")
    return {**{key: value for key, value in os.environ.items() if key not in unset}, **extra}


def _into_closed_pipe(*args: str) -> subprocess.CompletedProcess[str]:
    """Run shutbox with stdout a pipe whose reader has already gone."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        return subprocess.run(
            [SHUTBOX, *args], stdout=writer, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, env=_env()
        )
    finally:
        os.close(writer)


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        (*TOURNAMENT, "--fail-if", "*.rank > 0"),  # rich's table; a gate that would hold, which the status does not say
        ("rules", "--format", "json"),  # a report
        ("rules",),  # typer's echo
        ("--help",),  # click's help
        ("--version",),  # the fast path that loads no command line
        ("play", "--player", "Ann", "--computer", "optimal", "--seed", "1"),
    ],
    ids=lambda args: " ".join(args[:1] + args[-2:]),
)
def test_a_closed_pipe_ends_any_command_quietly_as_sigpipe_would(args: tuple[str, ...]) -> None:
    done = _into_closed_pipe(*args)
    assert done.returncode == CLOSED_PIPE == 141
    assert "Traceback" not in done.stderr and "error" not in done.stderr


def test_characters_an_encoding_lacks_have_ascii_look_alikes() -> None:
    assert [look_alike(char) for char in "–·±×→█"] == ["-", ".", "+/-", "x", "->", "#"]
    assert [look_alike(char) for char in "─│┼╶━"] == ["-", "|", "+", "-", "-"]
    assert look_alike("\udcff") == "\\xff"  # a byte of a name that is not UTF-8
    assert look_alike("é") == "e" and look_alike("中") == "\\u4e2d"


def _latin1_locale() -> str | None:
    """An ISO-8859-1 locale, where the machine has one (`localedef -i en_US -f ISO-8859-1 en_US.ISO-8859-1`)."""
    if shutil.which("locale") is None:
        return None
    found = subprocess.run(["locale", "-a"], capture_output=True, text=True).stdout.split()
    return next((name for name in found if name.lower().replace("-", "") == "en_us.iso88591"), None)


def _encoding_env(encoding: str) -> dict[str, str]:
    if encoding == "locale":
        locale = _latin1_locale()
        if locale is None:
            pytest.skip("no ISO-8859-1 locale on this machine (PYTHONIOENCODING=latin-1 checks the same encoder)")
        return _env(LC_ALL=locale)
    return _env(PYTHONIOENCODING=encoding)


ENCODED = [
    ("ascii", TOURNAMENT),
    ("ascii", ("tournament", "-s", "optimal", "-s", "tips", "--exact")),
    ("ascii", ("analyze", "optimal")),
    ("ascii", ("analyze", "random", "--turns", "200", "--seed", "1")),
    ("ascii", ("analyze", "optimal", "--against", "tips")),
    ("ascii", ("check", "greedy-high", "--samples", "2")),
    ("ascii", ("strategies",)),
    ("latin-1", TOURNAMENT),
    ("latin-1", ("analyze", "optimal", "--against", "tips")),
    ("locale", TOURNAMENT),
    ("locale", ("analyze", "optimal", "--against", "tips")),
]
"""Each command in ASCII, and in Latin-1 (by PYTHONIOENCODING, and by the locale) those that crashed on '–'."""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("encoding", "args"), ENCODED, ids=lambda value: " ".join(value[:3]) if isinstance(value, tuple) else value
)
def test_every_command_writes_in_what_the_stream_can_encode(encoding: str, args: tuple[str, ...]) -> None:
    env = _encoding_env(encoding)
    done = subprocess.run([SHUTBOX, *args], capture_output=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert b"Traceback" not in done.stderr
    out = done.stdout.decode("ascii" if encoding == "ascii" else "latin-1")
    assert "\\u2013" not in out and "\\u2500" not in out  # look-alikes, not escapes
    if args[0] == "tournament":
        assert "\n---" in out  # the table's rule


@pytest.mark.slow
def test_a_stream_that_cannot_encode_a_character_writes_its_look_alike() -> None:
    env = _env(PYTHONIOENCODING="ascii")
    done = subprocess.run([SHUTBOX, *TOURNAMENT], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    header = done.stdout.splitlines()[0]
    assert header.startswith("Tournament: 3 strategies, 2 players per table, duplicate deals; 3 matchups x 40 games")
    assert any(line.startswith("1  ") and "%-" not in line and "-" in line for line in done.stdout.splitlines())


NOT_UTF8 = b"str\xff.py"


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ("tournament", "-s", "optimal", "-s", "SPEC"),
        ("analyze", "SPEC"),
        ("analyze", "optimal", "--against", "SPEC"),
        ("check", "SPEC"),
        ("strategies", "SPEC"),
        ("play", "--player", "Ann", "--computer", "SPEC"),
        ("replay", "--game", "1", "-s", "optimal", "-s", "SPEC"),
    ],
    ids=lambda args: " ".join(args[:2]),
)
def test_a_strategy_path_that_is_not_utf8_is_refused_in_one_sentence(tmp_path: Path, args: tuple[str, ...]) -> None:
    shutil.copy(EXAMPLES / "cautious.py", os.path.join(os.fsencode(tmp_path), NOT_UTF8))
    argv = [os.fsencode(SHUTBOX), *(NOT_UTF8 + b":Cautious" if arg == "SPEC" else arg.encode() for arg in args)]
    done = subprocess.run(argv, capture_output=True, cwd=tmp_path, stdin=subprocess.DEVNULL, env=_env(), timeout=60)
    error = done.stderr.decode()
    assert done.returncode == 2, error
    assert error.count("\n") == 1 and "'str\\xff.py:Cautious' is not valid UTF-8" in error


@pytest.mark.slow
def test_a_folder_named_in_another_encoding_is_no_trouble_until_a_report_must_name_it(tmp_path: Path) -> None:
    folder = os.path.join(os.fsencode(tmp_path), b"d\xff")
    os.mkdir(folder)
    shutil.copy(EXAMPLES / "cautious.py", os.path.join(folder, b"cautious.py"))
    analysed = subprocess.run([SHUTBOX, "analyze", "cautious.py:Cautious"], capture_output=True, cwd=folder, env=_env())
    assert analysed.returncode == 0, analysed.stderr
    field = ["tournament", "-s", "optimal", "-s", "cautious.py:Cautious", "-n", "20", "--seed", "1", "-q"]
    above = subprocess.run([SHUTBOX, *field, "-o", "../r.toml"], capture_output=True, text=True, cwd=folder, env=_env())
    above.stderr = unconfined(above.stderr)
    assert above.returncode == 2
    assert above.stderr.count("\n") == 1 and "is not valid UTF-8, which reports are written in" in above.stderr


@pytest.mark.parametrize(
    ("read", "shown"),
    [
        ("a\x1b]52;c;aGVsbG8=\x07b", "ab"),  # sets the clipboard
        ("a\x1b]0;title\x1b\\b", "ab"),  # sets the window's title
        ("a\x1b[31mred\x1b[0m", "ared"),
        ("a\x9b31mred\x9d0;title\x9cb", "aredb"),  # 8-bit forms
        ("a\x1bPq#0;2;0;0;0\x1b\\b", "ab"),  # a device control string
        ("tab\tline\nnext\r\x00\x08\u202eevil", "tab\tline\nnextevil"),
        ("a\x1b", "a"),
        ("plain – text ✓", "plain – text ✓"),
    ],
)
def test_text_from_a_file_reaches_the_terminal_without_escapes_or_controls(read: str, shown: str) -> None:
    assert from_a_file(read) == shown
