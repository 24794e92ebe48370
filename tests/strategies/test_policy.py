"""A trained policy played as a strategy (strategies/policy.py): an ONNX file, a function, a saved
SB3 agent; scored exactly like the same table written as a plain strategy, played in a host, its
illegal actions and bad files each said in one sentence, and the core install left as it was."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import NoReturn

import numpy as np
import numpy.typing as npt
import pytest

from shutbox_cli.game import Rules, TurnContext, distribution, mask_of
from strategies.answers import make_view
from strategies.base import SOLO_CONTEXT
from strategies.check import RANDOM, check_strategy
from strategies.encoding import encoding
from strategies.loading import StrategyLoadError, load_strategy, spec_file
from strategies.player import StrategyPlayer
from strategies.policy import policy_class
from strategies.policy_models import Model
from tournaments.referee.confinement import readable, strategy_folders

from helpers.command import real_shutbox
from helpers.paths import DATA, ROOT

POLICIES = DATA / "policies"
ONNX = "tests/data/policies/highest_move.onnx"
FUNCTION = "tests/data/policies/highest_move.py:act"
PLAIN = "tests/data/policies/highest_move.py:HighestMove"
ILLEGAL = "tests/data/policies/highest_move.py:illegal"
DRAWING = "tests/data/policies/highest_move.py:drawing"
CAUTIOUS = "examples/cautious.py:Cautious"
MODEL_LIBRARIES = {"onnxruntime", "torch", "sb3_contrib", "stable_baselines3", "onnx"}

onnxruntime = pytest.importorskip("onnxruntime", reason="the ONNX path needs onnxruntime (the rl extra)")


def one_sentence(message: str) -> str:
    assert "\n" not in message and message.endswith("."), message
    assert not re.search(r"[.!?]\s+[A-Z]", message), f"a second sentence: {message}"
    return message


def failure(spec: str, **params: object) -> str:
    with pytest.raises(StrategyLoadError) as caught:
        load_strategy(spec, params or None)
    return one_sentence(str(caught.value))


def expected_score(spec: str, rules: Rules) -> float:
    player = StrategyPlayer(load_strategy(spec).make(), rules)
    return distribution(rules, player.move_policy, player.dice_policy).expected_score


@pytest.mark.slow
def test_the_onnx_file_and_the_function_score_exactly_as_their_table_written_as_a_plain_strategy() -> None:
    rules = Rules()
    plain = expected_score(PLAIN, rules)
    assert expected_score(ONNX, rules) == plain
    assert expected_score(FUNCTION, rules) == plain
    assert plain != expected_score("greedy-high", rules)  # the table is its own, not a built-in's


def test_a_policy_that_reads_only_box_and_roll_is_exact_and_one_that_reads_the_context_says_so() -> None:
    exact = load_strategy(ONNX).cls
    assert exact.tabulable() and not exact.reads_context and not exact.stochastic
    reader = load_strategy(f"{ONNX}(reads_context=True)").cls
    assert reader.reads_context and not reader.tabulable()
    assert failure(ONNX, reads_context="yes") == (f"strategy {ONNX!r} takes reads_context=True or False, not 'yes'.")


def test_a_context_reader_is_shown_the_game_and_an_exact_policy_a_solo_first_turn() -> None:
    seen: list[npt.NDArray[np.int64]] = []

    def watch(observation: npt.NDArray[np.int64], mask: npt.NDArray[np.bool_]) -> int:
        seen.append(observation)
        return int(np.flatnonzero(mask)[0])

    game = TurnContext(player=1, seat=1, round=0, playoff=False, scores=(7, None), totals=(0, 0), active=(True, True))
    moves = (mask_of((7,)), mask_of((3, 4)))
    for reads_context, to_beat in ((False, -1), (True, 7)):
        strategy = policy_class(Model(watch), "watch", reads_context)()
        strategy.choose_move(make_view(strategy, Rules(), 0b111111111, (3, 4), moves, (), game))
        shown = encoding(Rules()).describe(seen[-1])
        assert (shown["to_beat"], shown["seat"]) == ((to_beat, 1) if reads_context else (to_beat, 0))


def test_an_illegal_action_is_the_strategys_error_named_with_its_state() -> None:
    strategy = load_strategy(ILLEGAL).make()
    rules = Rules()
    view = make_view(
        strategy, rules, 0b111111111, (3, 4), (mask_of((7,)), mask_of((1, 6)), mask_of((3, 4))), (), SOLO_CONTEXT
    )
    with pytest.raises(ValueError, match=r"the policy chose action 0 \(shut 1\), which is not legal here"):
        strategy.choose_move(view)


@pytest.mark.slow
def test_an_illegal_action_stops_the_command_naming_the_strategy_and_the_position() -> None:
    done = real_shutbox("analyze", ILLEGAL)
    assert done.returncode == 1
    assert f"strategy {ILLEGAL!r} raised an error with open tiles" in done.stderr
    assert "the policy chose action 0 (shut 1), which is not legal here." in done.stderr
    assert "Traceback" not in done.stderr


def test_a_missing_model_file_is_one_sentence(tmp_path: Path) -> None:
    missing = str(tmp_path / "gone.onnx")
    assert failure(missing) == f"no model file {missing!r} for strategy {missing!r}."
    assert failure("gone.zip") == "no model file 'gone.zip' for strategy 'gone.zip'."


def test_a_file_that_is_not_a_model_is_one_sentence(tmp_path: Path) -> None:
    for name in ("notes.onnx", "notes.zip"):
        (tmp_path / name).write_text("not a model\n")
    onnx_file, zip_file = str(tmp_path / "notes.onnx"), str(tmp_path / "notes.zip")
    assert failure(onnx_file).startswith(f"file {onnx_file!r} of strategy {onnx_file!r} is not an ONNX model")
    assert failure(zip_file) == f"file {zip_file!r} of strategy {zip_file!r} is not a saved Stable-Baselines3 model."


def test_a_model_refuses_the_rules_of_another_box_in_one_sentence() -> None:
    cls = load_strategy(ONNX).cls
    with pytest.raises(StrategyLoadError) as caught:
        cls.key_under(Rules(tiles=10))
    assert one_sentence(str(caught.value)) == (
        f"strategy {ONNX!r} was trained for a box of 9 tiles (observations of 24 numbers, 65 actions), "
        "not these rules' 10 tiles (25 numbers, 68 actions)."
    )
    assert cls.key_under(Rules(one_die=None)) is None  # any rules of its box


@pytest.mark.slow
def test_bad_model_files_end_a_command_with_status_2(tmp_path: Path) -> None:
    (tmp_path / "notes.onnx").write_text("not a model\n")
    for spec, said in (
        ("gone.onnx", "no model file 'gone.onnx'"),
        (str(tmp_path / "notes.onnx"), "is not an ONNX model"),
    ):
        done = real_shutbox("analyze", spec)
        assert done.returncode == 2, done.stderr
        assert said in done.stderr and "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
    done = real_shutbox("analyze", ONNX, "--tiles", "10")
    assert done.returncode == 2 and "was trained for a box of 9 tiles" in done.stderr


def test_the_model_files_folder_is_what_its_host_may_read() -> None:
    assert spec_file(ONNX) == ONNX
    assert spec_file(f"{ONNX}(reads_context=True)") == ONNX
    assert strategy_folders(ONNX, sys.path) == [str(POLICIES.resolve())]
    assert strategy_folders(FUNCTION, sys.path) == [str(POLICIES.resolve())]


@pytest.mark.slow
def test_the_onnx_policy_and_the_function_play_a_tournament_in_hosts(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    done = real_shutbox(
        "tournament", "-s", f"onnx={ONNX}", "-s", f"function={FUNCTION}", "-s", f"plain={PLAIN}",
        "--games", "300", "--seed", "1", "--report", str(report), "--format", "json", confinement=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "strategies' processes confined" in done.stderr
    table = json.loads(report.read_text())
    scores = {row["name"]: row["mean_score"] for row in table["ranking"]}
    assert scores["onnx"] == scores["function"] == scores["plain"]  # one table: the same play on the same dice


@pytest.mark.slow
def test_analyze_gives_a_policys_exact_score_and_check_holds(tmp_path: Path) -> None:
    report = tmp_path / "analysis.json"
    done = real_shutbox("analyze", ONNX, "--format", "json", "--report", str(report))
    assert done.returncode == 0, done.stderr
    analysed = json.loads(report.read_text())
    assert analysed["method"] == "exact"
    assert analysed["mean_score"] == pytest.approx(expected_score(PLAIN, Rules()), abs=1e-12)
    checked = real_shutbox("check", ONNX, "--samples", "60")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "Every check holds." in checked.stdout


@pytest.mark.slow
def test_the_sb3_loader_reads_a_saved_masked_agent(tmp_path: Path) -> None:
    sb3 = pytest.importorskip("sb3_contrib", reason="the SB3 loader is tested where sb3-contrib is installed")
    gymnasium = pytest.importorskip("gymnasium", reason="an SB3 agent needs a Gymnasium environment")
    import tournaments.rl  # noqa: F401  # registers the environment

    env = gymnasium.make("shutbox/ShutTheBox-v0")
    agent = sb3.MaskablePPO("MlpPolicy", env, seed=3, n_steps=64, batch_size=32, device="cpu")
    saved = tmp_path / "agent.zip"
    agent.save(saved)
    strategy = load_strategy(str(saved)).make()
    assert type(strategy).tabulable()
    rules = Rules()
    coded = encoding(rules)
    moves = (mask_of((7,)), mask_of((1, 6)), mask_of((2, 5)), mask_of((3, 4)), mask_of((1, 2, 4)))
    view = make_view(strategy, rules, 0b111111111, (3, 4), moves, (), SOLO_CONTEXT)
    observation = coded.observe(0b111111111, (3, 4))
    action, _ = agent.predict(observation, action_masks=coded.action_mask(0b111111111, (3, 4)), deterministic=True)
    assert mask_of(strategy.choose_move(view)) == coded.move_of(int(action))


def test_nothing_outside_the_policy_models_imports_a_model_library() -> None:
    imports = re.compile(rf"^\s*(?:import|from)\s+(?:{'|'.join(MODEL_LIBRARIES)})\b", re.MULTILINE)
    found = [
        path.relative_to(ROOT).as_posix()
        for package in ("shutbox_cli", "strategies", "tournaments")
        for path in sorted((ROOT / package).rglob("*.py"))
        if imports.search(path.read_text())
    ]
    assert found == ["strategies/policy_models.py"]


@pytest.mark.slow
def test_loading_a_spec_loads_no_model_library_nor_numpy_unless_it_names_a_policy() -> None:
    unwanted = ["numpy", "onnxruntime", "torch", "gymnasium", "strategies.policy", "strategies.encoding"]
    code = (
        "import sys; from strategies.loading import load_strategy; load_strategy(sys.argv[1]); "
        "print(*sorted(set(sys.argv[2:]) & set(sys.modules)))"
    )
    for spec, loaded in ((CAUTIOUS, ""), (FUNCTION, "numpy strategies.encoding strategies.policy")):
        command = [sys.executable, "-c", code, spec, *unwanted]
        done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=True)
        assert done.stdout.strip() == loaded  # the second: the scan sees what a policy loads


def test_the_check_catches_a_policy_taken_for_exact_that_draws_at_random() -> None:
    report = check_strategy(load_strategy(DRAWING).cls, samples=8)
    assert [failure.name for failure in report.failures] == [RANDOM]
    assert check_strategy(load_strategy(FUNCTION).cls, samples=8).ok


@pytest.mark.slow
def test_the_guides_training_script_saves_an_agent_and_its_onnx_that_play_alike(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib", reason="the guide's training needs sb3-contrib and torch (the rl-train extra)")
    pytest.importorskip("onnx", reason="the guide's export needs onnx (the rl-train extra)")
    script = ROOT / "examples" / "rl" / "train_masked_ppo.py"
    out = tmp_path / "ppo"
    trained = subprocess.run(
        [sys.executable, str(script), "--steps", "64", "--seed", "2", "--out", str(out)],
        capture_output=True, text=True, cwd=ROOT, timeout=600,
    )  # fmt: skip
    assert trained.returncode == 0, trained.stderr
    rules = Rules()
    score = expected_score(str(out.with_suffix(".onnx")), rules)
    assert score == pytest.approx(expected_score(str(out.with_suffix(".zip")), rules), abs=1e-9)
    hosted = real_shutbox("analyze", str(out.with_suffix(".zip")), confinement=True)  # torch in a confined host
    assert hosted.returncode == 0, hosted.stderr
    assert "confined: full" in hosted.stderr and f"Expected score: {score:.7f}" in hosted.stdout


@pytest.mark.slow
def test_the_guides_exact_figures_are_the_shipped_agents(tmp_path: Path) -> None:
    agent = "examples/rl/ppo.onnx"
    guide = (ROOT / "docs" / "rl.md").read_text()
    player = StrategyPlayer(load_strategy(agent).make(), Rules())
    found = distribution(Rules(), player.move_policy, player.dice_policy)
    assert f"| expected score (`analyze`) | {found.expected_score:.7f} | 11.0092086 |" in guide
    assert f"| chance to shut the box | {found.shut_probability:.3%} | 9.669% |" in guide
    report = tmp_path / "duel.json"
    done = real_shutbox("analyze", agent, "--against", "optimal", "--format", "json", "--report", str(report))
    assert done.returncode == 0, done.stderr
    won = json.loads(report.read_text())["average"]["win_rate"]
    assert f"(`analyze --against optimal`) | {won:.3%} | {1 - won:.3%} |" in guide


@pytest.mark.slow
def test_a_model_in_the_home_folder_is_read_by_its_host_and_nothing_else_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The home folder's host rule lets Python's files alone be read: a model file there is added by name."""
    home = tmp_path / "home"
    home.mkdir()
    model = home / "agent.onnx"
    model.write_bytes((POLICIES / "highest_move.onnx").read_bytes())
    (home / "notes.txt").write_text("private\n")
    monkeypatch.delenv("SHUTBOX_HOST_WRITABLE", raising=False)  # the tests' folders, which hosts may write
    fresh = {"HOME": str(home), "SHUTBOX_TABLE_CACHE": str(tmp_path / "tables")}  # its table made, not kept
    done = real_shutbox("analyze", str(model), env=fresh, confinement=True)
    assert done.returncode == 0, done.stderr
    assert "confined: full" in done.stderr and "Expected score: 11.2403936" in done.stdout
    monkeypatch.setenv("HOME", str(home))
    reads, listed = readable(str(model), [])
    assert [Path(read) for read in reads if home in Path(read).parents or Path(read) == home] == [model]
    assert str(home) in listed


def test_a_model_file_its_host_may_not_read_is_said_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = tmp_path / "locked.onnx"
    model.write_bytes((POLICIES / "highest_move.onnx").read_bytes())

    def refused(self: Path, *args: object, **kwargs: object) -> NoReturn:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "open", refused)
    named = repr(str(model))
    assert failure(str(model)) == (
        f"model file {named} of strategy {named} cannot be read: PermissionError: [Errno 13] Permission denied."
    )
