"""Every document shutbox writes follows docs/report.md: each key documented with its type and the rule
that makes it absent, no documented key that no mode writes, TOML and JSON holding the same data,
and reports on stdout that a pipe can parse."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from shutbox_cli.game import Rules
from shutbox_cli.game.fair import fair_payout
from strategies.keys import declared_key
from strategies.loading import builtin_spec, load_strategy, split_name
from tournaments import ConfigError, Options, load_config
from tournaments.exact.beside import exact_beside
from tournaments.files import dumps
from tournaments.records.schema import header, rules_mapping, rules_table

from helpers import command
from helpers.paths import ROOT

DOC = ROOT / "docs" / "report.md"
FIELD = ("-s", "optimal", "-s", "tips", "-s", "greedy-high")
HOSTILE_FORFEITS = "tests/hostile/forfeits.py"
FORFEITS = ("-n", "6000", "--seed", "5", "-j", "1", "--on-failure", "forfeit")
"""A run that goes on after a strategy's failure (`--on-failure`): it forfeits a unit's games."""
MODES: dict[str, tuple[str, ...]] = {
    "solo": ("tournament", *FIELD, "--table", "1", "-n", "20", "--seed", "1"),
    "two seats": ("tournament", *FIELD, "-n", "20", "--seed", "2"),
    "three seats": ("tournament", *FIELD, "--table", "3", "-n", "21", "--seed", "3"),
    "rounds": ("tournament", *FIELD, "--rounds", "3", "-n", "20", "--seed", "4"),
    "drop-out": ("tournament", *FIELD, "--table", "3", "--drop-out", "40", "-n", "21", "--seed", "5"),
    "params": ("tournament", "-s", "random", "-s", "target(margin=2)", "-n", "20", "--seed", "6"),
    "user file": ("tournament", "-s", "examples/cautious.py:Cautious", "-s", "optimal", "-n", "20", "--seed", "7"),
    "exact": ("tournament", "--exact", *FIELD),
    "match": ("match", "optimal", "tips", "-n", "40", "--seed", "8"),
    "gauntlet": ("tournament", *FIELD, "-s", "random", "--gauntlet", "2", "-n", "20", "--seed", "10"),
    "forfeit": ("tournament", "-s", "tips", "-s", f"{HOSTILE_FORFEITS}:RaisesRarely", *FORFEITS),
    "match sprt": ("match", "optimal", "random", "-n", "400", "--seed", "9", "--sprt", "elo0=0 elo1=50"),
    "match normalized": ("match", "optimal", "random", "-n", "400", "--seed", "9", "--sprt", "model=normalized elo1=9"),
    "knockout": (
        "tournament",
        "--system",
        "knockout",
        "-s",
        "examples/cautious.py:Cautious",
        "-s",
        "random",
        "-s",
        "below(threshold=5)",
        "-s",
        "tips",
        "-s",
        "r2=random",
        "-n",
        "200",
        "--seed",
        "14",
        "-j",
        "1",
        "--sprt",
        "model=normalized elo0=0 elo1=50",
    ),
    "knockout untested": ("tournament", "--system", "knockout", *FIELD, "-s", "random", "-n", "40", "--seed", "15"),
    "exact solo": ("tournament", "--exact", *FIELD, "--table", "1"),
    "exact three seats": ("tournament", "--exact", *FIELD, "--table", "3"),
    "exact drop-out": ("tournament", "--exact", "-s", "optimal", "-s", "tips", "--drop-out", "40"),
    "analysis simulate": ("analyze", "random", "--turns", "300", "--seed", "7"),
    "analysis exact": ("analyze", "greedy-high"),
    "duel": ("analyze", "optimal", "--against", "tips"),
    "duel drop-out": ("analyze", "optimal", "--against", "tips", "--drop-out", "60", "--seat", "2"),
    "keyed duel": ("analyze", "optimal", "--against", "target", "--tiles", "5"),
    "user analysis": ("analyze", "examples/cautious.py:Cautious"),
    "user duel": ("analyze", "examples/cautious.py:Cautious", "--against", "tips"),
    "explanation": ("explain", "greedy-high"),
    "explanation against": ("explain", "tips", "--against", "optimal", "--seat", "2"),
    "keyed explanation": ("explain", "target", "-s", "greedy-high"),
    "user explanation": ("explain", "examples/cautious.py:Cautious"),
    "sheet": ("explain", "optimal", "--sheet"),
    "sheet against": ("explain", "optimal", "--sheet", "--against", "greedy-high", "--tiles", "6"),
    "user sheet": ("explain", "examples/cautious.py:Cautious", "--sheet", "--tiles", "5", "--exceptions", "0"),
    "strategies": ("strategies",),
    "one strategy": ("strategies", "examples/cautious.py:Cautious"),
    "rules": ("rules", "--tiles", "12", "--drop-out", "90"),
    "tune exact": ("tune", "below", "-p", "threshold=1..3", "-s", "optimal", "-q"),
    "tune exact solo": ("tune", "below(threshold=2)", "-p", "threshold=1..3", "--objective", "shut-rate", "-q"),
    "tune simulate": (
        "tune",
        "below",
        "-p",
        "threshold=1..3",
        "-s",
        "optimal",
        "--method",
        "simulate",
        "-n",
        "40",
        "--confirm-games",
        "40",
        "--seed",
        "11",
        "-j",
        "1",
        "-q",
    ),
    "tune simulate solo": (
        "tune",
        "below",
        "-p",
        "threshold=9..11:2",
        "--method",
        "simulate",
        "-n",
        "40",
        "--confirm-games",
        "40",
        "--seed",
        "12",
        "-j",
        "1",
        "-q",
    ),
}
GOLDEN = "tests/golden/expected"
MODES |= {
    "check": ("check", "greedy-high", "--samples", "3"),
    "comparison": ("compare", f"{GOLDEN}/default.report.toml", f"{GOLDEN}/exact.report.toml"),
    "best": ("best",),
    "replay": ("replay", "-s", "optimal", "-s", "tips", "--seed", "3", "-g", "1", "--rounds", "2"),
    "solution": ("solve", "--tiles", "6", "--table", "3"),
    "solution for a stake": ("solve", "--tiles", "5", "--shut-pays", "2"),
    "fairness": ("fair", "--tiles", "4", "--table", "4"),
    "diff": ("diff", "greedy-high", "optimal", "--tiles", "5"),
    "diff win": ("diff", "target", "tips", "--measure", "win", "--tiles", "5", "--seat", "2"),
    "diff identical": ("diff", "optimal", "optimal", "--tiles", "5"),
    "user diff": ("diff", "examples/cautious.py:Cautious", "tips", "--tiles", "5"),
    "explanation sampled": ("explain", "random", "--tiles", "4", "-n", "40", "--seed", "3"),
    "explanation sampled in games": (
        "explain",
        "random",
        "--against",
        "optimal",
        "--tiles",
        "4",
        "-n",
        "30",
        "--seed",
        "3",
    ),
}
_KEPT = tempfile.TemporaryDirectory(prefix="shutbox-schema-history-")  # removed as the test run ends
HISTORY = str(Path(_KEPT.name) / "history.sqlite3")
"""A history of this module's own: the match below is recorded there (twice: JSON, then TOML)."""
MODES |= {
    "history match": ("match", "optimal", "tips", "-n", "20", "--seed", "1", "--history", HISTORY),
    "history": ("history", "--history", HISTORY),
    "history show": ("history", "show", "1", "--history", HISTORY),
    "history strategy": ("history", "tips", "--history", HISTORY),
}
if importlib.util.find_spec("optuna") is not None:  # the tune extra, which CI installs
    MODES["tune optuna continuous"] = (
        "tune", "tests/tournaments/tuning/risky.py:Risky", "-p", "risk=0.0..1", "--objective", "mean-score",
        "--method", "optuna", "--trials", "2", "-n", "40", "--confirm-games", "40", "--seed", "13", "-j", "1", "-q",
    )  # fmt: skip


