"""A report as a short Markdown page, for a GitHub job summary or a pull-request comment: what was
run, the ranking with its ratings, the head to head, the gates (a match's SPRT, and any `--fail-if`
given), the seed and the commands that repeat it: as the library calls them, or as a caller writes
settings and commands (`Words`: the face's spell them as the command line gives them).

Of a tournament (simulated or exact, a match and a gauntlet among them), an analysis, a duel and a
tune report (docs/report.md; a tune's page: `tune_page`). A figure is shown as the report has it,
rounded for reading; long tables (a score distribution, a duel's margins) fold away in `<details>`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import Command, ConfigError, Setting, setting
from ..records.checked import read_checked
from .cells import (
    SCORE,
    Words,
    count_said,
    fixed,
    inline_code,
    interval_said,
    percent_said,
    plain_cell,
    range_percent,
    range_rating,
    rating_said,
    repeat_lines,
    rule_settings_of,
    rules_said,
    signed_percent,
    signed_said,
    spec_as_typed,
    table_cell,
)
from .gates import Gate, check_names, tournament_failures
from .knockout_page import knockout_page
from .tune_page import tune_page

FAILED = "gate failed: "
"""How a failed gate's line opens (`tournament_failures`), said once in the page."""
DISTRIBUTION_LIMIT = 0.0005
"""A score or margin less likely than this is left out of the folded tables (the report has them all)."""


@dataclasses.dataclass(frozen=True)
class MarkdownSummary:
    """The page, and the lines of the gates that failed (none when every gate passed)."""

    text: str
    failed: tuple[str, ...]


def summarize_report(
    path: Path,
    gates: Sequence[Gate] = (),
    *,
    spell: Callable[[Setting], str] = str,
    write: Callable[[Command], str] = str,
) -> MarkdownSummary:
    """The Markdown page of the report at `path` (TOML or JSON), with `gates` (tournament gates,
    `--fail-if`) checked against its ranking; a ConfigError of one sentence for a file that is not
    a report of results. The settings it names are written by `spell`, the commands that repeat
    the run by `write`: by default as the library calls them (`drop_out=45`, `tune(resume='t.toml')`)."""
    words = Words(spell, write)
    report = read_checked(path)
    name = repr(str(path))
    kind = report.get("kind")
    if not isinstance(kind, str) or kind not in _PAGES:
        kinds = list(_PAGES)
        raise ConfigError(
            f"{name} is not a report of results: its kind is {kind!r}, not {', '.join(kinds[:-1])} or {kinds[-1]}."
        )
    if gates and kind != "tournament":
        raise ConfigError(f"{setting('fail_if')} tests a tournament's ranking; {name} is a {kind} report.")
    try:
        lines, failed = _PAGES[kind](report, path, gates, words)
    except ConfigError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        raise ConfigError(
            f"{name} is not a {kind} report shutbox can read: a key it needs is missing or wrong."
        ) from None
    return MarkdownSummary("\n".join(lines).rstrip("\n") + "\n", tuple(failed))


# The page of each kind of report: its lines, and the gates that failed.


def _tournament(
    report: Mapping[str, Any], path: Path, gates: Sequence[Gate], words: Words
) -> tuple[list[str], list[str]]:
    config, totals, ranking = report["config"], report["totals"], report["ranking"]
    check_names(gates, [entry["name"] for entry in ranking])
    match = report.get("match")
    exact = report["method"] == "exact"
    table = int(config["table"])
    if match:
        title = f"match: {table_cell(match['strategy'])} against {table_cell(match['baseline'])}"
    else:
        first = table_cell(ranking[0]["name"])
        title = f"tournament: {first} first of {len(ranking)}" if table > 1 else "tournament at solo tables"
    size = "solo tables" if table == 1 else f"tables of {table}"
    if exact:
        played = f"{len(ranking)} strategies, every seating computed exactly; {size}"
    else:
        played = (
            f"{len(ranking)} strategies, {count_said(totals['games_per_matchup'])} games per matchup "
            f"({count_said(totals['games'])} in all); {size}{', duplicate deals' if config['duplicate'] else ''}; "
            f"simulated, seed {report['seed']}"
        )
    lines = [f"## shutbox {title}", "", f"{played}. Rules: {rules_said(config['rules'], words)}.", ""]
    lines += _ranking(ranking, exact)
    if match:
        lines += _match(match)
    if report.get("gauntlet"):
        lines += _gauntlet(report["gauntlet"])
    if report["head_to_head"] and not match:
        lines += _head_to_head(ranking, report["head_to_head"])
    if report.get("forfeit"):
        lines += _forfeits(report["forfeit"])
    failed: list[str] = []
    sprt = match.get("sprt") if match else None
    if sprt or gates:
        lines += ["### Gates", "", "A gate fails when its condition holds.", "", "| gate | result |", "|:---|:---|"]
        if sprt:
            lines.append(f"| SPRT {inline_code(_sprt_settings(sprt))} | {_verdict(sprt)} |")
        for gate in gates:
            failures = tournament_failures([gate], ranking)
            failed += failures
            said = "; ".join(failure.removeprefix(FAILED) for failure in failures)
            lines.append(
                f"| {inline_code(gate.text)} | {plain_cell(f'**failed**: {said}' if failures else 'passed')} |"
            )
        lines.append("")
    command = _match_command(report, path) if match else _tournament_command(report, path)
    rerun = f"{words.write(Command('tournament', (str(path),)))}    # the report is its own tournament file"
    lines += repeat_lines(report, words.write(command), rerun)
    return lines, failed


