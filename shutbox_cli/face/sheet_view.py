"""`shutbox explain SPEC --sheet`: a cheat sheet as a Markdown page a person can print and play by
(the rules in words, the rule in a few lines, its exceptions as a small table, the exact figures),
printed, or written whole to `--report FILE.md`; any other report file, or `--format json|toml`,
gets the sheet's report (docs/report.md)."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from ..game import Rules, ShutRule, Ties, tiles_of
from .describe import describe_rules
from .errors import FAILURE, fail
from .output import Output
from .settings import said

if TYPE_CHECKING:
    from tournaments import CheatSheet

WIDTH = 80
"""The page's lines fit a terminal this wide (its tables too, on up to 9 or 10 tiles)."""
PAGE_SUFFIX = ".md"
"""A report file with this suffix gets the page, not the report."""
TURN_LINES = ("Box:", "Each roll:", "Dice:", "First shut:", "Score:")
"""The sentences of `describe_rules` that say how a turn is played."""


def show_sheet(
    spec: str,
    against: str | None,
    rule_values: dict[str, Any],
    exceptions: int | None,
    asked: tuple[bool, bool],
    output: Output,
    timeout: float,
) -> None:
    """Make SPEC's sheet (for beating `against` in one game, if given) under the rule options given,
    with up to `exceptions` exceptions (None: the default), and print or write it as `output` asks:
    the page on stdout for the table format (or to a report file ending in .md), else the report.
    `asked`: whether --sheet was given, and whether a field or a seat were (a usage error)."""
    import contextlib

    import tournaments
    from strategies.runner import StrategyLoadError
    from tournaments.parts import seat_strategies

    rules = _sheet_rules(rule_values, asked, against is not None)
    page_file = output.file if output.file is not None and output.file.suffix.lower() == PAGE_SUFFIX else None
    specs = [spec] if against is None else [spec, against]
    given: list[tuple[str, dict[str, Any], str | None]] = [(one, {}, None) for one in specs]
    count = {} if exceptions is None else {"exceptions": exceptions}
    try:
        with contextlib.ExitStack() as stack:
            seated = [stack.enter_context(one) for one in seat_strategies(given, rules, timeout=timeout)]
            output.check()
            sheet = tournaments.cheat_sheet(seated[0], against=seated[1] if against else None, **count)
        if page_file is not None:
            _write_page(page_file, sheet_page(sheet, spec))
        output.deliver(sheet, written=page_file is not None)
    except (StrategyLoadError, tournaments.ConfigError, tournaments.FileWriteError) as error:
        fail(said(error))
    except tournaments.TournamentFailure as error:
        fail(said(error), FAILURE)
    if output.table and page_file is None:  # on stderr when stdout holds the report (`--report -`)
        typer.echo(sheet_page(sheet, spec), nl=False, err=output.to_stdout)
    if page_file is not None:
        from strategies.runner import printable

        typer.echo(f"Cheat sheet written to {printable(str(page_file))}.", err=True)
    else:
        output.written()


def _sheet_rules(rule_values: dict[str, Any], asked: tuple[bool, bool], game: bool) -> Rules:
    """The rules of a sheet's turn (of a `game` against an opponent); a usage error for options
    that do not go with a sheet."""
    from .describe import TURN_OPTIONS
    from .rule_options import rules_from_options
    from .settings import flag

    sheet_asked, rivals = asked
    if not sheet_asked:
        fail("--exceptions applies to a cheat sheet: add --sheet.")
    if rivals:
        fail("a cheat sheet is played alone or against one opponent (--against SPEC): -s and --seat apply without it.")
    options = [name for name, value in rule_values.items() if name not in TURN_OPTIONS and value is not None]
    if options and not game:
        given = ["--no-instant-win" if rule_values[name] is False else flag(name) for name in options]
        named = " and ".join([", ".join(given[:-1]), given[-1]] if len(given) > 1 else given)
        verb = "shapes" if len(options) == 1 else "shape"
        fail(f"a cheat sheet alone is of a single turn; {named} {verb} a game: add --against SPEC to play one.")
    return rules_from_options(rule_values)


def _write_page(path: Path, text: str) -> None:
    """The page written whole or not at all; a FileWriteError naming the file."""
    from tournaments import FileWriteError
    from tournaments.parts import reason, write_atomically

    try:
        write_atomically(path, text.encode())
    except OSError as error:
        raise FileWriteError(f"cannot write {str(path)!r}: {reason(error)}.") from error


def sheet_page(sheet: CheatSheet, spec: str) -> str:
    """The sheet as a Markdown page, made by `shutbox explain SPEC --sheet` with these rules."""
    lines = [f"# Cheat sheet: Shut the Box, {sheet.rules.tiles} tiles", ""]
    goal = "" if sheet.opponent is None else f" to beat {sheet.opponent} in one game"
    made = f"{spec} --sheet" + ("" if sheet.opponent_spec is None else f" --against {sheet.opponent_spec}")
    lines += _wrapped(
        f"A rule of thumb to play a turn by{goal}, and the few exceptions where leaving it for the play of "
        f"{sheet.strategy} gains most. Made by `shutbox explain {made}`; every figure is exact."
    )
    lines += ["", "## The rules", ""]
    for sentence in describe_rules(sheet.rules):
        if sheet.opponent is not None or sentence.startswith(TURN_LINES):
            lines += _wrapped(sentence, "- ")
    lines += ["", "## The rule", ""]
    for number, step in enumerate(sheet.rule.lines(sheet.rules), 1):
        lines += _wrapped(step, f"{number}. ")
    if sheet.built_in is not None:
        lines += ["", f"This is how the built-in strategy {sheet.built_in} plays."]
    lines += ["", "## The exceptions", ""]
    lines += _exceptions(sheet)
    lines += ["", "## What it is worth", ""]
    lines += _worth(sheet)
    return "\n".join(lines) + "\n"


