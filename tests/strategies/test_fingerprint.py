"""Policy fingerprints: the documented bytes hashed, the same for the same play whatever the name or
the process that tabulates it, another for a one-state change; none for a strategy that draws at
random or reads the game beyond a key; shown by `check` and `strategies NAME`."""

from __future__ import annotations

import hashlib
import json
import re
import struct
from pathlib import Path

import pytest

from shutbox_cli.game import Rules
from strategies.fingerprint import BEYOND_KEY, STOCHASTIC, fingerprint, first_round_keys
from strategies.loading import load_strategy
from strategies.player import StrategyPlayer
from strategies.solved import ONE_ROUND_KEY
from tournaments import seat_strategy

from helpers.command import shutbox
from helpers.paths import DATA

STRATEGIES = (
    (DATA / "greedy_copy.py").read_text()
    + '''

class Chaser(Copy):
    """Keyed on the score to beat: as few tiles as it can against a low one."""

    name = "chaser"
    key = ("to_beat",)

    def choose_move(self, view):
        if view.context.to_beat is not None and view.context.to_beat < 10:
            return max(view.legal_moves, key=lambda move: (-len(move), move[::-1]))
        return super().choose_move(view)
'''
)


@pytest.fixture
def written(tmp_path: Path) -> Path:
    path = tmp_path / "written.py"
    path.write_text(STRATEGIES)
    return path


def in_process(spec: str, rules: Rules) -> StrategyPlayer:
    loaded = load_strategy(spec)
    return StrategyPlayer(loaded.make(), rules, loaded.name, params=loaded.params)


def test_the_fingerprint_is_the_documented_bytes_hashed() -> None:
    rules = Rules(tiles=5, scoring="count", drop_out=20)
    table = in_process("greedy-high", rules).policy
    # A context-free strategy's: the rules of a turn alone, the game's options at their one-round defaults.
    text = '{"tiles":5,"shut_rule":"any","one_die":"high-tiles","one_die_mode":"optional","scoring":"count",'
    text += '"first_roll":"none","instant_win":true,"ties":"share","rounds":1,"drop_out":0}'
    body = b"".join(struct.pack("<h", after) for after in table.next_mask) + table.dice
    expected = hashlib.sha256(b"shutbox policy 1\n" + text.encode() + b"\n" + body).hexdigest()[:12]
    assert fingerprint(rules, None, lambda _: table) == expected


def test_a_keyed_fingerprint_hashes_each_key_of_the_first_round_in_order() -> None:
    rules = Rules(tiles=4)
    player = in_process("target", rules)
    keys = first_round_keys(rules, ONE_ROUND_KEY)
    expected = hashlib.sha256(
        b"shutbox policy 1\n"
        + json.dumps({**rules.to_mapping(), "drop_out": 0}, separators=(",", ":")).encode()
        + b"\n"
        + b"".join(
            b"key " + json.dumps(list(key), separators=(",", ":")).encode() + b"\n" + _bytes(player.keyed_policy(key))
            for key in keys
        )
    ).hexdigest()[:12]
    assert fingerprint(rules, ONE_ROUND_KEY, lambda key: player.keyed_policy(key or ())) == expected


def _bytes(table: object) -> bytes:
    return b"".join(struct.pack("<h", after) for after in table.next_mask) + table.dice  # type: ignore[attr-defined]


def test_a_first_rounds_keys_are_every_seat_and_score_to_beat_at_tables_of_two_to_four() -> None:
    keys = first_round_keys(Rules(), ONE_ROUND_KEY)
    assert keys[:3] == [(None, 0, 1), (None, 0, 2), (None, 0, 3)]
    assert {to_come for _, _, to_come in keys} == {0, 1, 2, 3}
    assert {count for _, count, _ in keys} == {0, 1, 2, 3}
    assert min(to_beat for to_beat, _, _ in keys[3:]) == 1  # a shut box has won at once: nobody plays after it
    assert len(keys) == 3 + 45 * 6  # scores 1 to 45; (1, 1, 2) (1, 1, 1) (2, 1) (1, 0) (2, 0) (3, 0)
    assert (0, 1, 0) in first_round_keys(Rules(instant_win=False), ONE_ROUND_KEY)
    assert first_round_keys(Rules(), ("seat",)) == [(0,), (1,), (2,), (3,)]


@pytest.mark.slow
def test_a_copy_under_another_name_has_the_same_fingerprint_and_a_one_state_change_another(written: Path) -> None:
    rules = Rules()
    found = {}
    for spec in ("greedy-high", f"{written}:Copy", f"{written}:OneOff"):
        with seat_strategy(spec, rules) as seated:
            found[spec] = seated.fingerprint
    builtin, copy, one_off = found.values()
    assert builtin == copy != one_off
    assert len(builtin or "") == 12 and int(builtin or "", 16) >= 0


@pytest.mark.slow
def test_a_keyed_users_strategy_tabulated_in_its_host_has_the_fingerprint_its_tables_give(written: Path) -> None:
    rules = Rules(tiles=6)
    player = in_process(f"{written}:Chaser", rules)
    expected = fingerprint(rules, ("to_beat",), lambda key: player.keyed_policy(key or ()))
    with seat_strategy(f"{written}:Chaser", rules) as seated:
        assert not seated.builtin and seated.fingerprint == expected