def _analysis(
    report: Mapping[str, Any], path: Path, gates: Sequence[Gate], words: Words
) -> tuple[list[str], list[str]]:
    exact = report["method"] == "exact"
    lines = [f"## shutbox analyze: {table_cell(report['strategy'])}", ""]
    how = "computed exactly" if exact else f"{count_said(report['turns'])} turns simulated, seed {report['seed']}"
    lines += [f"Single turns from a full box, {how}. Rules: {rules_said(report['rules'], words)}.", ""]
    lines += ["| figure | value | 95% CI |", "|:---|---:|---:|"]
    lines.append(
        f"| mean score | {fixed(report['mean_score'], SCORE)} | {interval_said(report, 'mean_score', SCORE)} |"
    )
    lines.append(f"| shut rate | {percent_said(report['shut_rate'])} | {interval_said(report, 'shut_rate')} |")
    lines.append("")
    lines += _folded("Score distribution", "score", _likely(report["distribution"]))
    given = [] if exact else [Setting("turns", report["turns"]), Setting("seed", report["seed"])]
    command = Command("analyze", (spec_as_typed(report["spec"], path),), (*given, *rule_settings_of(report["rules"])))
    lines += repeat_lines(report, words.write(command))
    return lines, []


def _duel(report: Mapping[str, Any], path: Path, gates: Sequence[Gate], words: Words) -> tuple[list[str], list[str]]:
    a, b = table_cell(report["strategy"]), table_cell(report["opponent"])
    lines = [f"## shutbox duel: {a} against {b}", ""]
    rules = rules_said(report["rules"], words)
    lines += [f"One game, computed exactly. A shared win counts half. Rules: {rules}.", ""]
    lines += [f"| {a}'s seat | {a} wins | {b} wins | tie settled |", "|:---|---:|---:|---:|"]
    rows = [(f"seat {seat['seat']}", seat) for seat in report["seat"]]
    if report.get("average"):
        rows.append(("both seats averaged", report["average"]))
    for title, row in rows:
        chances = (percent_said(row[key]) for key in ("win_rate", "opponent_win_rate", "tie_rate"))
        lines.append(f"| {title} | {' | '.join(chances)} |")
    lines.append("")
    margins = rows[-1][1].get("margins")
    if margins:
        lines += _folded(f"Margin: {a}'s final total minus {b}'s ({rows[-1][0]})", "margin", _likely(margins))
    given = [Setting("against", spec_as_typed(report["opponent_spec"], path))]
    if not report.get("average"):
        given.append(Setting("seat", report["seat"][0]["seat"]))
    command = Command("analyze", (spec_as_typed(report["spec"], path),), (*given, *rule_settings_of(report["rules"])))
    lines += repeat_lines(report, words.write(command))
    return lines, []


def _tune(report: Mapping[str, Any], path: Path, gates: Sequence[Gate], words: Words) -> tuple[list[str], list[str]]:
    return tune_page(report, path, words), []


def _knockout(
    report: Mapping[str, Any], path: Path, gates: Sequence[Gate], words: Words
) -> tuple[list[str], list[str]]:
    return knockout_page(report, path, words), []


_PAGES = {"tournament": _tournament, "analysis": _analysis, "duel": _duel, "tune": _tune, "knockout": _knockout}


# Sections.