@dataclasses.dataclass(frozen=True)
class Key:
    path: str
    type: str
    absent: tuple[str, ...]


def documented() -> dict[str, dict[str, Key]]:
    """The doc's keys: per kind (and "" for every document, "rules table" for a rules table), by path."""
    found: dict[str, dict[str, Key]] = {}
    section = None
    for line in DOC.read_text().splitlines():
        if line.startswith("## "):
            kind = re.search(r'kind = "(\w+)"', line)
            section = kind[1] if kind else {"## Every document": "", "## A rules table": "rules table"}.get(line)
        elif line.startswith("| `") and section is not None:
            path, kind_of, absent = (cell.strip() for cell in line.strip("|").split("|")[:3])
            conditions = () if absent == "never" else tuple(word.strip() for word in absent.split(","))
            found.setdefault(section, {})[path.strip("`")] = Key(path.strip("`"), kind_of, conditions)
    return found


DOCUMENTED = documented()
TYPES: dict[str, Callable[[Any], bool]] = {
    "integer": lambda value: type(value) is int,
    "float": lambda value: type(value) is float,
    "integer or float": lambda value: type(value) in (int, float),
    "string": lambda value: type(value) is str,
    "boolean": lambda value: type(value) is bool,
    "table": lambda value: type(value) is dict,
    "rules table": lambda value: type(value) is dict,
    "array of tables": lambda value: type(value) is list and all(type(item) is dict for item in value),
    "array of strings": lambda value: type(value) is list and all(type(item) is str for item in value),
    "array of integers": lambda value: type(value) is list and all(type(item) is int for item in value),
    "array of arrays of integers": lambda value: (
        type(value) is list and all(type(item) is list and all(type(x) is int for x in item) for item in value)
    ),
    "array of floats": lambda value: type(value) is list and all(type(item) is float for item in value),
    "array of 2 floats": lambda value: type(value) is list and len(value) == 2 and all(type(x) is float for x in value),
    "array of 5 integers": lambda value: type(value) is list and len(value) == 5 and all(type(x) is int for x in value),
    "any": lambda value: True,
}


