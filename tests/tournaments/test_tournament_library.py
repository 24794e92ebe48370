"""The tournaments library from Python: one call runs a tournament on any backend with the
same results, reports are written whole or not at all, errors come from one module, and a
script like the one docs/library.md shows runs as it is."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import tomli_w

import shutbox_cli
import tournaments
from shutbox_cli.game import DICE_SCHEME, Rules
from strategies import Move, Strategy, View
from strategies.solved import Optimal
from tournaments import (
    ConfigError,
    FileWriteError,
    InProcess,
    Interrupted,
    Options,
    ProcessPool,
    TournamentError,
    TournamentFailure,
    default_backend,
    load_config,
    report_table,
    run,
    seat_strategy,
    write_report,
)
from tournaments.backends.base import estimated_seconds
from tournaments.exact.analysis import DEFAULT_TURNS, simulate
from tournaments.playing.plan import make_plan
from tournaments.version import shutbox_version

from helpers.paths import DATA, ROOT

FIELD = ("greedy-high", "random", "tips")


def config(**given: object) -> tournaments.TournamentConfig:
    options = {"strategies": FIELD, "games": 1000, "seed": 5, **given}
    return load_config(None, Options(**options))


@pytest.mark.slow
def test_in_process_and_a_pool_of_two_give_the_same_summary_and_report_bytes(tmp_path: Path) -> None:
    three_rounds = config(table=3, rules={"rounds": 3})
    here = run(three_rounds, backend=InProcess())
    pooled = run(three_rounds, backend=ProcessPool(2))
    assert report_table(here) == report_table(pooled)
    assert report_table(here)["dice"] == DICE_SCHEME == "splitmix64-v1"  # which dice made the report
    assert here.tallies == pooled.tallies
    write_report(tmp_path / "here.toml", here)
    write_report(str(tmp_path / "pooled.toml"), pooled)
    assert (tmp_path / "here.toml").read_bytes() == (tmp_path / "pooled.toml").read_bytes()
    other = run(config(table=3, rules={"rounds": 3}, seed=6), backend=InProcess())
    assert report_table(other) != report_table(here)


@pytest.mark.slow
def test_the_summary_holds_the_config_and_plan_it_ran() -> None:
    summary = run(config(), backend=InProcess())
    assert summary.config.seed == 5 and not summary.seed_drawn
    assert summary.plan == make_plan(summary.config)
    assert summary.games == 3000 == sum(standing.games for standing in summary.ranking) // 2
    assert [len(counted) for counted in summary.tallies] == [2, 2, 2]


@pytest.mark.slow
def test_without_a_seed_one_is_drawn_and_kept_in_the_summary() -> None:
    summary = run(config(seed=None, games=20), backend=InProcess())
    assert summary.seed_drawn and isinstance(summary.config.seed, int)
    assert report_table(summary)["seed"] == summary.config.seed
    again = run(config(seed=summary.config.seed, games=20), backend=InProcess())
    assert report_table(again) == report_table(summary) and not again.seed_drawn


@pytest.mark.slow
def test_progress_is_told_the_games_done_and_the_total_from_zero_to_the_end() -> None:
    told: list[tuple[int, int]] = []
    run(config(), backend=InProcess(), progress=lambda done, total: told.append((done, total)))
    assert told[0] == (0, 3000) and told[-1] == (3000, 3000)
    assert len(told) == 1 + make_plan(config()).unit_count
    assert [done for done, _ in told] == sorted(done for done, _ in told)


def test_ctrl_c_during_a_run_is_interrupted_with_the_games_done_the_total_and_the_seed() -> None:
    def stop_after_the_first_unit(done: int, total: int) -> None:
        if done:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted) as caught:
        # target reads the whole context in games of two rounds: it plays game by game, in several units
        several_units = config(seed=None, strategies=("greedy-high", "random", "target"), rules={"rounds": 2})
        run(several_units, backend=InProcess(), progress=stop_after_the_first_unit)
    stop = caught.value
    assert stop.total == 3000 and 0 < stop.games < 3000 and isinstance(stop.seed, int)
    assert str(stop) == f"interrupted after {stop.games:,} of 3,000 games (seed {stop.seed})"


@pytest.mark.slow
def test_a_failing_strategy_is_a_tournament_failure_on_either_backend(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text(
        "from strategies.base import Strategy\n"
        "class Bad(Strategy):\n"
        "    def choose_move(self, view):\n"
        "        return (99,)\n"
    )
    bad = config(strategies=(f"{tmp_path / 'bad.py'}:Bad", "greedy-high"), games=10)
    messages = set()
    for backend in (InProcess(), ProcessPool(2)):
        with pytest.raises(TournamentFailure) as caught:
            run(bad, backend=backend)
        messages.add(str(caught.value))
    assert len(messages) == 1 and "answered (99,)" in messages.pop()


def test_every_error_is_a_tournament_error_and_a_config_error_is_a_value_error() -> None:
    for error in (ConfigError, FileWriteError, TournamentFailure, Interrupted):
        assert issubclass(error, TournamentError)
    assert issubclass(ConfigError, ValueError) and issubclass(FileWriteError, OSError)
    with pytest.raises(ConfigError, match=r"^games must be at least 1, not 0"):
        config(games=0)
    with pytest.raises(ConfigError, match="at least 1 worker, not 0"):
        ProcessPool(0)


def test_an_error_names_its_settings_which_the_face_spells_as_flags() -> None:
    """A library caller reads a setting's name; the command line, its flag (one routine does it)."""
    import pickle

    from shutbox_cli.face.settings import said
    from tournaments.errors import Setting

    with pytest.raises(ConfigError) as caught:
        config(workers=1, scheduler="local", rules={"drop_out": -1})
    error = pickle.loads(pickle.dumps(caught.value))  # as a worker process sends it
    assert str(error).startswith("drop_out must be ")
    assert said(error).startswith("--drop-out must be ")
    assert error.settings == (Setting("drop_out"),)
    refused = TournamentFailure(f"x (without {tournaments.errors.setting('method', 'exact')})")
    assert (str(refused), said(refused)) == ("x (without method='exact')", "x (without --exact)")


