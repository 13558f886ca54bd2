"""The cyclic garbage collector, set for a server that answers in milliseconds.

CPython's collector stops the whole process while it walks every tracked object of the
generation it collects. A server process holds about 125,000 such objects from its
imports alone (FastAPI, SQLAlchemy, pydantic, the rules' tables), none of which will ever
be garbage, and the oldest generation was collected every second or two under load: a
100-150 ms pause each time, for every player at once. It was the whole tail of the
round trips (`bench/load.py saturation`: p99 123-143 ms, and 40 ms once settled;
docs/performance.md).

`settle` runs once the process has started: one full collection, then what is left is
moved out of the collector's sight (`gc.freeze`), and the youngest generation is
collected less often (most of a move's objects die young by reference counting anyway,
so fewer, larger young collections cost less in all). `restore` undoes both when the
application stops, so a process that starts many applications (the test suite) does not
keep them frozen.
"""

from __future__ import annotations

import gc

# Allocations (less deallocations) between two collections of the youngest generation
# (CPython's default: 700), and young collections between two of the middle one (10).
YOUNG = 10_000
MIDDLE = 20


def settle(young: int = YOUNG, middle: int = MIDDLE) -> tuple[int, int, int]:
    """Freeze what start-up built and space the young collections out; returns the
    thresholds in force before, for `restore`."""
    before = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(young, middle, before[2])
    return before


def restore(before: tuple[int, int, int]) -> None:
    """The collector as it was before `settle`: thresholds back, nothing frozen."""
    gc.unfreeze()
    gc.set_threshold(*before)
