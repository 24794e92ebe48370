"""Linux's Landlock, called through ctypes (three system calls; no library needed): which rules
the kernel offers (its ABI), and a process confined to read only some folders, write only one,
open no TCP connection and signal no process outside its own domain.

Each right exists from an ABI on: a kernel of a lower one enforces the rules it knows, and the
rights it lacks are left out (`missing` says which)."""

from __future__ import annotations

import ctypes
import os
import platform
import stat
from collections.abc import Iterable

CREATE_RULESET, ADD_RULE, RESTRICT_SELF = 444, 445, 446
"""The system calls' numbers (the same on x86_64 and aarch64)."""
MACHINES = ("x86_64", "aarch64", "arm64")
_VERSION = 1
_PATH_BENEATH = 1

EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
REMOVE_DIR, REMOVE_FILE, MAKE_CHAR, MAKE_DIR = 1 << 4, 1 << 5, 1 << 6, 1 << 7
MAKE_REG, MAKE_SOCK, MAKE_FIFO, MAKE_BLOCK, MAKE_SYM = 1 << 8, 1 << 9, 1 << 10, 1 << 11, 1 << 12
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
BIND_TCP, CONNECT_TCP = 1 << 0, 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1

FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV
"""The rights a rule on a file (not a folder) may grant."""
READ = EXECUTE | READ_FILE | READ_DIR
"""What a folder the strategy may import from allows."""
FS_BY_ABI = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 5: (1 << 16) - 1}
"""The file rights each ABI knows (from the ABI named on, until the next one named)."""
NETWORK_ABI, IOCTL_ABI, SCOPE_ABI = 4, 5, 6


class LandlockError(OSError):
    """A rule the kernel refused (the process is then left as it was, or, once restricted, is)."""


def _syscall() -> ctypes._CFuncPtr | None:  # type: ignore[name-defined]
    if platform.system() != "Linux" or platform.machine() not in MACHINES:
        return None
    try:
        function = ctypes.CDLL(None, use_errno=True).syscall
    except (OSError, AttributeError):
        return None
    function.restype = ctypes.c_long
    return function


def abi() -> int:
    """The Landlock ABI this kernel offers (0: none, or not Linux on x86_64 or aarch64)."""
    syscall = _syscall()
    if syscall is None:
        return 0
    found = syscall(CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_VERSION))
    return max(0, int(found))


def fs_rights(version: int) -> int:
    """The file rights an ABI knows."""
    return FS_BY_ABI[max(known for known in FS_BY_ABI if known <= version)]


def missing(version: int) -> list[str]:
    """What a kernel of this ABI cannot enforce of the rules a host is given, in a few words each."""
    lacks = []
    if version < NETWORK_ABI:
        lacks.append("no network rules")
    if version < SCOPE_ABI:
        lacks.append("no signal or abstract socket scoping")
    if version < 3:
        lacks.append("no truncation rule")
    return lacks


class _Ruleset(ctypes.Structure):
    _fields_ = (("fs", ctypes.c_uint64), ("net", ctypes.c_uint64), ("scoped", ctypes.c_uint64))


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = (("allowed", ctypes.c_uint64), ("parent", ctypes.c_int32))


def restrict(
    version: int,
    reads: Iterable[str],
    writes: Iterable[str],
    devices: Iterable[str],
    visible: Iterable[str] = (),
    listed: Iterable[str] = (),
) -> None:
    """Confine this thread (and all it starts) by the rules of Landlock ABI `version` (at most the
    kernel's): read and execute only beneath `reads`, read and write anything beneath `writes`,
    read and write the files `devices`, only read beneath `visible`, only list the folders beneath
    `listed` (their names, not their files); no TCP bind or connect; no
    signal or abstract Unix socket outside its domain. A path that does not exist is skipped.
    The caller has set no_new_privs. Raises LandlockError if the kernel refuses."""
    syscall = _syscall()
    if syscall is None or version < 1:
        raise LandlockError(0, "Landlock is not available")
    handled = fs_rights(version)
    ruleset = _Ruleset(handled, BIND_TCP | CONNECT_TCP if version >= NETWORK_ABI else 0, 0)
    if version >= SCOPE_ABI:
        ruleset.scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL
    size = 8 if version < NETWORK_ABI else 16 if version < SCOPE_ABI else 24
    fd = int(syscall(CREATE_RULESET, ctypes.byref(ruleset), ctypes.c_size_t(size), ctypes.c_uint32(0)))
    if fd < 0:
        raise LandlockError(ctypes.get_errno(), "landlock_create_ruleset")
    try:
        rules = (
            (reads, READ),
            (writes, handled & ~(MAKE_CHAR | MAKE_BLOCK)),
            (devices, READ_FILE | WRITE_FILE),
            (visible, READ_FILE | READ_DIR),
            (listed, READ_DIR),
        )
        for paths, rights in rules:
            for path in paths:
                _allow(syscall, fd, path, rights & handled)
        if syscall(RESTRICT_SELF, ctypes.c_int(fd), ctypes.c_uint32(0)) != 0:
            raise LandlockError(ctypes.get_errno(), "landlock_restrict_self")
    finally:
        os.close(fd)


def _allow(syscall: ctypes._CFuncPtr, ruleset: int, path: str, rights: int) -> None:  # type: ignore[name-defined]
    """Add a rule granting `rights` beneath `path` (a file's rule keeps only a file's rights)."""
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return
    try:
        if not stat.S_ISDIR(os.fstat(fd).st_mode):
            rights &= FILE_RIGHTS
        rule = _PathBeneath(rights, fd)
        if syscall(ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(_PATH_BENEATH), ctypes.byref(rule), 0) != 0:
            raise LandlockError(ctypes.get_errno(), f"landlock_add_rule {path}")
    finally:
        os.close(fd)
