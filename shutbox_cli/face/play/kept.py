"""What shutbox keeps of a person's solo games, per rule set: the best and the running record;
listed by `shutbox best`, and cleared by `shutbox best --reset`."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from ..describe import rules_in_short
from .best import BestScores, best_text, rules_of_key
from .coach import total_text
from .record import Record, SoloRecord


@dataclasses.dataclass(frozen=True)
class KeptRules:
    """One rule set's best (in words) and record; `rules` is the options that differ from the standard game."""

    rules: str
    best: str | None
    record: Record | None
    measure: str


class Kept:
    """The best-score file and the record file of one data folder."""

    def __init__(self, folder: Path) -> None:
        self.best = BestScores(folder)
        self.record = SoloRecord(folder)

    def load(self) -> list[str]:
        """Read both files; return a sentence for each that was set aside or left alone."""
        return [problem for problem in (self.best.load(), self.record.load()) if problem]

    def listed(self) -> list[KeptRules]:
        """Every rule set with a best or a record, the standard game first, then by box size."""
        found = []
        for key in sorted({*self.best.best, *self.record.table}):
            rules = rules_of_key(key)
            if rules is None:  # written by another version of shutbox: shown as it is kept
                value = self.best.best.get(key)
                found.append((99, key, KeptRules(key, None if value is None else str(value), None, "result")))
                continue
            value = self.best.get(rules)
            measure = "rounds lasted" if rules.drop_out is not None else "total" if rules.multi_round else "score"
            shown = KeptRules(
                rules_in_short(rules),
                None if value is None else best_text(rules, value),
                self.record.get(rules),
                measure,
            )
            found.append((0 if shown.rules == "standard" else rules.tiles, shown.rules, shown))
        return [shown for *_, shown in sorted(found, key=lambda item: item[:2])]

    def reset(self) -> list[str]:
        """Clear both files; return a sentence for each that could not be removed."""
        problems = []
        for store in (self.best, self.record):
            reason = store.reset()
            if reason:
                problems.append(f"{store.path} could not be removed ({reason}).")
        return problems


def listing_lines(listed: list[KeptRules]) -> list[str]:
    """Each rule set as `shutbox best` lists it: the rules on a line, then, indented, the best and the
    record on one, the mean cost on another (a terminal breaks them between words, keeping the indent)."""
    lines = []
    for kept in listed:
        lines.append(kept.rules)
        record = kept.record
        shown = [] if kept.best is None else [f"best {kept.best}"]
        if record is not None:
            games = f"{record.games} game{'' if record.games == 1 else 's'}"
            shown.append(f"{games}, mean {kept.measure} {record.mean_result:.2f}")
        if shown:
            lines.append(f"  {'; '.join(shown)}")
        if record is not None:
            costs = {goal: cost / record.games for goal, cost in record.costs.items()}
            lines.append(f"  mean cost per game: {total_text(costs)}")
    return lines
