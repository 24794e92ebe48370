"""Solo best scores on this device, one per rule set, in the user's data folder.

The file is JSON: `{"format": 1, "best": {"<rule key>": value}}`. The key is built from
the rules mapping, leaving out what cannot change a solo game (the tie rule, and instant
win in one-round games), so `--tiles 12` and `--scoring count` each keep their own best.
The value is the lowest score (or total, over several rounds); in a drop-out game, where
every solo game ends over the limit, it is the most rounds lasted. Drop-out games with
instant win keep none: a shut box wins them at once, and that cannot be weighed in rounds.
A bad file is set aside and a new one started (see datafile).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from ...game import Rules, RulesError
from .datafile import DataFile, data_dir

__all__ = ["FILE_NAME", "BestScores", "Submitted", "best_text", "data_dir", "keeps_best", "rules_key", "rules_of_key"]

FILE_NAME = "best-scores.json"
FORMAT = 1


def rules_key(rules: Rules) -> str:
    """The key a solo best score is kept under: every rule that can change a solo game."""
    table = rules.to_mapping()
    table.pop("ties", None)
    if not rules.multi_round:
        table.pop("instant_win", None)
    return " ".join(f"{name}={value}" for name, value in table.items())


def rules_of_key(key: str) -> Rules | None:
    """The rules a key was made from (None for a key this version cannot read)."""
    table: dict[str, Any] = {}
    for part in key.split():
        name, _, text = part.partition("=")
        number = text.isascii() and text.isdigit()  # int() would also read "١٠", and fail on "²"
        table[name] = {"True": True, "False": False}.get(text, int(text) if number else text)
    try:
        return Rules.from_mapping(table)
    except (RulesError, TypeError):
        return None


def keeps_best(rules: Rules) -> bool:
    """Whether a solo game under these rules keeps a best (all but drop-out games with instant win)."""
    return rules.drop_out is None or not rules.instant_win


def best_text(rules: Rules, value: int) -> str:
    """A solo result as the best is measured: a score or total, or rounds lasted in a drop-out game."""
    if rules.drop_out is None:
        return str(value)
    return f"{value} round{'' if value == 1 else 's'}"


def beats(rules: Rules, value: int, best: int) -> bool:
    """Whether a result beats the best: more rounds lasted in a drop-out game, else a lower score."""
    return value > best if rules.drop_out is not None else value < best


@dataclasses.dataclass(frozen=True)
class Submitted:
    """What became of a score: whether it is a new best, the best before, and any trouble saving it."""

    new_best: bool
    previous: int | None
    problem: str | None = None


def _is_best_table(table: dict[str, Any]) -> bool:
    return all(isinstance(key, str) and type(value) is int and value >= 0 for key, value in table.items())


class BestScores:
    """The best-score file: read once when the table opens, written when a best is beaten."""

    def __init__(self, folder: Path) -> None:
        self.file = DataFile(folder / FILE_NAME, "best-score file", "best", FORMAT, _is_best_table)
        self.best: dict[str, int] = {}

    @property
    def path(self) -> Path:
        return self.file.path

    def load(self) -> str | None:
        """Read the file; return a sentence if it was set aside (or left alone, unreadable)."""
        self.best, problem = self.file.read()
        return problem

    def get(self, rules: Rules) -> int | None:
        return self.best.get(rules_key(rules))

    def submit(self, rules: Rules, value: int) -> Submitted:
        """Keep a result if it beats the best for these rules (or is the first)."""
        key = rules_key(rules)
        previous = self.best.get(key)
        if previous is not None and not beats(rules, value, previous):
            return Submitted(False, previous)
        self.best[key] = value
        reason = self.file.write(self.best)
        problem = None if reason is None else f"The best score could not be saved to {self.path} ({reason})."
        return Submitted(True, previous, problem)

    def reset(self) -> str | None:
        """Forget every best; return the reason if the file could not be removed."""
        self.best = {}
        return self.file.remove()
