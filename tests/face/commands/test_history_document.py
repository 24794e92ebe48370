"""A history document (`shutbox history -o FILE`) given where a tournament's file or a report of
results goes: refused in one sentence naming it, exit status 2."""

from __future__ import annotations

from pathlib import Path

from helpers.command import shutbox


def a_history_document(tmp_path: Path) -> Path:
    written = tmp_path / "h.json"
    done = shutbox("history", "--history", str(tmp_path / "history.sqlite3"), "-o", str(written))
    assert done.returncode == 0, done.stderr
    return written


def test_a_history_document_is_not_a_tournament_file(tmp_path: Path) -> None:
    written = a_history_document(tmp_path)
    done = shutbox("tournament", str(written))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"shutbox: error: {written} is a history document, not a tournament report or file.\n"


def test_the_summary_of_a_history_document_names_every_kind_it_reads(tmp_path: Path) -> None:
    written = a_history_document(tmp_path)
    done = shutbox("summary", str(written))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        f"shutbox: error: '{written}' is not a report of results: its kind is 'history', "
        "not tournament, analysis, duel, tune or knockout.\n"
    )
