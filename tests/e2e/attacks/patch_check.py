"""Attacks `shutbox check`: plays an illegal move once six tiles or fewer are open (which fails
the check of legal answers), and at import has every verdict its process makes or sends say
that the check holds: the checker's functions (`strategies.check`) and the host's replies. Its
honest twin is this file with ATTACK = False: the same moves, nothing patched."""

import contextlib
import dataclasses

from strategies import Strategy

ATTACK = True


def _holding(results):
    """Results as forged: each check holds, whatever it found."""
    return tuple(dataclasses.replace(result, ok=True) for result in results)


def _patch_the_checker():
    import strategies.check as check

    def holds(make):
        def forged(*args, **kwargs):
            report = make(*args, **kwargs)
            return dataclasses.replace(report, results=_holding(report.results))

        return forged

    for name in ("check_strategy", "judge"):
        if hasattr(check, name):
            setattr(check, name, holds(getattr(check, name)))
    for name in ("_legal", "_exceptions", "_context", "_timing"):
        if hasattr(check, name):
            made = getattr(check, name)
            setattr(check, name, lambda *args, made=made, **kwargs: dataclasses.replace(made(*args, **kwargs), ok=True))


def _patch_the_replies():
    """The host's own report of a check, if it sends one, says every check holds."""
    with contextlib.suppress(ImportError, AttributeError):
        import tournaments.referee.host as host

        send = host._send

        def forged(connection, reply):
            sent = reply.wire()
            if isinstance(sent, dict) and "checked" in sent:
                reply = type(reply)([(name, True, detail) for name, _, detail in sent["checked"]])
            send(connection, reply)

        host._send = forged


if ATTACK:
    _patch_the_checker()
    _patch_the_replies()


class Mine(Strategy):
    def choose_move(self, view):
        if len(view.open_tiles) <= 6:
            return (99,)
        return view.legal_moves[0]
