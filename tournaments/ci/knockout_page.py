"""A knockout's report (`kind = "knockout"`, docs/report.md) as a Markdown page: who won, how the
field was seeded, the bracket round by round (each tie's seeds, who went through and on what
figures), the SPRT the ties ran, and the command that plays it again (as the page's `Words` write
it: the report is its own tournament file)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import Command
from .cells import Words, count_said, inline_code, percent_said, rating_said, repeat_lines, rules_said, table_cell

SEEDED = {"order": "in the order given", "ratings": "by a report's ratings", "exact": "by their exact tournament"}
"""How the field was seeded, in words."""
DECIDED = {"bye": "a bye", "score": "the score", "seed": "drawn: the higher seed"}
"""How a tie was decided, in words."""


def knockout_page(report: Mapping[str, Any], path: Path, words: Words) -> list[str]:
    """The page's lines."""
    config = report["config"]
    field = len(config["strategy"])
    test = report.get("sprt")
    most = "at most " if test else ""
    played = (
        f"{field} strategies seeded {SEEDED.get(report['seeding'], report['seeding'])}; each tie computed exactly "
        f"where both strategies can be, else {most}{count_said(config['games'])} games in pairs on duplicate deals "
        f"({count_said(report['games'])} played in all), seed {report['seed']}"
    )
    lines = [
        f"## shutbox knockout: {table_cell(report['winner'])} wins",
        "",
        f"{played}. Rules: {rules_said(config['rules'], words)}.",
        "",
    ]
    if test:
        settings = " ".join(f"{key}={value:g}" if key != "model" else f"model={value}" for key, value in test.items())
        lines += [f"Each played tie stopped at the verdict of the SPRT {inline_code(settings)}.", ""]
    lines += _bracket(report["round"])
    rerun = Command("tournament", (str(path),))
    return lines + repeat_lines(report, f"{words.write(rerun)}    # the report is its own tournament file")


def _bracket(rounds: list[Mapping[str, Any]]) -> list[str]:
    """The bracket as one table, a row per tie, round by round."""
    lines = [
        "### Bracket",
        "",
        "| round | higher seed | lower seed | through | decided by | higher seed's score | Elo | nElo |",
    ]
    lines.append("|:---|:---|:---|:---|:---|---:|---:|---:|")
    for one in rounds:
        for tie in one["tie"]:
            lines.append(_row(str(one["name"]), tie))
    return [*lines, ""]


def _row(name: str, tie: Mapping[str, Any]) -> str:
    first = f"({tie['first_seed']}) {table_cell(tie['first'])}"
    second = f"({tie['second_seed']}) {table_cell(tie['second'])}" if "second" in tie else "bye"
    if "exact_score" in tie:
        score, elo = f"{percent_said(tie['exact_score'])} (exact)", tie.get("exact_elo")
    elif "score" in tie:
        verdict = f", SPRT {tie['verdict']}" if "verdict" in tie else ""
        score, elo = f"{percent_said(tie['score'])} in {count_said(tie['pairs'])} pairs{verdict}", tie.get("elo")
    else:
        score, elo = "", None
    rating, nelo = ("" if value is None else rating_said(value) for value in (elo, tie.get("nelo")))
    decided = DECIDED.get(tie["decided"], tie["decided"])
    through = table_cell(tie["winner"])
    return f"| {name} | {first} | {second} | {through} | {decided} | {score} | {rating} | {nelo} |"
