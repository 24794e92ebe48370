"""The stake a shut box pays (`shut_pays`): a rule option like the others, validated in one
sentence, left out of a rules table at its default so that every report written before it
existed stays as it was."""

from __future__ import annotations

import tomllib

import pytest
import tomli_w

from shutbox_cli.game import Rules, RulesError

from helpers.command import shutbox


def test_a_shut_box_pays_like_any_other_win_by_default() -> None:
    assert Rules().shut_pays == 1.0
    assert Rules(shut_pays=1) == Rules()
    assert hash(Rules(shut_pays=1)) == hash(Rules())
    assert "shut_pays" not in Rules().to_mapping()


@pytest.mark.parametrize("payout", [0, 0.5, 2, 3.8, 1000])
def test_a_payout_goes_through_a_toml_table_and_back(payout: float) -> None:
    rules = Rules(scoring="digits", shut_pays=payout)  # type: ignore[arg-type]
    table = rules.to_mapping()
    assert table["shut_pays"] == payout and type(table["shut_pays"]) is float
    assert Rules.from_mapping(tomllib.loads(tomli_w.dumps(table))) == rules


@pytest.mark.parametrize("payout", [-1, 1000.5, float("nan"), float("inf"), True, "2", None])
def test_a_payout_that_is_no_number_of_stakes_is_refused_in_one_sentence(payout: object) -> None:
    with pytest.raises(RulesError) as caught:
        Rules(shut_pays=payout)  # type: ignore[arg-type]
    message = str(caught.value)
    assert message.startswith("shut_pays must be a number of stakes from 0 to 1,000, not ")
    assert message.count(".") <= 2 and message.endswith(".")


@pytest.mark.parametrize("format_", [{"rounds": 3}, {"drop_out": 45}])
def test_a_payout_needs_a_game_of_one_round(format_: dict[str, int]) -> None:
    with pytest.raises(RulesError, match=r"^shut_pays needs a game of one round"):
        Rules(shut_pays=2, **format_)  # type: ignore[arg-type]
    assert Rules(shut_pays=1, **format_).shut_pays == 1.0  # type: ignore[arg-type]


def test_the_rules_command_says_what_a_shut_pays() -> None:
    said = shutbox("rules", "--shut-pays", "2", "--scoring", "digits")
    assert said.returncode == 0, said.stderr
    assert "Stakes: each loser pays the winner one stake (shared by joint winners), 2 if the winner shut the box." in (
        said.stdout.replace("\n", " ")
    )
    assert "Stakes" not in shutbox("rules").stdout


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--shut-pays", "-1"], "--shut-pays must be a number of stakes from 0 to 1,000, not -1.0."),
        (["--shut-pays", "2", "--rounds", "2"], "--shut-pays needs a game of one round"),
        (["--shut-pays", "many"], "--shut-pays must be a number"),
    ],
)
def test_a_bad_payout_on_the_command_line_is_one_sentence_and_status_2(args: list[str], said: str) -> None:
    done = shutbox("rules", *args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"shutbox: error: {said}") and done.stderr.count("\n") == 1
