"""Every error a tournament or an analysis can raise, from one place.

`TournamentError` is the base of them all. A caller that only wants to know whether to blame
its input, a strategy or Ctrl-C catches the three kinds below it.

The library speaks settings, not flags: a message names a setting (`timeout`, `drop_out`) by a
placeholder, `setting("timeout")`, which `str(error)` writes as the library calls it (`timeout`)
and a caller may spell its own way (`error.spelled`: the command line writes `--timeout`). The
placeholder is text, so a message keeps its settings as it crosses processes or is wrapped in
another's. A message that suggests a command (watch a game again: `replay`) names it the same way,
as a `Command` of settings (`command`): `str` writes it as the library does it (a replay:
`find_game(load_config(None, Options(strategies=('tips', 'optimal'), seed=1)), 3)`), a caller its
own way (the command line's `shutbox replay -s tips -s optimal --seed 1 --game 3`).
"""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Callable
from pathlib import Path

from shutbox_cli.game.terms import Seed

_PLACEHOLDER = re.compile("\ue000([a-z_]+)(?:=([^\ue001]*))?\ue001")
_COMMAND = re.compile("\ue002([a-z_]+)\ue003([^\ue001]*)\ue001")
_MARK = re.compile("\ue004([a-z]+)([0-9]+)\ue001")

Value = str | bool | int | float | tuple[str, ...] | None
"""What a setting a message or a command names is given: text, a flag, a number, texts (a field)."""


@dataclasses.dataclass(frozen=True)
class Setting:
    """A setting a message names, as `Options`, `run` and a config file's keys call it
    (`drop_out`), with the `value` the message is about, if any (`method='exact'`)."""

    name: str
    value: Value = None

    def __str__(self) -> str:
        return self.name if self.value is None else f"{self.name}={self.value!r}"


@dataclasses.dataclass(frozen=True)
class Command:
    """A command a message or a page suggests, as data: its `name` (`replay`, `tune`), the
    `arguments` it takes in order (a report's path, a strategy's spec) and its `settings`, each
    with its value, in the order a command line would give them."""

    name: str
    arguments: tuple[str, ...] = ()
    settings: tuple[Setting, ...] = ()

    def __str__(self) -> str:
        if self.name == "replay":
            return _replay_call(self.settings)
        given = [repr(argument) for argument in self.arguments] + [str(one) for one in self.settings]
        return f"{self.name}({', '.join(given)})"


_OPTIONS = ("strategies", "games", "table", "seed", "duplicate")
"""The settings of a replay that `Options` takes as they are; the others but `game` are rules."""


def _replay_call(settings: tuple[Setting, ...]) -> str:
    """A replay as the library finds the game: `find_game(load_config(None, Options(...)), game)`."""
    given = [str(one) for one in settings if one.name in _OPTIONS]
    rules = {one.name: one.value for one in settings if one.name not in (*_OPTIONS, "game")}
    if rules:
        given.append(f"rules={rules!r}")
    game = next((one.value for one in settings if one.name == "game"), 0)
    return f"find_game(load_config(None, Options({', '.join(given)})), {game})"


def setting(name: str, value: Value = None) -> str:
    """The placeholder of a setting in a message (see `TournamentError.spelled`)."""
    return f"\ue000{name}{'' if value is None else '=' + repr(value)}\ue001"


def command(said: Command) -> str:
    """The placeholder of a command in a message (see `TournamentError.spelled`)."""
    given = (said.arguments, tuple((one.name, one.value) for one in said.settings))
    return f"\ue002{said.name}\ue003{given!r}\ue001"


def _named(found: re.Match[str]) -> Setting:
    return Setting(found[1], None if found[2] is None else ast.literal_eval(found[2]))


def _commanded(found: re.Match[str]) -> Command:
    arguments, settings = ast.literal_eval(found[2])
    return Command(found[1], arguments, tuple(Setting(name, value) for name, value in settings))


def mark(kind: str, number: int) -> str:
    """A mark a failure's message carries unseen (`spelled` leaves it out) across processes: the
    work unit it happened in (`unit`) or the strategy to blame, by its place in the field
    (`strategy`); `TournamentError.marks` reads them back."""
    return f"\ue004{kind}{number}\ue001"


def unmarked(text: str) -> str:
    """`text` without its marks (`mark`), its settings' and commands' placeholders kept."""
    return _MARK.sub("", text)


def spelled(text: str, spell: Callable[[Setting], str], write: Callable[[Command], str] = str) -> str:
    """`text` with each setting's placeholder written by `spell`, each command's by `write`."""
    text = _MARK.sub("", text)
    text = _COMMAND.sub(lambda found: write(_commanded(found)), text)
    return _PLACEHOLDER.sub(lambda found: spell(_named(found)), text)


def commands_rewritten(text: str, change: Callable[[Command], Command]) -> str:
    """`text` with each command's placeholder made that of `change(command)`."""
    return _COMMAND.sub(lambda found: command(change(_commanded(found))), text)


class TournamentError(Exception):
    """Base of the errors raised by the tournaments library. Its message may name settings by
    placeholder (`setting`): `str` writes each by its name, `spelled` as a caller spells it."""

    @property
    def marked(self) -> str:
        """The message with its settings' placeholders, to wrap in another message."""
        return str(self.args[0]) if self.args else ""

    @property
    def settings(self) -> tuple[Setting, ...]:
        """The settings the message names, in order."""
        return tuple(_named(found) for found in _PLACEHOLDER.finditer(self.marked))

    def marks(self, kind: str) -> tuple[int, ...]:
        """The numbers the message is marked with of this kind (`mark`), in order."""
        return tuple(int(found[2]) for found in _MARK.finditer(self.marked) if found[1] == kind)

    def spelled(self, spell: Callable[[Setting], str], write: Callable[[Command], str] = str) -> str:
        """The message with each setting written by `spell` (say, as a flag), each command it
        suggests by `write` (say, as a command line)."""
        return spelled(self.marked, spell, write)

    def __str__(self) -> str:
        return self.spelled(str)


def marked(error: BaseException) -> str:
    """An error's message to wrap in another's: a TournamentError's with its settings' placeholders."""
    return error.marked if isinstance(error, TournamentError) else str(error)


class ConfigError(TournamentError, ValueError):
    """A configuration mistake; the message is one sentence naming where and which key."""


class FileWriteError(TournamentError, OSError):
    """A report that cannot be written; the message is one sentence naming the file and why.
    `checkpoint` is the file a finished run left to write it from (set by `run`), if any."""

    checkpoint: Path | None = None


class TournamentFailure(TournamentError):
    """The run cannot go on: a strategy failed, a worker died or a unit ran past the time limit.
    `checkpoint` is the file the run left to resume from (set by `run`), if any."""

    checkpoint: Path | None = None


class Interrupted(TournamentError):
    """The run was stopped (Ctrl-C) after `games` of its `total` games; `seed` repeats it, and
    `checkpoint` (if the run left one) resumes it."""

    def __init__(self, games: int, total: int, seed: Seed, checkpoint: Path | None = None) -> None:
        super().__init__(f"interrupted after {games:,} of {total:,} games (seed {seed})")
        self.games = games
        self.total = total
        self.seed = seed
        self.checkpoint = checkpoint
