"""The library's settings as the command line spells them: `drop_out` is `--drop-out`. The one
place that does; the library's errors name settings (`tournaments.Setting`) and the commands they
suggest (`tournaments.Command`), and the face says them with `said` and `command_line`."""

import shlex
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the library is imported only when a command needs it
    from tournaments import Command, Setting

_FLAGS = {
    "strategies": "--strategy",
    "duplicate": "--duplicate/--no-duplicate",
    "method": "--exact/--simulate",
    "field": "-s",
    "parameters": "--param",
}
"""Settings whose option is not their name spelled with dashes."""
_WRITTEN = {
    "tournament": {"strategies": "-s", "games": "-n"},
    "match": {"games": "-n"},
    "tune": {"parameters": "-p", "field": "-s", "games": "-n", "method": "--method"},
    "replay": {"strategies": "-s"},
}
"""How a command line that shutbox suggests writes a setting, where not by its flag (the short
options of each command; a tune's method is a value, a tournament's an option of its own)."""


def flag(name: str) -> str:
    """How the command line spells a setting or a rule: `one_die` is `--one-die`."""
    return _FLAGS.get(name, "--" + name.replace("_", "-"))


def spell(setting: "Setting") -> str:
    """A setting as the command line gives it: its flag, or the flag that gives its value
    (`method='exact'` is `--exact`, `bulk=False` is `--general-engine`)."""
    name, value = setting.name, setting.value
    if value is None:
        return flag(name)
    if name == "bulk" and value is False:
        return "--general-engine"
    if name == "method":
        return f"--{value}"
    if name == "resume":
        return f"shutbox tournament --resume {shlex.quote(str(value))}"
    if name == "strategies" and isinstance(value, str):
        return f"{flag(name)} {value!r}"
    if isinstance(value, bool):
        return flag(name) if value else "--no-" + name.replace("_", "-")
    return f"{flag(name)} {shlex.quote(str(value))}"


def command_line(command: "Command") -> str:
    """A command the library suggests as its `shutbox` command line, ready to copy."""
    return shlex.join(["shutbox", command.name, *command.arguments, *flags(command.settings, command.name)])


def flags(settings: "Iterable[Setting]", command: str = "") -> list[str]:
    """Settings as the command line of `command` gives them (`Setting('drop_out', 45)` is
    `--drop-out 45`, `Setting('one_die', False)` is `--no-one-die`), each word apart."""
    written = _WRITTEN.get(command, {})
    words: list[str] = []
    for one in settings:
        name, value = one.name, one.value
        given = written.get(name) or "--" + name.replace("_", "-")
        if isinstance(value, bool):
            words.append(given if value else "--no-" + name.replace("_", "-"))
        elif name == "method" and name not in written:
            words.append(f"--{value}")
        elif isinstance(value, tuple):
            words += [word for item in value for word in (given, item)]
        else:
            words += [given] if value is None else [given, str(value)]
    return words


def said(error: BaseException, arguments: Mapping[str, str] | None = None, command: str = "") -> str:
    """An error's message with the settings it names spelled as the command line of `command`
    gives them (a strategy's failure in its host names the time limit too), and the commands it
    suggests written out; a strategy given as a positional argument (`arguments`: its text to the
    argument's name) is named by that argument."""
    from tournaments import TournamentError

    written = _WRITTEN.get(command, {})

    def spelled(setting: "Setting") -> str:
        if arguments and setting.name == "strategies" and setting.value in arguments:
            return f"{arguments[str(setting.value)]} {setting.value!r}"
        if setting.value is not None and written.get(setting.name, "").startswith("--"):  # a tune's method
            return f"{written[setting.name]} {shlex.quote(str(setting.value))}"
        return spell(setting)

    told = error if isinstance(error, TournamentError) else TournamentError(str(error))
    return told.spelled(spelled, command_line)
