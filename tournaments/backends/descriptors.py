"""The open files a run needs in this process (file descriptors): a worker process costs it a
pipe and a sentinel, a local Dask cluster dozens of sockets. Before a backend starts its
processes, a soft limit below the need is raised (up to the hard limit), and a hard limit below
it refuses the run in one sentence; a run that runs out anyway says so in one sentence too,
rather than failing part way with another explanation (or a library's errors, thousands of them)."""

from __future__ import annotations

import contextlib
import errno
from collections.abc import Iterator

from ..errors import ConfigError

POOL_FILES = 16
POOL_FILES_PER_WORKER = 2
"""A pool's need: the files any run holds (the standard streams, the report, the checkpoint,
modules being read) and each worker's pipe and sentinel (measured: 2 workers need 14)."""
LOCAL_CLUSTER_FILES = 32
LOCAL_CLUSTER_FILES_PER_WORKER = 8
"""A local Dask cluster's need: its scheduler's and nannies' sockets in this process (measured:
2 workers need 40)."""
RAISE_TO = "ulimit -n 1024"


def pool_files(workers: int) -> int:
    return POOL_FILES + POOL_FILES_PER_WORKER * workers


def local_cluster_files(workers: int) -> int:
    return LOCAL_CLUSTER_FILES + LOCAL_CLUSTER_FILES_PER_WORKER * workers


def make_room(need: int, what: str, fewer: str = "") -> None:
    """Let this process open `need` files for `what`: raise its soft limit if that is below
    (up to the hard limit), or raise a ConfigError saying what to do (`fewer`: how to need less)."""
    try:
        import resource
    except ImportError:  # no such limits here
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= need:
        return
    if hard == resource.RLIM_INFINITY or hard >= need:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (need, hard))
            return
    raise ConfigError(
        f"{what} needs about {need} open files, but this process may open only {min(soft, hard)} (ulimit -n); "
        f"raise the limit ({RAISE_TO}){fewer}."
    )


def out_of_files(error: BaseException) -> bool:
    """Whether `error`, or an error it was raised from or while handling, is running out of open files."""
    return any(isinstance(link, OSError) and link.errno in (errno.EMFILE, errno.ENFILE) for link in chain(error))


def out_of_files_error(what: str) -> ConfigError:
    """The error of a run that ran out of open files while `what` (raising the limit helps)."""
    return ConfigError(f"ran out of open files while {what} (ulimit -n); raise the limit ({RAISE_TO}).")


def chain(error: BaseException | None) -> Iterator[BaseException]:
    """An error and the errors it was raised from or while handling, innermost last."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        yield error
        error = error.__cause__ or error.__context__
