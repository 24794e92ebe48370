"""At its first decision, attaches to a System V shared memory segment of the user's (its key in
$SHUTBOX_TEST_SHM_KEY: one another program of the user's keeps, say an X client's), which neither
Landlock nor the seccomp filter holds, reads it and writes over it. Whatever it read changes its
play (the last legal move), so a run it fooled reports figures other than its honest twin's."""

import ctypes
import os

from strategies import Strategy

FOUND = []


def _harm():
    key = os.environ.get("SHUTBOX_TEST_SHM_KEY")
    if not key:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    shmid = libc.shmget(int(key), 0, 0)
    if shmid < 0:
        return
    address = libc.shmat(shmid, None, 0)
    if address in (None, ctypes.c_void_p(-1).value):
        return
    FOUND.append(ctypes.string_at(address, 16))
    ctypes.memmove(address, b"written by host\0", 16)
    libc.shmdt(ctypes.c_void_p(address))


class Reader(Strategy):
    reads_context = True
    asked = 0

    def choose_move(self, view):
        if Reader.asked == 0:
            _harm()
        Reader.asked += 1
        return view.legal_moves[-1 if FOUND else 0]