def test_the_default_backend_plays_here_for_one_worker_a_small_plan_or_a_busy_machine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("SHUTBOX_POOL", raising=False)
    small = make_plan(config())
    assert default_backend(1, small) == InProcess()
    assert default_backend(2, small) == InProcess()
    big = make_plan(config(games=200_000))
    assert default_backend(1, big) == InProcess()
    assert default_backend(2, big, idle=lambda: 2.0) == ProcessPool(2)
    # no core idle: a pool would only slow it; and it says so (the one-worker and small plans above do not)
    busy = default_backend(2, big, idle=lambda: 0.5)
    assert isinstance(busy, InProcess) and busy.busy is not None
    assert busy.busy.startswith("the machine looked busy (0.5 of its ") and "where 2 worker processes" in busy.busy
    # one core idle, this process's: a worker would take turns with it and with the load
    assert isinstance(default_backend(2, big, idle=lambda: 1.0), InProcess)
    assert isinstance(default_backend(2, big, idle=lambda: 1.9), InProcess)
    # A user's strategy runs in its host wherever the referee plays: the same rule holds.
    reader = str(DATA / "context_reader.py") + ":Reader"  # game by game: asked in its host at each step
    users = make_plan(config(strategies=("greedy-high", reader), games=10))
    assert default_backend(4, users, idle=lambda: 4.0) == InProcess()
    many = make_plan(config(strategies=("greedy-high", reader), games=100_000))
    assert estimated_seconds(many) > 2 * estimated_seconds(users)
    assert default_backend(2, many, idle=lambda: 2.0) == ProcessPool(2)
    assert isinstance(default_backend(2, many, idle=lambda: 0.5), InProcess)
    assert default_backend(1, many, idle=lambda: 2.0) == InProcess()