def specs_of(report: dict[str, Any]) -> list[str]:
    """Every strategy a report names, as specs (a tune's field as NAME=SPEC or specs)."""
    if report["kind"] == "tournament":
        return [strategy["spec"] for strategy in report["config"]["strategy"]]
    return [report["spec"], *([report["opponent_spec"]] if "opponent_spec" in report else report.get("field", []))]


def condition(word: str, report: dict[str, Any], entry: dict[str, Any]) -> bool:
    """Whether a documented absence rule holds for this report (and this entry of an array)."""
    rules = report.get("rules") or report.get("config", {}).get("rules", {})
    holds: dict[str, Callable[[], bool]] = {
        "exact": lambda: report["method"] == "exact",
        "exact at tables of 3 or more": lambda: report["method"] == "exact" and report["config"]["table"] >= 3,
        "simulate": lambda: report["method"] == "simulate",
        "solo tables": lambda: report["config"]["table"] == 1,
        "drop-out": lambda: rules["drop_out"] != 0,
        "one seat asked for": lambda: len(report["seat"]) == 1,
        "no parameters": lambda: "params" not in entry,
        "unavailable": lambda: entry["available"] is False,
        "no turn played": lambda: entry.get("turns", 1) == 0,
        "built-in": lambda: builtin_spec(entry["spec"]),
        "built-in strategies only": lambda: all(builtin_spec(split_name(spec)[1]) for spec in specs_of(report)),
        "no source file": lambda: False,  # every user strategy of these modes comes from a .py file
        "the last": lambda: entry["rank"] == len(report["ranking"]),
        # Written by `shutbox match` (with --sprt) only: the command is not in the report.
        "not a match": lambda: "match" not in report,
        "not a gauntlet": lambda: "gauntlet" not in report["config"],
        "nothing forfeited": lambda: "forfeit" not in report,
        "stopping at a failure": lambda: "forfeit" not in report,  # every mode's run that forfeits says so
        "not a gauntlet of two at a table of two": lambda: (
            report["config"].get("gauntlet") != 2 or report["config"]["table"] != 2
        ),
        "no `--sprt`": lambda: "sprt" not in report["match"],
        "a logistic test": lambda: (report.get("match") or report)["sprt"].get("model") != "normalized",
        "the pairs never varied": lambda: never_varied(report["match"]),
        "ties without an SPRT": lambda: "sprt" not in report,
        "a bye": lambda: entry["decided"] == "bye",
        "a tie not computed": lambda: entry.get("method") != "exact",
        "a tie not played": lambda: entry.get("method") != "simulate",
        "a tie won whole": lambda: entry.get("score", entry.get("exact_score")) in (0.0, 1.0),
        "an end of the tie's interval at 0 or 1": lambda: bool({0.0, 1.0} & set(entry["score_ci95"])),
        "a tie whose pairs never varied": lambda: never_varied(entry),
        "not computed exactly": lambda: "exact_score" not in report["match"],  # by both together
        "one side won every game": lambda: report["match"]["score"] in (0.0, 1.0),
        "an end of the score's interval at 0 or 1": lambda: bool({0.0, 1.0} & set(report["match"]["score_ci95"])),
        "not done": lambda: not report["done"],
        "alone": lambda: not report["field"],
        "not the win rate": lambda: report["objective"] != "win-rate",
        "not optuna": lambda: report["search"] != "optuna",
        "continuous": lambda: isinstance(entry["low"], float) and "step" not in entry,
        "no best value at an end of its range": lambda: (
            "best" not in report
            or all(
                report["best"]["values"][one["name"]] not in (one["low"], one["high"]) for one in report["parameters"]
            )
        ),
        "no best kept": lambda: "best" not in entry,  # `shutbox best` reads the files a person's games left
        "no record kept": lambda: "games" not in entry,
        "no quick exact tournament": lambda: no_quick_exact(report),
        "not exact": lambda: nature(entry["spec"], rules) != "exact",
        "B not exact": lambda: nature(report["opponent_spec"], rules) != "exact",
        "not exact or keyed": lambda: nature(entry.get("spec") or report["strategy"], rules) is None,  # check: a name
        "a list": lambda: len(report["strategy"]) != 1,
        "a check fails": lambda: not report["ok"],
        "its table fails": lambda: False,  # no mode's strategy fails
        "the score measure": lambda: report["measure"] == "score",
        "neither is keyed": lambda: all(nature(spec, rules) == "exact" for spec in specs_of(report)),
        "a dice choice": lambda: entry["choice"] == "dice",
        "not keyed": lambda: not report["features"],
        "a choice of dice": lambda: "throw" not in entry and "played_dice" in entry,
        "a move": lambda: "throw" in entry and "played_dice" not in entry and "a_dice" not in entry,  # both
        "no opponent": lambda: report["measure"] == "expected-score",
        "one die whenever allowed": lambda: report["rule"]["dice"] == "one die when allowed",
        "no built-in plays so": lambda: not plays_as_a_built_in(report),
        "the rule as good as the strategy": lambda: sheet_gap(report) <= 0,
        "a dice exception": lambda: entry["choice"] == "dice",
        "a move exception": lambda: entry["choice"] == "move",
        "not played for a stake": lambda: rules.get("shut_pays", 1.0) == 1.0,
        "no fair payout": lambda: no_fair_payout(report, entry),
        "sampled": lambda: report["method"] == "sampled",
        # A history's (`shutbox history`): of the runs it lists or shows, or of a strategy's runs.
        "a strategy's": lambda: "strategy" in report,
        "a list of runs": lambda: "strategy" not in report,
        "run exact": lambda: entry["settings"]["method"] == "exact",
        "not shown": lambda: len(report["run"]) != 1 or "report" not in entry,
        "not a match's": lambda: entry.get("kind", "match") != "match" or "opponent" not in entry,
        "not a match's or a knockout's": lambda: (
            entry.get("kind", "match") not in ("match", "knockout") or "opponent" not in entry
        ),
        "a tune's": lambda: "rank" not in entry,
        "no fingerprint": lambda: "fingerprint" not in entry,
        "no file digest": lambda: "sha256" not in entry,
        "not from a package": lambda: "package" not in entry,
        "no Elo": lambda: "elo" not in entry,
        "no Elo interval": lambda: "elo_low" not in entry,
        "no SPRT": lambda: "verdict" not in entry,
    }
    return holds[word]()


