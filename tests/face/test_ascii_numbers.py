"""Numbers are read in ASCII digits only, wherever the command line or a file gives one: Python's
`int` and `float` also read other scripts' digits ("١" is 1, "٤٠" is 40) and `float` reads "1_0",
"inf" and "nan", none of which a gate, a port or an option means."""

from __future__ import annotations

import re
import sys

import pytest
from typer.testing import CliRunner

from shutbox_cli.face import cli
from shutbox_cli.face.cli import app
from shutbox_cli.face.play.best import rules_of_key
from strategies.loading import StrategyLoadError, load_strategy
from tournaments import ConfigError, Options, load_config
from tournaments.ci.gates import GateError, parse_compare_gate, parse_tournament_gate

NOT_ASCII = ["١", "٤٠", "٠.٥", "１", "²", "1_0", "inf", "nan", "0x1", "1e", "."]


@pytest.mark.parametrize("number", NOT_ASCII)
def test_a_gate_compares_with_ascii_decimal_numbers_only(number: str) -> None:
    for parse, gate in (
        (parse_tournament_gate, f"*.rank != {number}"),
        (parse_compare_gate, f"*.win_rate.new > {number}"),
    ):
        with pytest.raises(GateError) as caught:
            parse(gate)
        assert str(caught.value) == (
            f"fail_if {gate!r} compares with {number!r}, which is not a number such as 0.5 or -0.02."
        )


@pytest.mark.parametrize(
    ("number", "value"),
    [("1", 1), ("0.5", 0.5), ("-0.02", -0.02), ("+2", 2), (".5", 0.5), ("3.", 3), ("1e-3", 0.001), ("2E2", 200)],
)
def test_a_gate_reads_every_ascii_decimal_number(number: str, value: float) -> None:
    assert parse_tournament_gate(f"optimal.rank <= {number}").number == value


def test_a_gate_with_another_scripts_digit_fails_before_the_run() -> None:
    result = CliRunner().invoke(app, ["tournament", "-s", "optimal", "-s", "tips", "--fail-if", "*.rank != ١"])
    assert result.exit_code == 2
    assert result.stderr == (
        "shutbox: error: --fail-if '*.rank != ١' compares with '١', which is not a number such as 0.5 or -0.02.\n"
    )


@pytest.mark.parametrize(
    "args",
    [
        ["tournament", "-n", "٤٠"],
        ["tournament", "--seed", "١"],
        ["tournament", "--timeout", "٥"],
        ["tournament", "-j", "２"],
        ["analyze", "tips", "--turns", "١٠٠"],
        ["rules", "--tiles", "١٠"],
        ["replay", "-s", "tips", "-s", "optimal", "--seed", "1", "-g", "٠"],
    ],
)
def test_number_options_take_ascii_digits_only(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["shutbox", *args])
    assert cli.run() == 2  # as the console script runs it: the error in our words
    err = capsys.readouterr().err
    assert re.fullmatch(r"shutbox: error: --\S+ must be a (whole )?number, not '[^']+' \(see `.*`\)\.\n", err), err


def test_a_scheduler_port_is_in_ascii_digits() -> None:
    with pytest.raises(ConfigError, match="must be a Dask scheduler's address"):
        load_config(None, Options(strategies=("optimal", "tips"), scheduler="tcp://localhost:٨٧٨٦"))


def test_a_kept_best_score_key_in_other_digits_is_not_read_as_rules() -> None:
    assert rules_of_key("tiles=10") is not None
    assert rules_of_key("tiles=١٠") is None  # not a key shutbox writes: shown as it is kept
    assert rules_of_key("tiles=²") is None  # int() raised on it


@pytest.mark.parametrize("spec", ["target(margin=١)", "target(margin=٢.٥)", "target(margin=１)"])
def test_strategy_parameters_take_ascii_digits_only(spec: str) -> None:
    with pytest.raises(StrategyLoadError, match="are not of the form name=value"):
        load_strategy(spec)
