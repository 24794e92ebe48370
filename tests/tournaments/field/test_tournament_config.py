"""Tournament configuration: TOML files, options over them, reports read back as configs,
and every mistake as one sentence naming the file (or option) and the key, exit status 2."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
import tomli_w
from typer.testing import CliRunner

from shutbox_cli.face.cli import app
from shutbox_cli.game import Rules
from tournaments import ConfigError, InProcess, Options, load_config, report_table, run
from tournaments.files import write_table_atomically

from helpers.command import shutbox

TWO = '[[strategy]]\nspec = "greedy-high"\n[[strategy]]\nspec = "random"\n'


def invoke(*args: str) -> tuple[int, str, str]:
    done = shutbox("tournament", *args)
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(
    "text, key",
    [
        ("games = 10\ncolour = 'red'\n" + TWO, "'colour'"),
        ('games = "many"\n' + TWO, "'games'"),
        ("games = 0\n" + TWO, "'games'"),
        ("duplicate = 1\n" + TWO, "'duplicate'"),
        ("table = 3\n" + TWO, "'table'"),
        ("[rules]\ndrop_out = -5\n" + TWO, "drop_out"),
        ("[rules]\ntiles = 'nine'\n" + TWO, "tiles"),
        ("[rules]\nspeed = 3\n" + TWO, "speed"),
        ("seed = 4\n", "'strategy'"),
        ('[[strategy]]\nspec = "no-such-strategy"\n', "'strategy[1]'"),
        ('[[strategy]]\nspec = "greedy-high"\nparams = 3\n', "'strategy[1].params'"),
        ('[[strategy]]\nspec = "greedy-high"\nstyle = "bold"\n', "'strategy[1].style'"),
        ('[[strategy]]\nspec = "random"\n[[strategy]]\nspec = "random"\n', "'strategy[2]'"),
        ("games = 10\n[rules\n", "line 2"),
        ('[[strategy]]\nname = "Nameless"\n', "'strategy[1].spec'"),
    ],
    ids=[
        "unknown key",
        "wrong type",
        "games 0",
        "duplicate not a flag",
        "table larger than field",
        "limit 0",
        "bad rule type",
        "unknown rule",
        "no strategies",
        "unknown strategy",
        "params not a table",
        "unknown strategy key",
        "same name twice",
        "not TOML",
        "no spec",
    ],
)
def test_config_file_mistakes_are_one_sentence_naming_file_and_key(tmp_path: Path, text: str, key: str) -> None:
    path = tmp_path / "tournament.toml"
    path.write_text(text)
    status, out, err = invoke(str(path))
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("shutbox: error: ") and err.rstrip().endswith(".")
    assert str(path) in err and key in err


@pytest.mark.parametrize(
    "args, words",
    [
        (["--games", "0"], "--games must be at least 1, not 0."),
        (["--table", "4", "-s", "random", "-s", "greedy-high"], "--table is 4, more players"),
        (["--timeout", "-1"], "--timeout must be a number of seconds"),
        (["-s", "random"], "the table size (by default) is 2"),
        (["-s", "nothing-like-it"], "--strategy 'nothing-like-it'"),
        (["-s", "optimal", "-s", "optimal"], "NAME=SPEC on the command line"),
        (["--report", "/no/such/folder/report.toml"], "/no/such/folder"),
        (["--timeout", "1e300"], "--timeout must be at most 86,400 seconds (a day), not 1e+300."),
        (["--games", str(10**12 + 1)], "--games must be at most 1,000,000,000,000, not 1,000,000,000,001."),
        (["--seed", str(2**64)], "--seed must be at most 18,446,744,073,709,551,615"),
        (
            [*(word for index in range(30) for word in ("-s", f"s{index}=optimal")), "--table", "13"],
            "30 strategies at tables of 13 make 119,759,850 matchups, more than the 100,000",
        ),
    ],
)
def test_option_mistakes_exit_2_with_one_sentence(args: list[str], words: str) -> None:
    status, out, err = invoke(*args)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and words in err


@pytest.mark.parametrize(
    "file_rules, args, said",
    [
        ("", ["--tiles", "14"], "--tiles must be a whole number from 2 to 12, not 14."),
        ("tiles = 14", [], "{path}: [rules] tiles must be a whole number from 2 to 12, not 14."),
        ("tiles = 9", ["--tiles", "14"], "--tiles must be a whole number from 2 to 12, not 14."),
        ("", ["--rounds", "2", "--drop-out", "45"], "--rounds and --drop-out cannot both be set: "),
        ("rounds = 2", ["--drop-out", "45"], "{path}: [rules] rounds and --drop-out cannot both be set: "),
        ("speed = 3", [], "{path}: [rules] unknown rule 'speed'; the rules are "),
    ],
    ids=["option", "file", "option over file", "two options", "file and option", "unknown rule in file"],
)
def test_rule_mistakes_name_each_rule_where_its_value_came_from(
    tmp_path: Path, file_rules: str, args: list[str], said: str
) -> None:
    path = tmp_path / "tournament.toml"
    path.write_text(f"[rules]\n{file_rules}\n{TWO}")
    status, out, err = invoke(str(path), *args)
    assert status == 2 and out == ""
    assert err.startswith("shutbox: error: " + said.format(path=path)) and err.count("\n") == 1


def test_a_rule_option_mistake_reads_as_in_every_command() -> None:
    status, _, err = invoke("--tiles", "14")
    assert status == 2 and err == "shutbox: error: --tiles must be a whole number from 2 to 12, not 14.\n"
    assert err == CliRunner().invoke(app, ["analyze", "greedy-high", "--tiles", "14"]).stderr


def test_a_report_path_that_is_a_folder_is_refused_before_the_run(tmp_path: Path) -> None:
    status, _, err = invoke("-s", "random", "-s", "greedy-high", "--report", str(tmp_path))
    assert status == 2 and "folder" in err


def test_a_config_file_that_is_not_text_is_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "binary.toml"
    path.write_bytes(b"\xff\xfe games = 3")
    status, _, err = invoke(str(path))
    assert status == 2 and err.count("\n") == 1 and "binary.toml' is not valid TOML: it is not UTF-8 text." in err


@pytest.mark.parametrize("kind", ["fifo", "folder", "device"])
def test_a_config_path_that_is_not_a_regular_file_is_refused_without_reading_it(tmp_path: Path, kind: str) -> None:
    path = {"fifo": tmp_path / "pipe.toml", "folder": tmp_path, "device": Path("/dev/zero")}[kind]
    if kind == "fifo":
        os.mkfifo(path)  # opening it to read would wait for a writer forever
    status, _, err = invoke(str(path))
    assert status == 2 and err.count("\n") == 1
    assert f"config file {str(path)!r} is not a regular file." in err


def test_a_config_file_too_large_or_nested_too_deeply_is_one_sentence(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_text("# padding\n" * 200_000)
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 50_000 + "]" * 50_000 + "\n")
    for path, words in ((big, "is larger than 1,048,576 bytes"), (deep, "nests tables or arrays too deeply")):
        status, _, err = invoke(str(path))
        assert status == 2 and err.count("\n") == 1 and words in err


def test_a_report_path_that_is_not_a_regular_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    status, _, err = invoke("-s", "random", "-s", "greedy-high", "--games", "2", "--report", str(pipe))
    assert status == 2 and "not a regular file" in err
    assert stat.S_ISFIFO(pipe.stat().st_mode)


def test_an_interrupted_report_write_leaves_the_old_report_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "report.toml"
    path.write_text("old = true\n")

    def interrupted(descriptor: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_table_atomically(path, {"new": 1})
    assert path.read_text() == "old = true\n" and os.listdir(tmp_path) == ["report.toml"]


def test_a_missing_config_file_is_named(tmp_path: Path) -> None:
    status, _, err = invoke(str(tmp_path / "absent.toml"))
    assert status == 2 and "absent.toml" in err


def test_the_file_gives_everything_and_options_override_it(tmp_path: Path) -> None:
    path = tmp_path / "tournament.toml"
    path.write_text(
        "seed = 42\ngames = 100\ntable = 2\nduplicate = false\n[rules]\ntiles = 10\ndrop_out = 45\n"
        '[[strategy]]\nspec = "greedy-high"\n[[strategy]]\nspec = "target(margin=2)"\nname = "Target"\n'
        '[[strategy]]\nspec = "target"\nparams = { margin = 0 }\nname = "Bold"\n'
    )
    config = load_config(path, Options())
    assert (config.seed, config.games, config.table, config.duplicate) == (42, 100, 2, False)
    assert config.rules == Rules(tiles=10, drop_out=45)
    assert config.names == ("greedy-high", "Target", "Bold")
    assert config.strategies[2].params == {"margin": 0}
    overridden = load_config(path, Options(strategies=("random", "tips"), games=7, seed=1, rules={"tiles": 12}))
    assert overridden.names == ("random", "tips")
    assert (overridden.games, overridden.seed, overridden.duplicate) == (7, 1, False)
    assert overridden.rules == Rules(tiles=12, drop_out=45)


def test_a_whole_rules_object_is_every_rule_option(tmp_path: Path) -> None:
    rules = Rules(tiles=10, drop_out=45, ties="seat", instant_win=False)
    assert load_config(None, Options(strategies=("tips", "random"), rules=rules)).rules == rules
    path = tmp_path / "tournament.toml"
    path.write_text('[rules]\ntiles = 12\nrounds = 3\n[[strategy]]\nspec = "tips"\n[[strategy]]\nspec = "random"\n')
    assert load_config(path, Options(rules=Rules(tiles=9))).rules == Rules(tiles=9)


def test_a_strategy_option_may_name_its_strategy() -> None:
    config = load_config(None, Options(strategies=("Wild=random", "greedy-high", "Me=optimal")))
    assert config.names == ("Wild", "greedy-high", "Me")
    assert [entry.spec for entry in config.strategies] == ["random", "greedy-high", "optimal"]


@pytest.mark.parametrize("name", ["bad\x1b[31m", "two\nlines", "tab\there"])
def test_a_display_name_with_control_characters_is_refused_at_load(name: str, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="control characters; give a printable one"):
        load_config(None, Options(strategies=(f"{name}=random", "tips")))
    path = tmp_path / "names.toml"
    path.write_text(f'[[strategy]]\nspec = "random"\nname = {json.dumps(name)}\n[[strategy]]\nspec = "tips"\n')
    with pytest.raises(ConfigError, match=r"strategy\[1\]'?: the name"):
        load_config(path, Options())


@pytest.mark.slow
def test_a_report_reads_back_as_the_config_it_ran(tmp_path: Path) -> None:
    config = load_config(
        None,
        Options(
            strategies=("greedy-high", "target(margin=3)"), games=20, seed=8, rules={"drop_out": 30, "tiles": None}
        ),
    )
    path = tmp_path / "report.toml"
    path.write_text(tomli_w.dumps(report_table(run(config, backend=InProcess()))))
    again = load_config(path, Options())
    assert (again.strategies, again.rules, again.games, again.table, again.duplicate, again.seed) == (
        config.strategies,
        config.rules,
        config.games,
        config.table,
        config.duplicate,
        config.seed,
    )


def test_a_json_report_runs_again_as_its_own_tournament(tmp_path: Path) -> None:
    first = tmp_path / "first.json"
    status, _, err = invoke("-s", "optimal", "-s", "tips", "-n", "40", "--seed", "3", "-q", "-o", str(first))
    assert status == 0, err
    again = tmp_path / "again.json"
    status, _, err = invoke(str(first), "-q", "-o", str(again))
    assert status == 0, err
    assert json.loads(again.read_text()) == json.loads(first.read_text())
    config = load_config(first, Options())
    assert (config.names, config.games, config.seed) == (("optimal", "tips"), 40, 3)
    replayed = CliRunner().invoke(app, ["replay", str(first), "-g", "0", "--delay", "0"])
    assert replayed.exit_code == 0 and "Scores: " in replayed.stdout, replayed.stderr


def test_a_json_tournament_file_is_checked_as_a_toml_one(tmp_path: Path) -> None:
    path = tmp_path / "tournament.json"
    path.write_text(json.dumps({"games": 10, "strategy": [{"spec": "random"}, {"spec": "tips"}]}))
    assert load_config(path, Options()).names == ("random", "tips")
    for text, words in (
        ('{"games": 0, "strategy": [{"spec": "random"}, {"spec": "tips"}]}', "key 'games' must be at least 1, not 0."),
        ('{"games": 1e3, "strategy": [{"spec": "random"}]}', "key 'games' must be a whole number, not 1000.0."),
        ('{"strategy": [{"spec": "random", "colour": 1}]}', "key 'strategy[1].colour' is unknown"),
        ('{"games": 10,', "is not valid JSON: Expecting property name enclosed in double quotes"),
        ("[1, 2]", "holds a JSON array, not an object of keys."),
        ('"games = 10"', "holds a JSON string, not an object of keys."),
    ):
        path.write_text(text)
        status, out, err = invoke(str(path))
        assert (status, out, err.count("\n")) == (2, "", 1), err
        assert "tournament.json" in err and words in err, err


def test_a_toml_file_is_read_as_toml_whatever_it_holds(tmp_path: Path) -> None:
    path = tmp_path / "tournament.toml"
    path.write_text('{"games": 10}')
    status, _, err = invoke(str(path))
    assert status == 2 and "tournament.toml' is not valid TOML" in err
