"""Fault injection for crash tests: kill the process at a named step of a commit.

``EGMEM_FAULT=STEP:N`` (read by ``bot.settings``) makes the process SIGKILL itself the N-th
time it reaches STEP, after writing ``egmem fault: killed at STEP #N`` to stderr, so a test
knows the kill landed there — inside a commit, between two of its writes — and not merely
somewhere in a run. Steps (the first five in commit order):

* ``proposed``: a batch is proposed and verified, nothing of it written;
* ``nodes_written``: its nodes are in LanceDB, the registry and watermark are not;
* ``registry_flushed``: states written, the watermark not moved;
* ``committed``: the commit is whole, the inbox does not know it yet;
* ``rederived``: an edit or forget has re-derived its states, dependants not recomposed;
* ``rows_written``: a node write (a commit's, an edit's, a repair's) is in LanceDB, its
  lexical index documents are not.

Unset, every :meth:`FaultPoints.reach` is a no-op.
"""

from __future__ import annotations

import os
import signal
import sys
from collections import Counter

from memory.errors import ConfigError

STEPS = ("proposed", "nodes_written", "registry_flushed", "committed", "rederived",
         "rows_written")


class FaultPoints:
    """Where this process dies, if anywhere: ``FaultPoints.parse("nodes_written:3")``."""

    def __init__(self, step: str | None = None, count: int = 0) -> None:
        if step is not None and step not in STEPS:
            raise ConfigError(f"EGMEM_FAULT names an unknown step {step!r}; steps: "
                              f"{', '.join(STEPS)}")
        self.step = step
        self.count = count
        self._reached: Counter[str] = Counter()

    @classmethod
    def parse(cls, spec: str | None) -> FaultPoints:
        if not spec:
            return cls()
        step, _, count = spec.partition(":")
        if not (count or "1").strip().isdigit():
            raise ConfigError(f"EGMEM_FAULT must be STEP or STEP:N, not {spec!r}")
        return cls(step.strip(), int(count or 1))

    def reach(self, step: str) -> None:
        """Mark ``step`` reached; die here if this is the fault's step and count."""
        if self.step is None:
            return
        self._reached[step] += 1
        if step == self.step and self._reached[step] == self.count:
            sys.stderr.write(f"egmem fault: killed at {step} #{self.count}\n")
            sys.stderr.flush()
            os.kill(os.getpid(), signal.SIGKILL)
