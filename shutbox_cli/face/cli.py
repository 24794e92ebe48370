"""The `shutbox` command: thin Typer commands that parse, call the library and render."""

import atexit
import contextlib
import functools
import importlib
import os
import sys
import threading
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from .. import __version__
from . import completion
from .errors import ERROR_PREFIX, FAILURE, USAGE_ERROR, say_error, show_strategy_warnings
from .help import ShutboxGroup, use_our_help
from .output import Format, FormatOption, print_document
from .rule_options import rules_from_options, with_rule_options
from .shadowing import shadowing_message
from .signals import ignore_once_stopped, received, say_stopped
from .streams import closed_pipe, flushed, reader_gone
from .usage import in_our_words

if TYPE_CHECKING:
    from tournaments.parts import Confinement


class _Shutbox(ShutboxGroup):
    """The `shutbox` command group: a stop that a command leaves unsaid is said here, with its
    signal's status (typer would end it silently with 130, whatever the signal)."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise typer.Exit(_interrupted()) from None


COMMANDS = (
    "analyze",
    "best",
    "check",
    "compare",
    "diff",
    "docs",
    "explain",
    "fair",
    "history",
    "match",
    "new",
    "play",
    "plot",
    "replay",
    "solve",
    "strategies",
    "summary",
    "tournament",
    "tune",
    "completion",
    "rules",
)
"""Every command, in the order they are registered (and `shutbox --help` lists them): each but the
last two from its module in `commands`, which registers it."""


def _version(value: bool) -> None:
    if value:
        typer.echo(f"shutbox {__version__}")
        raise typer.Exit()


def main_callback(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit."),
    ] = False,
) -> None:
    """Play, simulate and solve the dice game Shut the Box.

    The rules and every variant: `shutbox docs rules`. `shutbox COMMAND --help` tells more of each.

    Examples:
      shutbox play
      shutbox tournament -s optimal -s tips --seed 7
      eval "$(shutbox completion bash)"
    """
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
    else:
        from tournaments.parts import on_first_host

        on_first_host(_say_confinement)


def _say_confinement(confinement: "Confinement") -> None:
    """The one line a run that hosts a user's strategy says of the confinement in force (docs/trust.md)."""
    typer.echo(f"shutbox: strategies' processes confined: {confinement}.", err=True)


@with_rule_options
def rules_command(rule_values: dict[str, Any], form: FormatOption = Format.TABLE) -> None:
    """Print the rule set that the rule options make, in plain words (`shutbox docs rules` has them all).

    Examples:
      shutbox rules
      shutbox rules --tiles 12 --one-die low-sum
      shutbox rules --rounds 3 --format toml > rules.toml
    """
    from .describe import describe_rules

    rules = rules_from_options(rule_values)
    if form is not Format.TABLE:
        from tournaments.parts import header, rules_table

        print_document({**header("rules"), "rules": rules_table(rules)}, form)
        return
    for line in describe_rules(rules):
        typer.echo(line)


@functools.cache
def command_line(names: tuple[str, ...]) -> typer.Typer:
    """The `shutbox` command with the commands `names` (`COMMANDS`: all of them): each command
    module registers its own, its heavy imports inside the command."""
    app = typer.Typer(
        name="shutbox",
        cls=_Shutbox,
        no_args_is_help=False,
        add_completion=False,
        rich_markup_mode=None,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    app.callback(invoke_without_command=True)(main_callback)
    for name in names:
        if name == "rules":
            app.command("rules")(rules_command)
        elif name == "completion":
            completion.register(app)
        else:
            importlib.import_module(f"{__package__}.commands.{name}").register(app)
    use_our_help(app)
    return app


def _needed(args: list[str]) -> tuple[str, ...]:
    """The commands a run of `shutbox ARGS` needs built: the one its first argument names, or all
    of them (for the group's help and usage errors, and a shell's completions). A command built
    alone is the command built with the others; the others' modules and typer's making of them
    cost a run some 30 ms for nothing."""
    if args and args[0] in COMMANDS and not completion.wanted():
        return (args[0],)
    return COMMANDS


def __getattr__(name: str) -> typer.Typer:
    """`app`: the whole command line (`command_line(COMMANDS)`), made on first use."""
    if name == "app":
        return command_line(COMMANDS)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """Console-script entry point: click's usage errors become one sentence, exit 2. The process
    ends when the command is done, whatever threads a strategy left running in it. A stop signal
    at any moment (`signals`) is said in one line, with its status."""
    try:
        status = run()
    except KeyboardInterrupt:
        status = _interrupted()
    _exit(status)


def run() -> int:
    """The command line of this process run as the console script runs it: its exit status."""
    shadowed = shadowing_message()
    if shadowed is not None:  # said as it is: our `strategies` (which say_error uses) is out of reach
        typer.echo(f"{ERROR_PREFIX}{shadowed}", err=True)
        return USAGE_ERROR
    # typer's usage-error class (click's, or its own copy of click's) is the base of BadParameter.
    if completion.wanted():
        completion.set_up()
    else:
        show_strategy_warnings()
    usage_error: Any = next(cls for cls in typer.BadParameter.__mro__ if cls.__name__ == "UsageError")
    try:
        status = command_line(_needed(sys.argv[1:]))(standalone_mode=False)
    except usage_error as error:
        message = in_our_words(error)
        hint = f" (see `{error.ctx.command_path} --help`)" if error.ctx else ""
        say_error(f"{message}{hint}.")
        return USAGE_ERROR
    except typer.Abort:
        return _interrupted()
    except SystemExit:  # click's own answer to a closed pipe: exit 1, as if the run had failed
        if reader_gone():
            return closed_pipe()
        raise
    except OSError as error:  # the output went away: a full disk, a closed pipe
        if received() is not None:
            return _interrupted()
        if isinstance(error, BrokenPipeError) and reader_gone():  # it has all it wanted (`| head -1`): no message
            return closed_pipe()
        _report_lost_output(error)
        return FAILURE
    except Exception:
        if received() is None:
            raise
        return _interrupted()  # a stop broke something on its way out (a library's bare `except:`)
    return status if isinstance(status, int) else 0


def _interrupted() -> int:
    """Say the command was stopped, if the terminal is still there to read it: its status."""
    return say_stopped()


def _exit(status: int) -> NoReturn:
    """Exit with `status` once what was written is flushed: at once if a thread other than this one
    would keep the process alive (a strategy's, imported in this process); else after the exit
    functions (`atexit`: the hosts' stops among them), though without the interpreter's tidying up
    of every module and object, tens of milliseconds of a short command for nothing kept (unless a
    profiler or a debugger watches, which ends its work as the interpreter ends)."""
    ignore_once_stopped()
    status = flushed(status)
    if sys.getprofile() is not None or sys.gettrace() is not None:  # a profiler's or debugger's ending
        sys.exit(status)
    if not any(
        thread.is_alive() and not thread.daemon
        for thread in threading.enumerate()
        if thread is not threading.current_thread()
    ):
        atexit._run_exitfuncs()  # noqa: SLF001  # the stdlib's one way to run them before os._exit
        status = flushed(status)
    os._exit(status)


def _report_lost_output(error: OSError) -> None:
    """Say in one line why output failed."""
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - kept for the rest of the process: nothing more can reach the real output
    with contextlib.suppress(OSError):
        say_error(f"cannot write the output: {error.strerror or error}.")
