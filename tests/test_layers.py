"""The top-level packages depend one way: front ends (``adapters``) and entry points
(``bot``) on ``memory``, entry points on front ends; never the other way round. Every import
counts, also those inside functions and under ``TYPE_CHECKING``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "memory", "adapters", "egmem_eval")
# package -> the packages it must never import
FORBIDDEN = {
    "memory": {"bot", "adapters", "egmem_eval"},
    "adapters": {"bot", "egmem_eval"},
    "bot": set(),
    "egmem_eval": {"adapters"},
}


def imported_packages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
    return out & set(PACKAGES)


def package_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for pkg in PACKAGES:
        deps: set[str] = set()
        for path in (ROOT / pkg).rglob("*.py"):
            deps |= imported_packages(path)
        graph[pkg] = deps - {pkg}
    return graph


@pytest.mark.parametrize("pkg", sorted(FORBIDDEN))
def test_a_package_imports_no_layer_above_it(pkg: str) -> None:
    offending = {
        str(path.relative_to(ROOT)): sorted(imported_packages(path) & FORBIDDEN[pkg])
        for path in (ROOT / pkg).rglob("*.py")
        if imported_packages(path) & FORBIDDEN[pkg]
    }
    assert offending == {}


def test_no_cycle_between_top_level_packages() -> None:
    graph = package_graph()

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for dep in graph[start]:
            if dep == goal or (dep not in seen and reaches(dep, goal, seen | {dep})):
                return True
        return False

    assert [p for p in PACKAGES if reaches(p, p, {p})] == []


def test_the_check_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from bot.app import build\n    import adapters.jsonl\n")
    assert imported_packages(module) == {"bot", "adapters"}
