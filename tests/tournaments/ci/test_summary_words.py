"""A report's Markdown page names the settings and the commands that repeat its run as the library
calls them, unless its caller writes them its own way: the face's, as the command line gives them
(the page `shutbox summary` prints, word for word)."""

from __future__ import annotations

from pathlib import Path

from shutbox_cli.face.settings import command_line, spell
from tournaments import Options, TuneSettings, parse_parameters, run, summarize_report, tune, write_report
from tournaments.tuning.kept import write_tune


def repeat(page: str) -> list[str]:
    """The lines of the page's block of commands."""
    return page.split("```sh\n", 1)[1].split("\n```", 1)[0].splitlines()


def test_a_tournaments_page_repeats_it_by_settings_to_the_library_and_by_command_line_to_the_face(
    tmp_path: Path,
) -> None:
    report = tmp_path / "report.toml"
    options = Options(strategies=["greedy-high", "tips"], games=4, seed=3, duplicate=False, rules={"tiles": 6})
    write_report(report, run(None, options))
    library = summarize_report(report).text
    assert "Rules: the standard game with `tiles=6`." in library
    assert repeat(library) == [
        "tournament(strategies=('greedy-high', 'tips'), games=4, seed=3, duplicate=False, tiles=6)",
        f"tournament({str(report)!r})    # the report is its own tournament file",
    ]
    face = summarize_report(report, spell=spell, write=command_line).text
    assert "Rules: the standard game with `--tiles 6`." in face
    assert repeat(face) == [
        "shutbox tournament -s greedy-high -s tips -n 4 --seed 3 --no-duplicate --tiles 6",
        f"shutbox tournament {report}    # the report is its own tournament file",
    ]
    assert face.replace("--tiles 6", "tiles=6").split("### Repeat")[0] == library.split("### Repeat")[0]


def test_a_tunes_page_repeats_it_by_settings_to_the_library_and_by_command_line_to_the_face(tmp_path: Path) -> None:
    report = tmp_path / "tune.toml"
    settings = TuneSettings("below", parse_parameters(["threshold=2..3"]), field=("tips",), rules={"tiles": 4})
    write_tune(report, tune(settings), None)
    library = summarize_report(report).text
    assert repeat(library) == [
        "tune('below', parameters=('threshold=2..3',), field=('tips',), tiles=4)",
    ]
    face = summarize_report(report, spell=spell, write=command_line).text
    assert repeat(face) == ["shutbox tune below -p threshold=2..3 -s tips --tiles 4"]
