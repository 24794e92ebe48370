"""What Landlock leaves, through prctl and a small seccomp filter (ctypes; no library needed):
no new privileges, no capabilities (root's powers would bypass the rest), no process that can be
attached to (a referee's), and system calls a strategy has no use for refused with EPERM (the
strategy sees an error; nothing is killed): tracing, reading other processes' memory, kernel
facilities (bpf, perf, keys, io_uring, userfaultfd), mounts and namespaces, System V and POSIX
message IPC, every socket() (a host talks over the socket pair it was given: no UDP, raw, netlink
or named Unix socket) and socketpair() but a stream one, another process's limits (prlimit64),
and typing into a terminal (TIOCSTI)."""

from __future__ import annotations

import contextlib
import ctypes
import errno
import platform
import struct

PR_SET_DUMPABLE = 4
PR_CAPBSET_DROP = 24
PR_SET_SECCOMP = 22
PR_GET_SECCOMP = 21
PR_SET_NO_NEW_PRIVS = 38
PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
SECCOMP_MODE_FILTER = 2
SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC = 1, 1
_CAPSET_VERSION_3 = 0x20080522
_LAST_CAP = 63
"""No kernel has as many capabilities: dropping one it does not know fails, and is ignored."""

CLONE_NAMESPACES = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000
"""clone()'s flags that make a new namespace (mount, cgroup, UTS, IPC, user, PID, network)."""
REFUSED = (
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "kcmp",
    "perf_event_open",
    "bpf",
    "userfaultfd",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "unshare",
    "setns",
    "keyctl",
    "add_key",
    "request_key",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "open_tree",
    "move_mount",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "mount_setattr",
    "pidfd_getfd",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "swapon",
    "swapoff",
    "reboot",
    "acct",
    "quotactl",
    "name_to_handle_at",
    "open_by_handle_at",
    "lookup_dcookie",
    "socket",
    "shmget",
    "shmat",
    "shmctl",
    "msgget",
    "msgsnd",
    "msgrcv",
    "msgctl",
    "semget",
    "semop",
    "semtimedop",
    "semctl",
    "mq_open",
    "mq_unlink",
    "mq_timedsend",
    "mq_timedreceive",
    "mq_notify",
    "mq_getsetattr",
)
"""The system calls refused with EPERM (System V and POSIX message IPC among them: another process's
shared memory, queues and semaphores are the user's, not the host's)."""
TIOCSTI, TIOCLINUX = 0x5412, 0x541C
"""The terminal requests that type into a terminal (as if the user had): refused on any descriptor."""
SOCK_STREAM, SOCK_TYPE_MASK = 1, 0xF
"""socketpair() is allowed for stream sockets only: a datagram one can send to a named socket."""


def _numbers(text: str) -> dict[str, int]:
    """A system call table written as `name:number` words."""
    return {name: int(number) for name, _, number in (word.partition(":") for word in text.split())}


class Arch:
    """A machine's seccomp audit arch and its system call numbers."""

    def __init__(self, audit: int, numbers: dict[str, int], first_foreign: int | None = None) -> None:
        self.audit = audit
        self.numbers = numbers
        self.first_foreign = first_foreign
        """On x86_64, numbers from here on are x32's: refused whole."""