def test_shutbox_pool_always_takes_the_pool_for_more_than_one_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHUTBOX_POOL", "always")
    small = make_plan(config(games=10))
    assert default_backend(2, small, idle=lambda: 0.0) == ProcessPool(2)
    assert default_backend(1, small) == InProcess()
    monkeypatch.setenv("SHUTBOX_POOL", "auto")
    assert default_backend(2, small, idle=lambda: 2.0) == InProcess()


def test_shutbox_pool_busy_plays_here_as_a_busy_machine_would_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHUTBOX_POOL", "busy")
    big = make_plan(config(games=200_000))
    chosen = default_backend(2, big)
    assert isinstance(chosen, InProcess) and chosen.busy is not None and "1.0 of its " in chosen.busy
    assert default_backend(2, make_plan(config(games=10))) == InProcess()  # small: no pool whatever the load


def test_a_report_is_written_whole_or_not_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    summary = run(config(games=20), backend=InProcess())
    path = tmp_path / "report.toml"
    path.write_text("old = true\n")

    def interrupted(descriptor: int) -> None:
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(os, "fsync", interrupted)
        with pytest.raises(KeyboardInterrupt):
            write_report(path, summary)
    assert path.read_text() == "old = true\n" and os.listdir(tmp_path) == ["report.toml"]
    write_report(path, summary)
    assert tomllib.loads(path.read_text())["seed"] == 5 and os.listdir(tmp_path) == ["report.toml"]
    with pytest.raises(FileWriteError, match="there is no folder"):
        write_report(tmp_path / "missing" / "report.toml", summary)


def test_an_analysis_is_exact_or_a_seeded_simulation_and_is_written_the_same_way(tmp_path: Path) -> None:
    exact = tournaments.analyze(seat_strategy("greedy-high", Rules()), turns=500, seed=1)
    assert exact.method == "exact" and exact.turns is None and not exact.seed_drawn
    given = tournaments.analyze(seat_strategy("random", Rules()), turns=500, seed=1)
    assert given == simulate(seat_strategy("random", Rules()), 500, 1) and not given.seed_drawn
    drawn = tournaments.analyze(seat_strategy("random", Rules()), turns=50)
    assert drawn.seed_drawn and drawn.seed is not None and drawn.turns == 50
    assert DEFAULT_TURNS == 100_000
    write_report(tmp_path / "analysis.toml", given)
    assert (tmp_path / "analysis.toml").read_text() == tomli_w.dumps(given.to_report())
    with pytest.raises(ConfigError, match="at least 2 turns, not 1"):
        tournaments.analyze(seat_strategy("random", Rules()), turns=1)


def test_the_report_version_is_the_installed_distributions() -> None:
    assert shutbox_version() == shutbox_cli.__version__
    assert report_table(run(config(games=2), backend=InProcess()))["shutbox_version"] == shutbox_cli.__version__


