"""Solo best scores on this device, one per rule set, in the user's data folder.

The file is JSON: `{"format": 1, "best": {"<rule key>": value}}`. The key is built from
the rules mapping, leaving out what cannot change a solo game (the tie rule, and instant
win in one-round games), so `--tiles 12` and `--scoring count` each keep their own best.
The value is the lowest score (or total, over several rounds); in a drop-out game, where
every solo game ends over the limit, it is the most rounds lasted. Drop-out games with
instant win keep none: a shut box wins them at once, and that cannot be weighed in rounds.
A file that cannot be read is reported and replaced; every write goes to a temporary file
that is then renamed, so a crash never leaves half a file.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

from tournaments.files import reason, write_atomically

from ..game import Rules

DATA_DIR_VARIABLE = "SHUTBOX_DATA_DIR"
FILE_NAME = "best-scores.json"
FORMAT = 1


def data_dir() -> Path:
    """The folder for shutbox's data: $SHUTBOX_DATA_DIR, or the platform's user data folder."""
    override = os.environ.get(DATA_DIR_VARIABLE)
    if override:
        return Path(override)
    from platformdirs import user_data_path

    return user_data_path("shutbox", appauthor=False)


def rules_key(rules: Rules) -> str:
    """The key a solo best score is kept under: every rule that can change a solo game."""
    table = rules.to_mapping()
    table.pop("ties", None)
    if not rules.multi_round:
        table.pop("instant_win", None)
    return " ".join(f"{name}={value}" for name, value in table.items())


def keeps_best(rules: Rules) -> bool:
    """Whether a solo game under these rules keeps a best (all but drop-out games with instant win)."""
    return rules.drop_out is None or not rules.instant_win


def beats(rules: Rules, value: int, best: int) -> bool:
    """Whether a result beats the best: more rounds lasted in a drop-out game, else a lower score."""
    return value > best if rules.drop_out is not None else value < best


@dataclasses.dataclass(frozen=True)
class Submitted:
    """What became of a score: whether it is a new best, the best before, and any trouble saving it."""

    new_best: bool
    previous: int | None
    problem: str | None = None


class BestScores:
    """The best-score file: read once when the table opens, written when a best is beaten."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / FILE_NAME
        self.best: dict[str, int] = {}

    def load(self) -> str | None:
        """Read the file; return a sentence if it was unreadable and has been replaced."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as error:
            return self._replace(f"could not be read ({reason(error)})")
        try:
            data = json.loads(text)
            best = data["best"]
            if (
                data.get("format") != FORMAT
                or not isinstance(best, dict)
                or not all(isinstance(key, str) and type(value) is int and value >= 0 for key, value in best.items())
            ):
                raise ValueError("not a best-score table")
        except (ValueError, TypeError, KeyError) as error:
            return self._replace(f"is not a best-score file ({reason(error)})")
        self.best = best
        return None

    def get(self, rules: Rules) -> int | None:
        return self.best.get(rules_key(rules))

    def submit(self, rules: Rules, value: int) -> Submitted:
        """Keep a result if it beats the best for these rules (or is the first)."""
        key = rules_key(rules)
        previous = self.best.get(key)
        if previous is not None and not beats(rules, value, previous):
            return Submitted(False, previous)
        self.best[key] = value
        reason = self._save()
        problem = None if reason is None else f"The best score could not be saved to {self.path} ({reason})."
        return Submitted(True, previous, problem)

    def _replace(self, what: str) -> str:
        self.best = {}
        reason = self._save()
        message = f"The best-score file {self.path} {what}"
        if reason is None:
            return f"{message}; it has been replaced."
        return f"{message}, and it could not be replaced ({reason})."

    def _save(self) -> str | None:
        """Write the file whole or not at all; return the reason on failure."""
        text = json.dumps({"format": FORMAT, "best": self.best}, indent=2, sort_keys=True) + "\n"
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(self.path, text.encode())
        except OSError as error:
            return reason(error)
        return None