X86_64 = Arch(
    0xC000003E,
    _numbers(
        "ptrace:101 process_vm_readv:310 process_vm_writev:311 kcmp:312 perf_event_open:298 "
        "bpf:321 userfaultfd:323 mount:165 umount2:166 pivot_root:155 chroot:161 unshare:272 "
        "setns:308 keyctl:250 add_key:248 request_key:249 io_uring_setup:425 io_uring_enter:426 "
        "io_uring_register:427 open_tree:428 move_mount:429 fsopen:430 fsconfig:431 fsmount:432 "
        "fspick:433 mount_setattr:442 pidfd_getfd:438 kexec_load:246 kexec_file_load:320 "
        "init_module:175 finit_module:313 delete_module:176 swapon:167 swapoff:168 reboot:169 "
        "acct:163 quotactl:179 name_to_handle_at:303 open_by_handle_at:304 lookup_dcookie:212 "
        "socket:41 clone:56 clone3:435 shmget:29 shmat:30 shmctl:31 msgget:68 msgsnd:69 msgrcv:70 "
        "msgctl:71 semget:64 semop:65 semtimedop:220 semctl:66 mq_open:240 mq_unlink:241 "
        "mq_timedsend:242 mq_timedreceive:243 mq_notify:244 mq_getsetattr:245 prlimit64:302 ioctl:16 "
        "socketpair:53"
    ),
    0x40000000,
)
AARCH64 = Arch(
    0xC00000B7,
    _numbers(
        "ptrace:117 process_vm_readv:270 process_vm_writev:271 kcmp:272 perf_event_open:241 "
        "bpf:280 userfaultfd:282 mount:40 umount2:39 pivot_root:41 chroot:51 unshare:97 "
        "setns:268 keyctl:219 add_key:217 request_key:218 io_uring_setup:425 io_uring_enter:426 "
        "io_uring_register:427 open_tree:428 move_mount:429 fsopen:430 fsconfig:431 fsmount:432 "
        "fspick:433 mount_setattr:442 pidfd_getfd:438 kexec_load:104 kexec_file_load:294 "
        "init_module:105 finit_module:273 delete_module:106 swapon:224 swapoff:225 reboot:142 "
        "acct:89 quotactl:60 name_to_handle_at:264 open_by_handle_at:265 lookup_dcookie:18 "
        "socket:198 clone:220 clone3:435 shmget:194 shmat:196 shmctl:195 msgget:186 msgsnd:189 "
        "msgrcv:188 msgctl:187 semget:190 semop:193 semtimedop:192 semctl:191 mq_open:180 "
        "mq_unlink:181 mq_timedsend:182 mq_timedreceive:183 mq_notify:184 mq_getsetattr:185 "
        "prlimit64:261 ioctl:29 socketpair:199"
    ),
)
ARCHES = {"x86_64": X86_64, "aarch64": AARCH64, "arm64": AARCH64}

_LD_W_ABS, _JEQ, _JGE, _JSET, _RET, _AND = 0x20, 0x15, 0x35, 0x45, 0x06, 0x54
_RET_ALLOW = 0x7FFF0000
_RET_ERRNO = 0x00050000
_NR, _ARCH, _ARG0, _ARG1 = 0, 4, 16, 24
"""Offsets in `struct seccomp_data` (the low half of the first argument, little-endian)."""


def arch() -> Arch | None:
    """This machine's, if the filter knows it (Linux on x86_64 or aarch64)."""
    return ARCHES.get(platform.machine()) if platform.system() == "Linux" else None


def _prctl(option: int, *values: int | ctypes.c_void_p) -> int:
    libc = ctypes.CDLL(None, use_errno=True)
    padded = [*values, *([0] * (4 - len(values)))]
    return int(libc.prctl(option, *padded))


def available() -> bool:
    """Whether this kernel filters system calls (seccomp filters) on a machine the filter knows: none
    on this process yet, or filters (a container's) that another joins."""
    return arch() is not None and _prctl(PR_GET_SECCOMP) in (0, SECCOMP_MODE_FILTER)


def undumpable() -> None:
    """No process of the same user may attach to this one or read its memory (nor, without
    CAP_SYS_PTRACE, its /proc files): for the referee and a supervisor. Nothing elsewhere."""
    if platform.system() == "Linux":
        with contextlib.suppress(OSError, AttributeError):
            _prctl(PR_SET_DUMPABLE, 0)


def no_new_privs() -> None:
    """This process and all it starts can never gain privileges (set-uid files, file capabilities)."""
    if _prctl(PR_SET_NO_NEW_PRIVS, 1) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")


def drop_capabilities() -> None:
    """Give up every capability: the bounding set (so no program run later regains one, root's
    included), the ambient ones, then the effective, permitted and inheritable ones."""
    libc = ctypes.CDLL(None, use_errno=True)
    for number in range(_LAST_CAP + 1):
        if _prctl(PR_CAPBSET_DROP, number) != 0 and ctypes.get_errno() == errno.EINVAL:
            break
    _prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)
    header = struct.pack("=Ii", _CAPSET_VERSION_3, 0)
    data = bytes(24)  # two of {effective, permitted, inheritable}: all zero
    if libc.capset(header, data) != 0:
        raise OSError(ctypes.get_errno(), "capset")
    if _capabilities_left():
        raise OSError(errno.EPERM, "capabilities remain after capset")