def script(path: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": ""}
    return subprocess.run([sys.executable, str(path)], cwd=cwd, capture_output=True, text=True, timeout=120, env=env)


@pytest.mark.slow
def test_the_example_script_runs_a_tournament_and_writes_the_clis_report(tmp_path: Path) -> None:
    done = script(ROOT / "examples" / "tournament_from_python.py", tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 3 and lines[0].startswith("1. ") and "win rate" in lines[0]
    same = ["-s", "optimal", "-s", "tips", "-s", "greedy-high", "--games", "1000", "--seed", "7"]
    cli = subprocess.run(
        [sys.executable, "-m", "shutbox_cli", "tournament", *same, "-q", "--report", str(tmp_path / "cli.toml")],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert cli.returncode == 0, cli.stderr
    assert (tmp_path / "report.toml").read_bytes() == (tmp_path / "cli.toml").read_bytes()


@pytest.mark.slow
def test_a_strategy_class_of_the_script_being_run_plays_in_its_host_from_the_scripts_file(tmp_path: Path) -> None:
    mine = tmp_path / "mine.py"
    mine.write_text(
        "from strategies import Strategy\n"
        "from tournaments import Options, report_table, run\n\n\n"
        "class Mine(Strategy):\n"
        "    def choose_move(self, view):\n"
        "        return view.legal_moves[0]\n\n\n"
        'if __name__ == "__main__":\n'
        "    summary = run(None, Options(strategies=[Mine, 'optimal'], games=20, seed=1, workers=1))\n"
        "    print(report_table(summary)['config']['strategy'][0]['spec'])\n"
    )
    done = script(mine, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{mine}:Mine"


@pytest.mark.slow
def test_a_script_without_a_main_guard_is_told_why_its_workers_die(tmp_path: Path) -> None:
    # A process running another thread spawns its workers (a fork of it would be unsafe), and a
    # spawned worker imports the script. Units of 2,000 games, asked game by game: the worker is sent
    # the first two, so the run waits to hear it whatever this process plays meanwhile.
    (tmp_path / "mine.py").write_text(
        "from strategies import Strategy\n\n\nclass Mine(Strategy):\n    reads_context = True\n\n"
        "    def choose_move(self, view):\n        return view.legal_moves[0]\n"
    )
    unguarded = tmp_path / "unguarded.py"
    unguarded.write_text(
        "import threading\n"
        "from tournaments import Options, ProcessPool, load_config, run\n"
        "threading.Thread(target=threading.Event().wait, daemon=True).start()\n"
        "config = load_config(None, Options(strategies=['tips', 'mine.py:Mine'], games=6000, seed=1))\n"
        "run(config, backend=ProcessPool(2))\n"
    )
    done = script(unguarded, tmp_path)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("tournaments.errors.TournamentFailure: a worker process exited with status 1 while starting")
    assert 'lacks `if __name__ == "__main__":`' in last


class Careful(Strategy):
    """A user's strategy made in a notebook: its class travels as `module:Class`."""

    name = "careful"

    def __init__(self, margin: int = 0) -> None:
        self.margin = margin

    def choose_move(self, view: View) -> Move:
        return min(view.legal_moves, key=lambda move: (len(move), move))


class Hidden(Careful):
    """An instance that keeps its parameter under another name: it cannot be told as a spec."""

    def __init__(self, margin: int = 0) -> None:
        super().__init__()
        del self.margin
        self.kept = margin


@pytest.mark.slow
def test_run_takes_strategy_classes_and_instances_as_well_as_specs_and_loads_a_file(tmp_path: Path) -> None:
    given = run(None, Options(strategies=[Optimal, Careful(margin=2), "tips"], games=60, seed=5, workers=1))
    assert given.config.names == ("optimal", "careful(margin=2)", "tips")
    spec = f"{__name__}:Careful"
    said = run(None, Options(strategies=["optimal", f"{spec}(margin=2)", "tips"], games=60, seed=5, workers=1))
    assert report_table(given) == report_table(said)
    assert [entry.spec for entry in given.config.strategies] == ["optimal", f"{spec}(margin=2)", "tips"]
    config = tmp_path / "field.toml"
    config.write_text(
        'games = 60\nseed = 5\nworkers = 1\n[[strategy]]\nspec = "tips"\n[[strategy]]\nspec = "optimal"\n'
    )
    assert run(config).config.names == ("tips", "optimal")
    with pytest.raises(ConfigError, match="cannot be told as a spec"):
        run(None, Options(strategies=[Hidden(margin=3), "tips"], games=60, seed=5, workers=1))
    with pytest.raises(ConfigError, match="cannot change a resumed run"):
        run(config, resume_from=tmp_path / "run.checkpoint.toml")