def never_varied(pairs: dict[str, Any]) -> bool:
    """Whether every pair of a match or tie scored alike, and not a split: its nElo is infinite."""
    return sum(1 for count in pairs["pentanomial"] if count) == 1 and pairs["score"] != 0.5


def plays_as_a_built_in(report: dict[str, Any]) -> bool:
    """Whether a sheet's rule plays as a built-in heuristic does: the same score distribution, to the last digit."""
    from shutbox_cli.game import distribution
    from shutbox_cli.game.rule_of_thumb import BUILT_IN_RULES, RuleOfThumb

    rules = Rules(**rules_mapping(report["rules"])).turn_rules
    *criteria, tie_break = report["rule"]["criteria"]
    rule = RuleOfThumb(tuple(criteria), tie_break, report["rule"].get("one_die_up_to"))
    played = distribution(rules, *rule.policy(rules))
    return any(distribution(rules, *one.policy(rules)) == played for one in BUILT_IN_RULES.values())


def sheet_gap(report: dict[str, Any]) -> float:
    """How much better a sheet's strategy does than its rule alone, in the sheet's measure."""
    rule, strategy = report["figures"]["rule_alone"], report["figures"]["strategy"]
    if report["measure"] == "win-rate":
        return float(strategy["win_rate"] - rule["win_rate"])
    return float(rule["mean_score"] - strategy["mean_score"])