def _capabilities_left() -> bool:
    libc = ctypes.CDLL(None, use_errno=True)
    header = struct.pack("=Ii", _CAPSET_VERSION_3, 0)
    data = ctypes.create_string_buffer(24)
    if libc.capget(header, data) != 0:
        return True
    return any(data.raw)


def program(machine: Arch) -> bytes:
    """The filter: the audit arch checked (another one's calls are all refused), then each refused
    call; clone() making a namespace refused too, and clone3() said not to exist (its flags are in
    memory a filter cannot read: the C library falls back to clone())."""
    refused = sorted(machine.numbers[name] for name in REFUSED)
    deny, enosys, allow = _RET_ERRNO | errno.EPERM, _RET_ERRNO | errno.ENOSYS, _RET_ALLOW
    body: list[tuple[int, int, int, int]] = [(_LD_W_ABS, 0, 0, _NR)]
    if machine.first_foreign is not None:
        body.append((_JGE, 0, 1, machine.first_foreign))
        body.append((_RET, 0, 0, deny))
    for number in refused:
        body.append((_JEQ, 0, 1, number))
        body.append((_RET, 0, 0, deny))
    body += _argument_rules(machine, deny, allow)
    body.append((_JEQ, 0, 1, machine.numbers["clone3"]))
    body.append((_RET, 0, 0, enosys))
    body.append((_JEQ, 0, 3, machine.numbers["clone"]))
    body.append((_LD_W_ABS, 0, 0, _ARG0))
    body.append((_JSET, 0, 1, CLONE_NAMESPACES))
    body.append((_RET, 0, 0, deny))
    body.append((_RET, 0, 0, allow))
    head = [(_LD_W_ABS, 0, 0, _ARCH), (_JEQ, 1, 0, machine.audit), (_RET, 0, 0, deny)]
    return b"".join(struct.pack("=HBBI", *instruction) for instruction in head + body)


def _argument_rules(machine: Arch, deny: int, allow: int) -> list[tuple[int, int, int, int]]:
    """The calls refused by their arguments, each a block that ends in its verdict: prlimit64() on
    any process but this one (another's limits lowered until the kernel kills it, or its
    supervisor blinded), ioctl() typing into a terminal, socketpair() of a kind but stream."""
    numbers = machine.numbers
    return [
        (_JEQ, 0, 4, numbers["prlimit64"]),
        (_LD_W_ABS, 0, 0, _ARG0),
        (_JEQ, 1, 0, 0),
        (_RET, 0, 0, deny),
        (_RET, 0, 0, allow),
        (_JEQ, 0, 5, numbers["ioctl"]),
        (_LD_W_ABS, 0, 0, _ARG1),
        (_JEQ, 2, 0, TIOCSTI),
        (_JEQ, 1, 0, TIOCLINUX),
        (_RET, 0, 0, allow),
        (_RET, 0, 0, deny),
        (_JEQ, 0, 5, numbers["socketpair"]),
        (_LD_W_ABS, 0, 0, _ARG1),
        (_AND, 0, 0, SOCK_TYPE_MASK),
        (_JEQ, 1, 0, SOCK_STREAM),
        (_RET, 0, 0, deny),
        (_RET, 0, 0, allow),
    ]


def install_filter() -> None:
    """Filter this process's system calls (every thread's) from now on; no_new_privs is set."""
    machine = arch()
    if machine is None:
        raise OSError(errno.ENOSYS, "no seccomp filter for this machine")
    code = program(machine)
    buffer = ctypes.create_string_buffer(code, len(code))

    class _Program(ctypes.Structure):
        _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.c_void_p))

    fprog = _Program(len(code) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    number = {X86_64.audit: 317, AARCH64.audit: 277}[machine.audit]  # seccomp()
    found = libc.syscall(number, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, ctypes.byref(fprog))
    if found != 0:
        raise OSError(ctypes.get_errno(), "seccomp(SECCOMP_SET_MODE_FILTER)")
