"""Front ends depend on the ports of ``memory.ports``, never on the concrete memory: no module
under ``adapters/`` or ``bot/`` but the composition root (``bot/app.py``) imports the service,
the store or the write and read machinery behind them. Every import counts, also those
inside functions and under ``TYPE_CHECKING``."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FRONT_ENDS = ("adapters", "bot")
COMPOSITION_ROOT = ROOT / "bot" / "app.py"

# The implementation behind the ports: the service and its mixin, the store, the writer's
# and the reader's machinery.
CONCRETE = ("memory.service", "memory.daily_use", "memory.store", "memory.writer",
            "memory.pipeline", "memory.worker", "memory.registry", "memory.registry_search",
            "memory.repair", "memory.reader")

# What a front end may still take from those modules, and why.
ALLOWED = {
    # The error a command catches when another process writes the data directory.
    ("memory.store.lock", "DataDirBusy"),
    # The one rule of which times a message may carry, shared by the inbox and the import.
    ("memory.store.inbox", "time_problem"),
}


def _concrete(module: str) -> bool:
    return any(module == c or module.startswith(c + ".") for c in CONCRETE)


def concrete_imports(path: Path) -> list[str]:
    """The imports of concrete memory modules in ``path`` (``module`` or ``module.name``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend(a.name for a in node.names if _concrete(a.name))
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                if _concrete(node.module):
                    if (node.module, alias.name) not in ALLOWED:
                        out.append(f"{node.module}.{alias.name}")
                elif _concrete(f"{node.module}.{alias.name}"):  # from memory import store
                    out.append(f"{node.module}.{alias.name}")
    return out


def test_front_ends_import_ports_not_the_concrete_memory() -> None:
    offending = {
        str(path.relative_to(ROOT)): found
        for pkg in FRONT_ENDS
        for path in sorted((ROOT / pkg).rglob("*.py"))
        if path != COMPOSITION_ROOT and (found := concrete_imports(path))
    }
    assert offending == {}


def test_the_composition_root_builds_the_service() -> None:
    assert "memory.service.Egmem" in concrete_imports(COMPOSITION_ROOT)


def test_the_check_sees_every_form_of_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "import memory.store.tables\n"
        "from memory import service\n"
        "from memory.models import Scope\n"
        "from memory.store.lock import DataDirBusy\n"
        "if TYPE_CHECKING:\n"
        "    from memory.store import MemoryStore\n"
        "def f():\n"
        "    from memory.reader.tools import read_current_state\n")
    assert sorted(concrete_imports(module)) == [
        "memory.reader.tools.read_current_state", "memory.service", "memory.store.MemoryStore",
        "memory.store.tables"]
