"""Python's garbage collector set for a long-lived web process.

Measured under load (docs/history/live-play.md): with Python's defaults a daphne process
spent about a tenth of its CPU in the collector, and more as it ran: every few seconds a
full collection walked all of Django, the loaded modules and the cached game states, a
pause of ~0.1 s that every table waiting on that process felt. Frozen, the objects made
at start-up (most of the heap, and never garbage) are left out of every collection; a
larger first generation lets a request's short-lived objects die before they are
collected, so few reach the old generations.
"""

import gc


def tune(gen0_threshold: int) -> None:
    """Freeze what exists now and collect the youngest generation every
    `gen0_threshold` allocations (0: leave Python's defaults)."""
    if gen0_threshold <= 0:
        return
    gc.collect()  # what start-up left as garbage is not frozen for ever
    gc.freeze()
    gc.set_threshold(gen0_threshold, *gc.get_threshold()[1:])