def no_fair_payout(report: dict[str, Any], entry: dict[str, Any]) -> bool:
    """Whether no shut payout makes a fairness report's variant fair, as the library finds it."""
    variant = {**rules_mapping(report["rules"]), "ties": entry["ties"], "first_roll": entry["first_roll"]}
    return fair_payout(Rules(**variant), report["table"]) is None


def nature(spec: str, rules: dict[str, Any]) -> str | None:
    """Whether a strategy is "exact", "keyed" under these rules (default rules where none), or neither."""
    cls = load_strategy(split_name(spec)[1]).cls
    ruled = Rules(**rules_mapping(rules)) if rules else Rules()
    if cls.tabulable():
        return "exact"
    return "keyed" if declared_key(cls, ruled, "it") is not None else None


def no_quick_exact(report: dict[str, Any]) -> bool:
    """Whether a simulated tournament's field has no exact tournament quick enough to compute beside it."""
    if "match" in report:
        return True
    config = load_config(None, Options(strategies=[entry["spec"] for entry in report["config"]["strategy"]]))
    config = dataclasses.replace(
        config,
        table=report["config"]["table"],
        gauntlet=report["config"].get("gauntlet", 0),
        rules=Rules(**rules_mapping(report["config"]["rules"])),
    )
    found = exact_beside(config)
    return found is None or found.win_rates is None


def validate(report: dict[str, Any]) -> set[str]:
    """Check a document against the doc; the paths it holds."""
    kind = report["kind"]
    keys = {**DOCUMENTED[""], **DOCUMENTED[kind]}
    seen: set[str] = set()

    def walk(table: dict[str, Any], prefix: str, entry: dict[str, Any], rules: bool) -> None:
        here = DOCUMENTED["rules table"] if rules else keys
        free = next((path for path in here if re.fullmatch(re.escape(prefix) + r"<\w+>", path)), None)
        for name, value in table.items():
            path = free if free is not None else prefix + name
            assert path in here, f"{kind}: {prefix + name} is not documented"
            key = here[path]
            assert TYPES[key.type](value), f"{kind}: {path} is {value!r}, not a {key.type}"
            seen.add(("rules." if rules else "") + path)
            if key.type == "rules table":
                walk(value, "", value, rules=True)
            elif key.type == "table":
                walk(value, path + ".", entry, rules)
            elif key.type == "array of tables":
                for item in value:
                    walk(item, path + "[].", item, rules)
        for path, key in here.items():  # each key of this table present or absent by its documented rule
            rest = path[len(prefix) :]
            if not path.startswith(prefix) or any(mark in rest for mark in ".[<"):
                continue
            expected = not any(condition(word, report, entry) for word in key.absent)
            assert (rest in table) == expected, f"{kind}: {path} present is {rest in table}, expected {expected}"

    walk(report, "", report, rules=False)
    return seen