def _ranking(ranking: Sequence[Mapping[str, Any]], exact: bool) -> list[str]:
    """The ranking: a column for each figure every entry has (an exact one counts seatings, not games)."""
    columns: list[tuple[str, str, Any]] = [
        ("win rate", "win_rate", percent_said),
        ("95% CI", "win_rate_ci95", range_percent),
        ("rating", "rating", rating_said),
        ("rating 95% CI", "rating_ci95", range_rating),
        ("mean score", "mean_score", lambda value: fixed(value, SCORE)),
        ("shut rate", "shut_rate", percent_said),
        ("seatings" if exact else "games", "games", count_said),
    ]
    shown = [column for column in columns if all(column[1] in entry for entry in ranking)]
    lines = ["| rank | strategy | " + " | ".join(title for title, _, _ in shown) + " |"]
    lines.append("|---:|:---|" + "---:|" * len(shown))
    for entry in ranking:
        cells = [str(entry["rank"]), table_cell(entry["name"]), *(shown_as(entry[key]) for _, key, shown_as in shown)]
        if not exact and entry.get("games") == 0:  # it forfeited every game: no figure says anything of it
            cells[2:] = [
                "forfeited" if at == 0 else "-" if key != "games" else "0" for at, (_, key, _) in enumerate(shown)
            ]
        lines.append("| " + " | ".join(cells) + " |")
    return [*lines, ""]