def _wrapped(text: str, first: str = "") -> list[str]:
    """A paragraph (or a list item opening with `first`) broken into lines of at most WIDTH."""
    return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=" " * len(first))


def _exceptions(sheet: CheatSheet) -> list[str]:
    """The exceptions as a table, the first found first, and what its columns mean."""
    alone = sheet.opponent is None
    if not sheet.exceptions:
        least = "a ten-thousandth of a point" if alone else "a hundredth of a percentage point of winning"
        why = "none was asked for" if not sheet.asked else f"none of {sheet.strategy}'s choices gains {least}"
        return _wrapped(f"None: {why}.")
    rows = [("Open tiles", "Roll", "Do", "Not", "Saves" if alone else "Gains", "Met in")]
    for found in sheet.exceptions:
        box = " ".join(map(str, tiles_of(found.mask)))
        if found.throws:
            roll, do, rule = _roll(sheet.rules, found.throws), _shut(found.instead), _shut(found.rule)
        else:
            roll, do, rule = "(before)", _dice(found.instead), _dice(found.rule)
        rows.append((box, roll, do, rule, f"{found.gain:.4f}" if alone else f"{found.gain:.3%}", f"{found.reach:.2%}"))
    lines = _wrapped("Where these tiles are open and you roll this, play as the row says, not by the rule:")
    lines += ["", *_table(rows, numeric=(4, 5)), ""]
    saves = (
        "Saves: how much lower a turn's expected score is"
        if alone
        else f"Gains: how much higher the chance of beating {sheet.opponent} is, in percentage points,"
    )
    lines += _wrapped(
        f"{saves} with the exception (and those above it) than without. Met in: the share of turns that "
        "meet it, played by this page."
    )
    return lines


def _roll(rules: Rules, throws: tuple[tuple[int, ...], ...]) -> str:
    """The roll of an exception: its total where the moves depend on the total alone, else its dice."""
    if rules.shut_rule is ShutRule.ANY:
        return str(sum(throws[0]))
    return " or ".join("-".join(map(str, throw)) for throw in throws)


def _shut(move: int) -> str:
    return "shut " + "+".join(map(str, tiles_of(move)))


def _dice(count: int) -> str:
    return "roll one die" if count == 1 else "roll two dice"


def _worth(sheet: CheatSheet) -> list[str]:
    """The exact figures of the rule, the sheet, the strategy (and optimal), and the gap closed."""
    count = len(sheet.exceptions)
    played = [("the rule alone", sheet.rule_figures)]
    if count:
        played.append(
            (f"the rule and {'its exception' if count == 1 else f'its {count} exceptions'}", sheet.sheet_figures)
        )
    played.append((sheet.strategy, sheet.strategy_figures))
    if sheet.strategy != "optimal" and sheet.optimal != sheet.strategy_figures:
        played.append(("optimal", sheet.optimal))
    rows: list[tuple[str, ...]] = [("Playing by", "Expected score", "Shuts the box")]
    rows += [(name, f"{found.expected_score:.4f}", f"{found.shut_probability:.2%}") for name, found in played]
    if sheet.opponent is not None:
        wins = ["Wins", *(f"{found.win_rate or 0.0:.2%}" for _, found in played)]
        rows = [(*row, win) for row, win in zip(rows, wins, strict=True)]
    lines = _table(rows, numeric=tuple(range(1, len(rows[0]))))
    if sheet.opponent is not None:
        shared = " (a shared win counts half)" if sheet.rules.ties is Ties.SHARE else ""
        lines += [
            "",
            *_wrapped(f"Wins: the chance of beating {sheet.opponent} in one game{shared}, each seat half the games."),
        ]
    if sheet.closed is not None and count:
        points = f"{sheet.gap:.2%}".removesuffix("%")
        gap = f"{sheet.gap:.4f} points a turn" if sheet.opponent is None else f"{points} percentage points of winning"
        lines.append("")
        lines += _wrapped(
            f"The exceptions close {sheet.closed:.1%} of the gap between the rule and {sheet.strategy} ({gap})."
        )
    built = sorted(sheet.built_ins.items(), key=lambda item: item[1])
    lines.append("")
    lines += _wrapped(
        "The built-in heuristics' expected scores: " + ", ".join(f"{name} {value:.4f}" for name, value in built) + "."
    )
    return lines


def _table(rows: Sequence[tuple[str, ...]], numeric: tuple[int, ...] = ()) -> list[str]:
    """A Markdown table with its columns padded to their widths (numbers to the right)."""
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]

    def line(row: tuple[str, ...]) -> str:
        cells = [
            cell.rjust(width) if at in numeric else cell.ljust(width)
            for at, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        return "| " + " | ".join(cells) + " |"

    rule = (
        "|"
        + "|".join(("-" * (width + 1) + ":") if at in numeric else "-" * (width + 2) for at, width in enumerate(widths))
        + "|"
    )
    return [line(rows[0]), rule, *map(line, rows[1:])]
