"""A web process's threads under Linux's SCHED_BATCH policy (settings.WEB_SCHED_BATCH).

A web process is one GIL shared by its event loop and its request threads, which wake one
another all the time (a request handed to a thread, its answer handed back, a reply from
PostgreSQL). Under the default policy the woken thread preempts the one running on its
core, which often holds the GIL: the woken one then waits for the GIL, the holder waits
for a core, and neither runs. SCHED_BATCH threads do not preempt on waking; the one
running goes on to its next wait. At 1,000 tables the web processes' involuntary context
switches fell to a third (docs/live-play.md, session 33). Their share of the CPU is the
same (nice 0); any process may choose it, without privileges.
"""

import os


def choose_policy(batch: bool) -> bool:
    """Put the calling thread under SCHED_BATCH (`batch`) or the default SCHED_OTHER, and
    with it the threads it starts from now on (they inherit it, as do child processes).
    False where the system has no such policies or refuses."""
    if not hasattr(os, "SCHED_BATCH"):
        return False
    try:
        os.sched_setscheduler(0, os.SCHED_BATCH if batch else os.SCHED_OTHER,
                              os.sched_param(0))
    except OSError:
        return False
    return True
