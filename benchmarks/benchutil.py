"""Small helpers shared by the scale benchmarks: machine facts, memory, timing, tables."""

from __future__ import annotations

import os
import platform
import re
import resource
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def machine() -> dict[str, Any]:
    """CPU model, usable cores, RAM and the date, for the header of every table."""
    model = platform.processor() or "unknown"
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        m = re.search(r"Model name:\s*(.+)", out)
        if m:
            model = m.group(1).strip()
    except OSError:
        pass
    ram_gb = 0.0
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                ram_gb = int(line.split()[1]) / 1024 / 1024
    except OSError:
        pass
    return {
        "cpu": model,
        "cores": len(os.sched_getaffinity(0)),
        "ram_gb": round(ram_gb, 1),
        "python": platform.python_version(),
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
    }


def machine_line(m: dict[str, Any]) -> str:
    return (f"{m['cpu']}, {m['cores']} cores, {m['ram_gb']:.0f} GB RAM, Python {m['python']}, "
            f"{m['date']}")


def rss_mb() -> float:
    """Current resident set size of this process in MB."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return peak_rss_mb()


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    return float(np.percentile(np.asarray(values, dtype=np.float64), q))


def dir_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 1024 / 1024


class TimedEmbedder:
    """Wraps an embedder and adds up the wall time and texts spent in ``embed_batch``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.seconds = 0.0
        self.texts = 0
        self.calls = 0
        self._lock = threading.Lock()

    @property
    def dim(self) -> int:
        return int(self.inner.dim)

    @property
    def name(self) -> str:
        return str(self.inner.name)

    def embed_batch(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        t0 = time.perf_counter()
        out: npt.NDArray[np.float32] = self.inner.embed_batch(texts)
        with self._lock:
            self.seconds += time.perf_counter() - t0
            self.texts += len(texts)
            self.calls += 1
        return out


def md_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines.extend("| " + " | ".join(str(c) for c in r) + " |" for r in rows)
    return "\n".join(lines)
