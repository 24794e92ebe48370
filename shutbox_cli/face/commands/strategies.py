"""`shutbox strategies [NAME]`: every available strategy, or one in full."""

from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..completion import complete_strategy
from ..errors import fail
from ..output import Format, FormatOption, print_document

if TYPE_CHECKING:
    from rich.console import Console

    from strategies.runner import StrategyInfo


def register(app: typer.Typer) -> None:
    app.command("strategies")(strategies_command)


def strategies_command(
    name: Annotated[
        str | None,
        typer.Argument(
            metavar="SPEC",
            show_default=False,
            autocompletion=complete_strategy,
            help="Show this one in full: a name, module:Class or path/file.py:Class.",
        ),
    ] = None,
    form: FormatOption = Format.TABLE,
) -> None:
    """List every strategy, built-in and installed, with its nature; or show one in full.

    Examples:
      shutbox strategies
      shutbox strategies target
      shutbox strategies examples/cautious.py:Cautious
    """
    from strategies.runner import StrategyLoadError, catalog, split_spec, strategy_info

    from ..console import results_console

    console = results_console()
    if name is None:
        infos = catalog()
        if form is Format.TABLE:
            _show_table(console, infos)
            return
        print_document(_document([(info, info.name) for info in infos]), form)
        return
    try:
        info = strategy_info(name)
    except StrategyLoadError as error:
        fail(str(error))
    fingerprint = _fingerprint(name)
    if form is Format.TABLE:
        _show_one(console, info, fingerprint)
        return
    print_document(_document([(info, split_spec(name)[0])], fingerprint[0]), form)


def _fingerprint(spec: str) -> tuple[str | None, str]:
    """The strategy's fingerprint under the default rules (None where it has none), and as shown:
    the fingerprint, or why there is none."""
    from strategies.runner import StrategyError, StrategyLoadError
    from tournaments import TournamentFailure, seat_strategy

    from ...game import Rules
    from ..settings import said

    try:
        with seat_strategy(spec, Rules()) as seated:
            return seated.fingerprint, seated.fingerprint_shown
    except (StrategyLoadError, StrategyError, TournamentFailure) as error:
        return None, f"none: {said(error)}"


def _document(infos: "list[tuple[StrategyInfo, str]]", fingerprint: str | None = None) -> dict[str, Any]:
    """The strategies (each with the spec that enters it) as a `kind = "strategies"` document (docs/report.md)."""
    from tournaments.parts import header

    entries = []
    for info, spec in infos:
        entry: dict[str, Any] = {"name": info.name, "spec": spec, "origin": info.origin}
        entry["available"] = info.cls is not None
        entry["description"] = info.description
        if info.cls is not None:
            entry |= {
                "exact": info.cls.tabulable(),
                "stochastic": info.cls.stochastic,
                "reads_context": info.cls.reads_context,
            }
        if fingerprint is not None:
            entry["fingerprint"] = fingerprint
        entries.append(entry)
    return {**header("strategies"), "strategy": entries}


def _show_table(console: "Console", infos: "list[StrategyInfo]") -> None:
    from rich.table import Table

    from ..literal import literal

    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
    table.add_column("name", no_wrap=True, style="bold")
    table.add_column("nature")
    table.add_column("description", ratio=1)
    for info in infos:
        table.add_row(literal(info.name), info.nature, literal(info.description))
    console.print(table)
    console.print(
        "exact: deterministic and context-free, so analysed exactly and played from a table of its own "
        "answers; the others are simulated. `shutbox strategies NAME` shows one in full."
    )


def _show_one(console: "Console", info: "StrategyInfo", fingerprint: tuple[str | None, str]) -> None:
    from rich.markdown import Markdown
    from rich.table import Table

    from strategies.runner import printable_lines

    from ..literal import literal, literal_lines

    details = Table.grid(padding=(0, 2))
    details.add_column(style="bold", no_wrap=True)
    details.add_column()
    details.add_row("name", literal(info.name))
    details.add_row("description", literal(info.description))
    details.add_row("nature", info.nature_in_full)
    details.add_row("parameters", literal(_parameters(info)))
    found, shown = fingerprint
    details.add_row("fingerprint", literal_lines(shown) if found is None else f"{found} (under the default rules)")
    details.add_row("from", literal(f"{info.origin} ({info.target})"))
    console.print(details)
    if info.details:
        console.print()
        console.print(Markdown(printable_lines(info.details)))


def _parameters(info: "StrategyInfo") -> str:
    from strategies.runner import REQUIRED, answer_text

    if not info.parameters:
        return "none"
    shown = []
    for parameter in info.parameters:
        kind = f": {parameter.annotation}" if parameter.annotation else ""
        default = " (required)" if parameter.default is REQUIRED else f" = {answer_text(parameter.default)}"
        shown.append(f"{parameter.name}{kind}{default}")
    return ", ".join(shown)