def steady(report: dict[str, Any]) -> dict[str, Any]:
    """A document without what the clock decides: a check's decision times, measured at each run."""
    if report["kind"] != "check":
        return report
    checks = [{**one, "detail": ""} if one["name"] == "decision time" else one for one in report["check"]]
    return {**report, "check": checks}


def shutbox(*arguments: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    done = command.real_shutbox(*arguments, cwd=cwd)
    assert done.returncode == finished(arguments), done.stderr
    return done


def here(*arguments: str) -> subprocess.CompletedProcess[str]:
    """The command in this process (what it writes does not depend on a process of its own)."""
    done = command.shutbox(*arguments, cwd=ROOT)
    assert done.returncode == finished(arguments), done.stderr
    return done


def finished(arguments: tuple[str, ...]) -> int:
    """The exit status of a mode's command that finished: 5 where it went on after a forfeit."""
    return 5 if "--on-failure" in arguments else 0


@pytest.fixture(scope="module")
def documents() -> dict[str, tuple[str, str]]:
    """Each mode's document as (JSON, TOML) text, printed by --format."""
    return {
        mode: (here(*arguments, "--format", "json").stdout, here(*arguments, "--format", "toml").stdout)
        for mode, arguments in MODES.items()
    }


def test_the_doc_documents_a_rules_table_and_every_kind() -> None:
    assert set(DOCUMENTED) == {
        *("", "rules table", "tournament", "analysis", "duel", "tune", "strategies", "rules"),
        *("check", "comparison", "best", "replay", "diff", "explanation", "sheet", "solution", "fairness"),
        "knockout",
        "history",
    }
    assert all(key.type in TYPES for keys in DOCUMENTED.values() for key in keys.values())


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_every_mode_writes_json_that_the_doc_describes_and_toml_with_the_same_data(
    documents: dict[str, tuple[str, str]], mode: str
) -> None:
    as_json, as_toml = documents[mode]
    report = json.loads(as_json)
    assert list(report)[:3] == ["schema", "kind", "shutbox_version"] and report["schema"] == 1
    assert steady(tomllib.loads(as_toml)) == steady(report)
    assert as_json.endswith("}\n") and as_json.startswith('{\n  "schema": 1,\n')
    validate(report)


@pytest.mark.slow
def test_the_doc_lists_no_key_that_no_mode_writes(documents: dict[str, tuple[str, str]]) -> None:
    written: dict[str, set[str]] = {}
    for as_json, _ in documents.values():
        report = json.loads(as_json)
        written.setdefault(report["kind"], set()).update(validate(report))
    for kind in (
        "tournament",
        "analysis",
        "duel",
        "strategies",
        "rules",
        "check",
        "comparison",
        "replay",
        "diff",
        "explanation",
        "knockout",
    ):
        never = set(DOCUMENTED[kind]) - written[kind]
        assert not never, f"{kind}: documented but never written: {sorted(never)}"
    rules = {"rules." + path for path in DOCUMENTED["rules table"]}
    assert rules <= set().union(*written.values())


@pytest.mark.slow
def test_a_report_is_the_same_byte_for_byte_and_reads_back_as_its_config(tmp_path: Path) -> None:
    first = shutbox(*MODES["drop-out"], "--report", "-", cwd=ROOT).stdout
    (tmp_path / "report.toml").write_text(first)
    again = shutbox("tournament", str(tmp_path / "report.toml"), "--report", "-").stdout
    assert again == first and "drop_out = 40" in first
    plain = shutbox(*MODES["two seats"], "--report", "-").stdout
    (tmp_path / "plain.toml").write_text(plain)
    assert (
        "drop_out = 0\n" in plain
        and shutbox("tournament", str(tmp_path / "plain.toml"), "--report", "-").stdout == plain
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("options", "reader"),
    [
        (["--report", "-"], "tomllib.loads(sys.stdin.read())"),
        (["--report", "/dev/stdout"], "tomllib.loads(sys.stdin.read())"),
        (["--format", "json", "--report", "-"], "json.load(sys.stdin)"),
        (["--format", "json"], "json.load(sys.stdin)"),
    ],
)
def test_a_report_on_stdout_goes_through_a_pipe(options: list[str], reader: str) -> None:
    command = [sys.executable, "-m", "shutbox_cli", *MODES["two seats"], *options]
    read = f"import json, sys, tomllib; report = {reader}; print(report['kind'], len(report['ranking']))"
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT) as writer:
        done = subprocess.run([sys.executable, "-c", read], stdin=writer.stdout, capture_output=True, text=True)
        assert writer.wait(timeout=60) == 0
    assert done.stdout == "tournament 3\n", done.stderr