def test_a_strategy_that_draws_or_reads_the_game_has_none_and_says_why() -> None:
    with seat_strategy("random", Rules()) as seated:
        assert (seated.fingerprint, seated.fingerprint_shown) == (None, STOCHASTIC)
    with seat_strategy("target", Rules(rounds=3)) as seated:  # several rounds: no key, the whole game
        assert (seated.fingerprint, seated.fingerprint_shown) == (None, BEYOND_KEY)


@pytest.mark.slow
def test_check_and_strategies_show_the_fingerprint(written: Path) -> None:
    with seat_strategy("greedy-high", Rules()) as seated:
        expected = seated.fingerprint
    done = shutbox("check", f"{written}:Copy", "--samples", "2")
    assert done.returncode == 0, done.stderr
    assert f"Fingerprint under the default rules: {expected}." in done.stdout
    done = shutbox("strategies", f"{written}:Copy", "--format", "json")
    assert json.loads(done.stdout)["strategy"][0]["fingerprint"] == expected
    done = shutbox("strategies", "greedy-high")
    assert f"fingerprint  {expected} (under the default rules)" in done.stdout
    done = shutbox("strategies", "random")
    assert f"fingerprint  {STOCHASTIC}" in done.stdout
    assert "fingerprint" not in json.loads(shutbox("check", "random", "--samples", "2", "--format", "json").stdout)


RARE = """
from strategies import Strategy


class Rare(Strategy):
    \"\"\"Fails in one state of the default rules alone, which two sampled rule sets do not meet.\"\"\"

    def choose_move(self, view):
        if view.rules.tiles == 9 and view.open_mask == 0b110000011 and view.dice == (4, 5):
            raise RuntimeError("rare state")
        return view.legal_moves[0]
"""


@pytest.mark.slow
def test_a_strategy_that_fails_only_as_its_table_is_asked_whole_fails_its_check(tmp_path: Path) -> None:
    (tmp_path / "rare.py").write_text(RARE)
    done = shutbox("check", f"{tmp_path / 'rare.py'}:Rare", "--samples", "2")
    assert done.returncode == 1
    said = " ".join(done.stdout.split())  # as wrapped at 80 columns
    assert "Every check holds." not in said
    assert "1 of 7 checks fail. Fingerprint under the default rules: none: its table failed (above)." in said
    assert "open tiles 1 2 8 9 and dice 4+5 (asked while tabulating its answers): RuntimeError: rare state" in said
    document = json.loads(shutbox("check", f"{tmp_path / 'rare.py'}:Rare", "--samples", "2", "--format", "json").stdout)
    assert document["ok"] is False and "fingerprint" not in document
    [failed] = [one for one in document["check"] if not one["ok"]]
    assert failed["name"] == "table whole" and "RuntimeError: rare state" in failed["detail"]


SEVENTEEN = """
from strategies import Strategy


class Seventeen(Strategy):
    \"\"\"Keyed on the score to beat; fails when it is 17, which two sampled rule sets do not meet.\"\"\"

    key = ("to_beat",)

    def choose_move(self, view):
        if view.context.to_beat == 17:
            raise RuntimeError("no table at 17")
        return view.legal_moves[0]
"""


@pytest.mark.slow
def test_a_keyed_table_that_fails_under_one_key_fails_the_check_naming_the_key(tmp_path: Path) -> None:
    (tmp_path / "seventeen.py").write_text(SEVENTEEN)
    done = shutbox("check", f"{tmp_path / 'seventeen.py'}:Seventeen", "--samples", "2", columns=400)
    assert done.returncode == 1
    assert "Every check holds." not in done.stdout and "1 of 7 checks fail." in done.stdout
    assert re.search(r"table whole +FAIL +under the key to_beat = 17: strategy .* raised", done.stdout), done.stdout
    form = ("--format", "json")
    document = json.loads(shutbox("check", f"{tmp_path / 'seventeen.py'}:Seventeen", "--samples", "2", *form).stdout)
    assert document["ok"] is False


@pytest.mark.slow
def test_strategies_name_shows_a_failed_table_as_lines_not_a_written_out_newline(tmp_path: Path) -> None:
    (tmp_path / "seventeen.py").write_text(SEVENTEEN)
    done = shutbox("strategies", f"{tmp_path / 'seventeen.py'}:Seventeen", columns=400)
    assert done.returncode == 0, done.stderr
    assert "\\n" not in done.stdout, done.stdout
    assert re.search(r"\n +raise RuntimeError\(\"no table at 17\"\)", done.stdout), done.stdout


@pytest.mark.parametrize("game", [{"ties": "seat"}, {"rounds": 3}, {"instant_win": False}, {"shut_pays": 2.0}])
def test_a_context_free_strategys_fingerprint_ignores_the_games_options_a_keyed_ones_does_not(
    game: dict[str, object],
) -> None:
    rules = Rules(tiles=6, **game)  # type: ignore[arg-type]
    tips = in_process("tips", rules).policy
    assert fingerprint(rules, None, lambda _: tips) == fingerprint(Rules(tiles=6), None, lambda _: tips)
    if game == {"ties": "seat"}:  # target weighs a tie as the tie rule does: its play changes
        target = load_strategy("target").cls

        def keyed(rules: Rules) -> str:
            player = StrategyPlayer(target(), rules, "target")
            return fingerprint(rules, target.key_under(rules), player.keyed_policy)

        assert keyed(rules) != keyed(Rules(tiles=6))
