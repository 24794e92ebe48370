"""`shutbox analyze SPEC`: how a strategy scores on its own, exactly or by seeded simulation; and
`shutbox analyze A --against B`: A's exact chance of beating B in one game, and the margins."""

from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..arguments import STRATEGY_TIMEOUT, Report, Seed, StrategySpec, StrategyTimeout, seat_option, spec_option
from ..errors import FAILURE, fail
from ..output import Format, FormatOption, Output
from ..plotting import PlotOption, check_plot, plot_result
from ..rule_options import rules_from_options, with_turn_and_game_options
from ..settings import said

if TYPE_CHECKING:
    from rich.console import Console

    from tournaments import Analysis, DuelSeat, ExactDuel

DEFAULT_TURNS = 100_000
"""What the help says; the library's `tournaments.exact.analysis.DEFAULT_TURNS` decides (a test holds them equal)."""
LONG_DISTRIBUTION = 46
"""The terminal shows at most this many scores, the likeliest (the report has them all): every
score of the standard 9-tile box, 0 to 45, fits..."""
RARE = 0.001
"""... and of a long distribution, none less likely than this."""


def register(app: typer.Typer) -> None:
    app.command("analyze")(analyze_command)


@with_turn_and_game_options
def analyze_command(
    spec: StrategySpec,
    rule_values: dict[str, Any],
    turns: Annotated[
        int | None,
        typer.Option(
            "--turns",
            metavar="N",
            min=2,
            show_default=False,
            help=f"Turns to simulate, for strategies that cannot be analysed exactly [default: {DEFAULT_TURNS:,}].",
        ),
    ] = None,
    seed: Seed = None,
    against: Annotated[
        str | None,
        spec_option(
            "--against",
            help="Another exact strategy (or a keyed one such as target, in one-round games and at a table of "
            "two): SPEC's exact chance of beating it in one game under the rules, game options included, and the "
            "distribution of the winning margin.",
        ),
    ] = None,
    seat: Annotated[
        int | None,
        seat_option(2, help="With --against: SPEC's seat, 1 (plays first) or 2 [default: both, and their average]."),
    ] = None,
    report: Report = None,
    plot: PlotOption = None,
    form: FormatOption = Format.TABLE,
    timeout: StrategyTimeout = STRATEGY_TIMEOUT,
) -> None:
    """How a strategy scores over single turns, exactly or by seeded simulation; or, with --against,
    its exact chance of beating another strategy in one game.

    Exact figures when the strategy is deterministic and context-free; otherwise 95% intervals.

    Examples:
      shutbox analyze optimal
      shutbox analyze random --turns 20000 --seed 7
      shutbox analyze optimal --against greedy-high
    """
    import tournaments
    from strategies.runner import StrategyLoadError

    from ..progress import progress_bar

    output = Output(form, report)
    if plot is not None:
        check_plot(plot)
    if against is not None:
        found = _duel(
            spec, against, seat, rule_values, output, timeout, simulation=turns is not None or seed is not None
        )
        if plot is not None:
            plot_result(found, plot)
        return
    if seat is not None:
        fail("--seat applies to a game against another strategy (--against SPEC).")
    _refuse_game_options(rule_values)
    rules = rules_from_options(rule_values)
    try:
        with tournaments.seat_strategy(spec, rules, timeout=timeout) as seated:
            output.check()
            with progress_bar(unit="turns") as progress:
                analysis = tournaments.analyze(seated, turns, seed, progress)
        output.deliver(analysis)
    except (StrategyLoadError, tournaments.FileWriteError) as error:
        fail(said(error))
    except tournaments.TournamentFailure as error:
        fail(said(error), FAILURE)
    if analysis.method == "exact" and (turns is not None or seed is not None):
        typer.echo("shutbox: --turns and --seed apply to simulations; this strategy is analysed exactly.", err=True)
    if analysis.seed_drawn and analysis.seed is not None:
        output.drawn(analysis.seed)
    if output.table:
        _show(output.console(), analysis, seated.description)
    output.written()
    if plot is not None:
        plot_result(analysis, plot)


def _duel(
    spec: str,
    against: str,
    seat: int | None,
    rule_values: dict[str, Any],
    output: Output,
    timeout: float,
    simulation: bool,
) -> "ExactDuel":
    """`--against`: one game of SPEC against another strategy, computed exactly; shown, and given back."""
    import contextlib

    import tournaments
    from strategies.runner import StrategyLoadError
    from tournaments.parts import seat_strategies

    rules = rules_from_options(rule_values)
    try:
        with contextlib.ExitStack() as stack:
            seated, other = (
                stack.enter_context(one)
                for one in seat_strategies([(spec, {}, None), (against, {}, None)], rules, timeout=timeout)
            )
            output.check()
            found = tournaments.duel_exactly(seated, other, seat)
        output.deliver(found)
    except (StrategyLoadError, tournaments.ConfigError, tournaments.FileWriteError) as error:
        fail(said(error))
    except tournaments.TournamentFailure as error:
        fail(said(error), FAILURE)
    if simulation:
        typer.echo("shutbox: --turns and --seed apply to simulations; a game --against is computed exactly.", err=True)
    if output.table:
        _show_duel(output.console(), found)
    output.written()
    return found


def _refuse_game_options(rule_values: dict[str, Any]) -> None:
    """analyze plays single turns: an option that shapes a whole game is a usage error, not ignored;
    it applies to a game --against another strategy (and, but for --ties, to a solo tournament)."""
    from ..describe import TURN_OPTIONS
    from ..settings import flag

    names = [name for name, value in rule_values.items() if name not in TURN_OPTIONS and value is not None]
    if not names:
        return
    given = ["--no-instant-win" if rule_values[name] is False else flag(name) for name in names]
    options = " and ".join([", ".join(given[:-1]), given[-1]] if len(given) > 1 else given)
    verb = "applies" if len(given) == 1 else "apply"
    solo = "" if names == ["ties"] else " (a solo game: `shutbox tournament --table 1 ...`)"
    fail(f"analyze studies single turns; {options} {verb} to a game: add --against SPEC to play one{solo}.")


