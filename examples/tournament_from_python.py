"""A tournament from Python: the one library call behind `shutbox tournament`."""

from tournaments import Options, load_config, run, write_report

if __name__ == "__main__":  # spawned worker processes import this script: play in the main process only
    config = load_config(None, Options(strategies=["optimal", "tips", "greedy-high"], games=1000, seed=7))
    summary = run(config)  # a pool of one worker per core; run(config, backend=InProcess()) stays here
    for rank, standing in enumerate(summary.ranking, 1):
        print(f"{rank}. {standing.name}: win rate {standing.win_rate:.1%}")
    write_report("report.toml", summary)
