"""The library's settings as the command line spells them: `drop_out` is `--drop-out`. The one
place that does; the library's errors name settings (`tournaments.Setting`), and the face
says them with `said`."""

import shlex
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the library is imported only when a command needs it
    from tournaments import Setting

_FLAGS = {
    "strategies": "--strategy",
    "duplicate": "--duplicate/--no-duplicate",
    "method": "--exact/--simulate",
}
"""Settings whose option is not their name spelled with dashes."""


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
    return f"{flag(name)} {shlex.quote(value)}"


def said(error: BaseException, arguments: Mapping[str, str] | None = None) -> str:
    """An error's message with the settings it names spelled as the command line gives them (a
    strategy's failure in its host names the time limit too); a strategy given as a positional
    argument (`arguments`: its text to the argument's name) is named by that argument."""
    from tournaments import TournamentError

    def spelled(setting: "Setting") -> str:
        if arguments and setting.name == "strategies" and setting.value in arguments:
            return f"{arguments[str(setting.value)]} {setting.value!r}"
        return spell(setting)

    return (error if isinstance(error, TournamentError) else TournamentError(str(error))).spelled(spelled)