@pytest.mark.slow
def test_a_table_and_a_report_on_stdout_do_not_mix(tmp_path: Path) -> None:
    done = shutbox(*MODES["two seats"], "--report", "-")
    report = tomllib.loads(done.stdout)
    assert report["kind"] == "tournament" and "Head to head" in done.stderr and "Tournament:" in done.stderr
    written = shutbox(*MODES["two seats"], "--format", "json", "--report", str(tmp_path / "r.json"))
    assert json.loads(written.stdout) == json.loads((tmp_path / "r.json").read_text()) == report
    assert written.stderr == f"Report written to {tmp_path / 'r.json'}.\n"
    shutbox(*MODES["two seats"], "-q", "--report", str(tmp_path / "r.toml"))
    assert tomllib.loads((tmp_path / "r.toml").read_text()) == report


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("jq") is None, reason="jq is not installed")
def test_json_output_pipes_into_jq() -> None:
    done = subprocess.run(
        f"{sys.executable} -m shutbox_cli {' '.join(MODES['two seats'])} --format json | jq -r '.ranking[0].name'",
        shell=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0 and done.stdout.strip() in {"optimal", "tips", "greedy-high"}, done.stderr


def test_toml_writes_every_array_of_tables_as_sections_however_short_and_json_in_order() -> None:
    table = {"schema": 1, "empty": [], "pair": [{"a": 1}, {"a": 2, "more": {"b": [0.5, 1.0]}}], "rules": {"x": "y"}}
    text = dumps(table, "toml")
    assert "[[pair]]\na = 1\n\n[[pair]]\na = 2\n\n[pair.more]\n" in text and "empty = []\n" in text
    assert tomllib.loads(text) == table == json.loads(dumps(table, "json"))
    assert dumps(table, "json").startswith('{\n  "schema": 1,\n  "empty": [],\n  "pair": [\n')


@pytest.mark.parametrize("limit", ["0", "false"])
def test_no_drop_out_limit_reads_back_from_a_rules_table(tmp_path: Path, limit: str) -> None:
    path = tmp_path / "t.toml"
    path.write_text(f'table = 1\n[rules]\ndrop_out = {limit}\n[[strategy]]\nspec = "tips"\n')
    assert load_config(path, Options()).rules == Rules()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('schema = 2\nkind = "tournament"\n', "has report schema 2; this shutbox reads schema 1 and earlier."),
        ('schema = 1\nkind = "analysis"\nstrategy = "tips"\n', "is an analysis report, not a tournament file."),
        ('schema = 1\nkind = "duel"\n', "is a duel report, not a tournament file."),
    ],
)
def test_a_document_that_is_not_a_tournament_is_refused_in_one_sentence(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "r.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=re.escape(f"{path} {words}")):
        load_config(path, Options())


def test_a_rule_set_document_is_a_tournament_file(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text(dumps({**header("rules"), "rules": rules_table(Rules(tiles=12, drop_out=90))}))
    assert load_config(path, Options(strategies=["tips"], table=1)).rules == Rules(tiles=12, drop_out=90)
