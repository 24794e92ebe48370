"""Each rule of a host's confinement (tournaments/referee/confinement.py), in a real child process
confined as a host confines itself: it then tries one thing and says how that went ("done", or the
error's name). The test process is the child's parent, the one it must not reach."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tournaments.referee.confinement import ABI_SETTING, WRITABLE_SETTING, editable_folders, state

from helpers.command import environment
from helpers.confined import LINUX_ONLY, STRATEGY, run_confined

pytestmark = LINUX_ONLY


@pytest.fixture
def folders(tmp_path: Path) -> dict[str, Path]:
    """A strategy's folder, a scratch folder and a home holding a secret."""
    found = {name: tmp_path / name for name in ("strategy", "scratch", "home")}
    for folder in found.values():
        folder.mkdir()
    (found["strategy"] / "mine.py").write_text(STRATEGY)
    (found["home"] / "secret").write_text("the key")
    return found


def confined(folders: dict[str, Path], code: str, **env: str) -> str:
    """What a child confined as a host of `mine.py:Mine` says of running `code`."""
    spec = f"{folders['strategy'] / 'mine.py'}:Mine"
    done = run_confined(spec, folders["scratch"], code, {**environment(**env), WRITABLE_SETTING: ""}, folders["home"])
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_host_cannot_read_outside_what_it_imports(folders: dict[str, Path]) -> None:
    assert confined(folders, f"open({str(folders['home'] / 'secret')!r}).read()") == "PermissionError"


def test_a_host_writes_in_its_scratch_folder_only(folders: dict[str, Path]) -> None:
    assert confined(folders, f"open({str(folders['home'] / 'planted')!r}, 'w')") == "PermissionError"
    assert not (folders["home"] / "planted").exists()
    assert confined(folders, f"open({str(folders['scratch'] / 'kept')!r}, 'w').write('x')") == "done"
    assert (folders["scratch"] / "kept").read_text() == "x"


def test_a_host_imports_numpy_and_its_strategy_and_its_temporary_files_go_to_scratch(
    folders: dict[str, Path],
) -> None:
    code = (
        "import numpy, tempfile; numpy.linalg.inv(numpy.eye(2)); "
        "from strategies.loading import load_strategy; "
        f"load_strategy({str(folders['strategy'] / 'mine.py')!r} + ':Mine'); tempfile.mkstemp()"
    )
    assert confined(folders, code) == "done"
    assert len(list(folders["scratch"].iterdir())) == 1


@pytest.mark.parametrize("how", ["connect", "bind"])
def test_a_host_opens_no_tcp_connection_nor_port(folders: dict[str, Path], how: str) -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = listener.getsockname()[1]
        address = ("127.0.0.1", port if how == "connect" else 0)
        assert confined(folders, f"import socket; socket.socket().{how}({address!r})") == "PermissionError"
        listener.setblocking(False)
        with pytest.raises(BlockingIOError):  # nothing came: the child has ended, a connection would wait here
            listener.accept()


def test_a_host_creates_no_udp_socket(folders: dict[str, Path]) -> None:
    code = "import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM)"
    assert confined(folders, code) == "PermissionError"


def test_a_host_cannot_signal_trace_or_read_its_parent(folders: dict[str, Path]) -> None:
    assert confined(folders, "os.kill(os.getppid(), 0)") == "PermissionError"
    trace = (
        "import ctypes; libc = ctypes.CDLL(None, use_errno=True); "
        "assert libc.ptrace(16, os.getppid(), 0, 0) == -1; raise OSError(ctypes.get_errno(), 'ptrace')"
    )
    assert confined(folders, trace) == "PermissionError"
    assert confined(folders, "open(f'/proc/{os.getppid()}/environ').read()") == "PermissionError"


def test_a_host_keeps_no_capability(folders: dict[str, Path]) -> None:
    code = "import ctypes; libc = ctypes.CDLL(None, use_errno=True); assert libc.prctl(23, 21) == 0"  # CAP_SYS_ADMIN
    assert confined(folders, code) == "done"  # it is not in the bounding set
    code = "os.chown(" + repr(str(folders["scratch"])) + ", 12345, 12345)"  # CAP_CHOWN
    assert confined(folders, code) == "PermissionError"


def test_the_state_says_what_a_kernel_with_less_landlock_lacks(monkeypatch: pytest.MonkeyPatch) -> None:
    assert str(state()) == "full"
    monkeypatch.setenv(ABI_SETTING, "3")
    assert str(state()) == "partial (Landlock ABI 3: no network rules, no signal or abstract socket scoping)"
    monkeypatch.setenv(ABI_SETTING, "0")
    assert str(state()) == "none (no Landlock on this kernel)"


def test_a_host_without_landlock_still_keeps_no_capability_and_makes_no_socket(folders: dict[str, Path]) -> None:
    """SHUTBOX_LANDLOCK_ABI=0: the rest of the confinement still holds (the secret, though, is read)."""
    assert confined(folders, f"open({str(folders['home'] / 'secret')!r}).read()", **{ABI_SETTING: "0"}) == "done"
    assert confined(folders, "import socket; socket.socket()", **{ABI_SETTING: "0"}) == "PermissionError"


@pytest.mark.slow  # five confined processes
def test_a_strategy_in_the_home_folder_reads_its_modules_but_not_the_home_or_the_keys(tmp_path: Path) -> None:
    """A folder that holds a private one (the home, and in it shutbox's keys) is narrowed to what
    Python imports from it: the strategy's modules and packages, nothing else (it may list its
    names, as Python does to import from it)."""
    home, scratch = tmp_path / "home", tmp_path / "scratch"
    keys = home / ".local" / "state" / "shutbox" / "keys"
    keys.mkdir(parents=True)
    scratch.mkdir()
    (keys / "checkpoint.key").write_text("the key")
    (home / "notes.txt").write_text("private")
    (home / "mine.py").write_text("from helpers_of_mine import MOVE\n" + STRATEGY)
    (home / "helpers_of_mine").mkdir()
    (home / "helpers_of_mine" / "__init__.py").write_text("MOVE = 1\n")
    env = {
        **environment(HOME=str(home), XDG_STATE_HOME=str(home / ".local" / "state")),
        WRITABLE_SETTING: "",
        "PYTHONPATH": str(home),
    }
    tries = {
        "import mine, helpers_of_mine": "done",
        f"open({str(home / 'notes.txt')!r}).read()": "PermissionError",
        f"open({str(keys / 'checkpoint.key')!r}).read()": "PermissionError",
        f"os.listdir({str(home)!r})": "done",  # names only: Python lists a folder to import from it
        f"open({str(home / '.local' / 'state' / 'shutbox' / 'keys' / 'checkpoint.key')!r}, 'a')": "PermissionError",
    }
    for code, said in tries.items():
        done = run_confined(f"{home / 'mine.py'}:Mine", scratch, code, env, scratch)
        assert (done.returncode, done.stdout.strip()) == (0, said), (code, done.stderr)


def test_an_editable_installs_folder_is_read_from_its_finder_never_run(tmp_path: Path) -> None:
    source = tmp_path / "src" / "bots"
    source.mkdir(parents=True)
    site = tmp_path / "site"
    site.mkdir()
    (site / "__editable___bots_0_1_finder.py").write_text(
        f"raise SystemExit('run')\nMAPPING: dict[str, str] = {{'bots': {str(source)!r}}}\n"
    )
    assert editable_folders("bots", [str(site)]) == [str(source.resolve())]
    assert editable_folders("other", [str(site)]) == []