def _show(console: "Console", analysis: "Analysis", description: str) -> None:
    from ..describe import TURN_OPTIONS, rules_in_short
    from ..literal import literal

    console.print(f"[bold]{literal(analysis.strategy)}[/bold]: {literal(description)}")
    console.print(f"Rules for a turn: {rules_in_short(analysis.rules, TURN_OPTIONS)}.")
    if analysis.method == "exact":
        console.print("Method: exact, from the strategy's answer for every box and roll.")
        console.print(f"Expected score: [bold]{analysis.expected_score:.9g}[/bold]")
        console.print(f"Shuts the box: [bold]{_percent(analysis.shut_probability)}[/bold]")
    else:
        how = "drawn; pass --seed to repeat" if analysis.seed_drawn else "given"
        console.print(f"Method: simulation of {analysis.turns:,} turns, seed {analysis.seed} ({how}).")
        low, high = analysis.expected_score_interval or (0.0, 0.0)
        console.print(f"Expected score: [bold]{analysis.expected_score:.4f}[/bold] (95% CI {low:.4f} to {high:.4f})")
        low, high = analysis.shut_probability_interval or (0.0, 0.0)
        console.print(
            f"Shuts the box: [bold]{_percent(analysis.shut_probability)}[/bold] "
            f"(95% CI {_percent(low)} to {_percent(high)})"
        )
    _show_distribution(console, analysis)


def _shown(distribution: dict[int, float]) -> dict[int, float]:
    """What the terminal shows of a long distribution: the likeliest values, none too rare."""
    if len(distribution) <= LONG_DISTRIBUTION:
        return distribution
    likely = sorted(distribution, key=distribution.__getitem__, reverse=True)[:LONG_DISTRIBUTION]
    return {value: distribution[value] for value in sorted(likely) if distribution[value] >= RARE}


def _show_duel(console: "Console", found: "ExactDuel") -> None:
    from rich.table import Table

    from ...game import Ties
    from ..bars import Bar
    from ..describe import rules_in_short
    from ..literal import literal

    a, b = literal(found.strategy), literal(found.against)
    arithmetic = "fractions" if found.arithmetic == "fraction" else "floats"
    console.print(f"[bold]{a}[/bold] against [bold]{b}[/bold]: one game, computed exactly (in {arithmetic}).")
    console.print(f"Rules: {rules_in_short(found.rules)}.")
    table = Table(box=None, pad_edge=False)
    for title in (f"{a}'s seat", f"{a} wins", f"{b} wins", "tie settled"):
        table.add_column(title, justify="right")
    for row in found.seats:
        table.add_row(_seat_name(row), _percent(row.wins), _percent(row.losses), _percent(row.tie))
    console.print(table)
    settled = f"the chance the tie rule ({found.rules.ties.value}) decided."
    console.print(
        f"A shared win counts half; tie settled: {settled}"
        if found.rules.ties is Ties.SHARE
        else f"Tie settled: {settled}"
    )
    margined = [row for row in found.seats if row.margins is not None]
    if not margined:
        console.print("A drop-out game has no winning margin: the last player left wins.")
        return
    margins = margined[-1].margins or {}
    shown = _shown(margins)
    at_once = (
        " 0 also counts the games a shut box won at once in the first round, before the other seat's turn"
        " (both totals 0)."
        if found.rules.instant_win
        else ""
    )
    console.print(f"Margin: {a}'s final total minus {b}'s (below 0: {a}'s is lower).{at_once}")
    table = Table(box=None, pad_edge=False)
    table.add_column("margin", justify="right")
    for row in margined:
        table.add_column(_seat_name(row) if len(margined) > 1 else "chance", justify="right")
    table.add_column("")
    top = max(shown.values())
    for margin, chance in shown.items():
        cells = [_percent((row.margins or {}).get(margin, 0.0)) for row in margined]
        table.add_row(f"{margin:+d}" if margin else "0", *cells, Bar(chance / top))
    console.print(table)
    hidden = len(margins) - len(shown)
    if hidden:
        rest = sum(chance for margin, chance in margins.items() if margin not in shown)
        console.print(f"{hidden} less likely margins are not shown ({_percent(rest)} together); --report has them all.")


def _seat_name(row: "DuelSeat") -> str:
    return "both (average)" if row.seat is None else f"seat {row.seat}"


def _show_distribution(console: "Console", analysis: "Analysis") -> None:
    from rich.table import Table

    from ..bars import Bar

    shown = _shown(analysis.distribution)
    simulated = analysis.method == "simulate"
    table = Table(title="Score distribution", title_justify="left", box=None, pad_edge=False)
    table.add_column("score", justify="right")
    table.add_column("chance", justify="right")
    if simulated:
        table.add_column("95% CI", justify="right")
    table.add_column("")
    top = max(shown.values())
    for score, chance in shown.items():
        cells = [str(score), _percent(chance)]
        if simulated:
            low, high = analysis.interval(score) or (0.0, 0.0)
            cells.append(f"{_percent(low)}-{_percent(high)}")
        table.add_row(*cells, Bar(chance / top))
    console.print(table)
    hidden = len(analysis.distribution) - len(shown)
    if hidden:
        rest = sum(chance for score, chance in analysis.distribution.items() if score not in shown)
        console.print(f"{hidden} less likely scores are not shown ({_percent(rest)} together); --report has them all.")


def _percent(chance: float) -> str:
    return f"{chance * 100:.3f}%"