def _head_to_head(ranking: Sequence[Mapping[str, Any]], pairs: Iterable[Mapping[str, Any]]) -> list[str]:
    """The win rate of each row against each column, in the ranking's order; blank where they did not meet."""
    names = [entry["name"] for entry in ranking]
    rates = {(pair["strategy"], pair["opponent"]): pair["win_rate"] for pair in pairs}
    lines = ["### Head to head", "", "The row's win rate in the games it played with the column.", ""]
    lines.append("| | " + " | ".join(table_cell(name) for name in names) + " |")
    lines.append("|:---|" + "---:|" * len(names))
    for row in names:
        cells = [
            "-" if row == column else percent_said(rates[row, column]) if (row, column) in rates else ""
            for column in names
        ]
        lines.append(f"| {table_cell(row)} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def _match(match: Mapping[str, Any]) -> list[str]:
    """A match from NEW's side: its score, win-rate difference and Elo, each with its interval."""
    new = table_cell(match["strategy"])
    lines = ["### Game pairs", "", "| figure | value | 95% CI |", "|:---|---:|---:|"]
    lines.append(f"| score of {new} | {percent_said(match['score'])} | {range_percent(match['score_ci95'])} |")
    low, high = match["win_rate_difference_ci95"]
    difference = signed_percent(match["win_rate_difference"])
    lines.append(f"| win-rate difference | {difference} | {signed_percent(low)} to {signed_percent(high)} |")
    if "elo" in match:
        interval = range_rating(match["elo_ci95"]) if "elo_ci95" in match else ""
        lines.append(f"| Elo difference | {rating_said(match['elo'])} | {interval} |")
    if "nelo" in match:
        interval = range_rating(match["nelo_ci95"]) if "nelo_ci95" in match else ""
        lines.append(f"| normalized Elo | {rating_said(match['nelo'])} | {interval} |")
    lines.append(f"| LOS | {percent_said(match['los'])} | |")
    pentanomial = " / ".join(str(count) for count in match["pentanomial"])
    lines += [
        "",
        f"{count_said(match['pairs'])} pairs: {count_said(match['wins'])} wins, {count_said(match['shared'])} shared, "
        f"{count_said(match['losses'])} losses; "
        f"pairs scoring 0, 1/2, 1, 3/2, 2: {pentanomial}.",
        "",
    ]
    return lines


def _gauntlet(gauntlet: Mapping[str, Any]) -> list[str]:
    """The first player's score minus the second's, against each opponent and over the field."""
    first, second = table_cell(gauntlet["strategy"]), table_cell(gauntlet["baseline"])
    lines = ["### Gauntlet", "", f"The score of {first} minus that of {second}, from the game pairs.", ""]
    lines += ["| opponent | difference | 95% CI |", "|:---|---:|---:|"]
    rows = [(opponent["name"], opponent) for opponent in gauntlet["opponent"]]
    for name, row in [*rows, ("over the field", gauntlet)]:
        low, high = (signed_said(bound) for bound in row["score_difference_ci95"])
        lines.append(f"| {table_cell(name)} | {signed_said(row['score_difference'])} | {low} to {high} |")
    return [*lines, ""]


def _forfeits(forfeits: Sequence[Mapping[str, Any]]) -> list[str]:
    """Each failure the run went on after (`--on-failure`): who, what it lost, where and why."""
    lines = ["### Forfeits", "", "A user's strategy failed; the run went on without its games there.", ""]
    lines += ["| strategy | lost | unit | why |", "|:---|:---|---:|:---|"]
    for forfeit in forfeits:
        where = ", ".join(forfeit["matchup_names"])
        lost = f"{count_said(forfeit['games'])} games of {where}"
        if forfeit["disqualified"]:
            lost = f"disqualified: every game it played left out; {lost} not played"
        cells = [table_cell(forfeit["strategy"]), plain_cell(lost), str(forfeit["unit"])]
        lines.append(f"| {' | '.join(cells)} | {plain_cell(forfeit['why'])} |")
    return [*lines, ""]


def _folded(title: str, heading: str, chances: Mapping[int, float]) -> list[str]:
    """A folded table of a distribution's likelier values."""
    lines = ["<details>", f"<summary>{title}</summary>", "", f"| {heading} | chance |", "|---:|---:|"]
    lines += [f"| {value} | {percent_said(chance)} |" for value, chance in chances.items()]
    return [*lines, "", "</details>", ""]


# Commands.


def _tournament_command(report: Mapping[str, Any], path: Path) -> Command:
    config = report["config"]
    given = [Setting("strategies", tuple(_entered(entry, path) for entry in config["strategy"]))]
    if report["method"] == "exact":
        given.append(Setting("method", "exact"))
    else:
        given += [Setting("games", config["games"]), Setting("seed", config["seed"])]
        if not config["duplicate"]:
            given.append(Setting("duplicate", False))
    if config["table"] != 2:
        given.append(Setting("table", config["table"]))
    if "gauntlet" in config:
        given.append(Setting("gauntlet", config["gauntlet"]))
    if "on_failure" in config:
        given.append(Setting("on_failure", config["on_failure"]))
    return Command("tournament", (), (*given, *rule_settings_of(config["rules"])))


def _match_command(report: Mapping[str, Any], path: Path) -> Command:
    config = report["config"]
    new, old = (_entered(entry, path) for entry in config["strategy"])
    given = [Setting("games", config["games"]), Setting("seed", config["seed"])]
    sprt = report["match"].get("sprt")
    if sprt:
        given.append(Setting("sprt", _sprt_settings(sprt)))
    if "on_failure" in config:
        given.append(Setting("on_failure", config["on_failure"]))
    return Command("match", (new, old), (*given, *rule_settings_of(config["rules"])))


def _entered(entry: Mapping[str, Any], path: Path) -> str:
    """A field entry as a field's strategy is given: its spec with its parameters (unless the spec holds them
    already), after its name if that differs."""
    spec = spec_as_typed(entry["spec"], path)
    params = entry.get("params")
    given = "(" + ", ".join(f"{key}={value!r}" for key, value in params.items()) + ")" if params else ""
    if spec.rstrip().endswith(")"):  # recorded as typed, its parameters in it
        given = ""
    name = entry["name"]
    natural = name in (entry["spec"], entry["spec"] + given) or (
        bool(given) and name.endswith(given) and "=" not in name.removesuffix(given)
    )
    return spec + given if natural else f"{name}={spec}{given}"


def _sprt_settings(sprt: Mapping[str, Any]) -> str:
    model = f"model={sprt['model']} " if "model" in sprt else ""
    return model + " ".join(f"{key}={sprt[key]:g}" for key in ("elo0", "elo1", "alpha", "beta"))


def _verdict(sprt: Mapping[str, Any]) -> str:
    low, high = sprt["bounds"]
    said = {
        "H1": "passed: H1 accepted",
        "H0": "**failed**: H0 accepted",
        "undecided": "**undecided**: the games ran out",
    }
    looks = sprt.get("path", {}).get("games") or []
    looked = f", after {len(looks):,} look{'s' * (len(looks) != 1)} at {looks[-1]:,} games" if looks else ""
    return f"{said[sprt['verdict']]} (LLR {sprt['llr']:.3f}{looked}, bounds {low:.3f} and {high:.3f})"


def _likely(distribution: Mapping[str, float]) -> dict[int, float]:
    return {int(value): chance for value, chance in distribution.items() if chance >= DISTRIBUTION_LIMIT}
