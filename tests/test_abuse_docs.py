"""docs/SECURITY.md names real tests: every test file and test function in its table
exists, so a promise cannot point at a test that was renamed or removed."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_test_the_security_page_names_exists() -> None:
    page = (ROOT / "docs" / "SECURITY.md").read_text(encoding="utf-8")
    table = [line for line in page.splitlines() if line.startswith("| **")]
    assert len(table) >= 10
    named_files: set[str] = set()
    named_tests: set[tuple[str | None, str]] = set()
    for line in table:
        tests_cell = line.rstrip("|").rsplit("|", 1)[1]
        current: str | None = None
        for token in re.findall(r"`([^`]+)`", tests_cell):
            file_part, _, func = token.partition("::")
            if file_part.endswith(".py"):
                named_files.add(file_part)
                current = file_part
                if func:
                    named_tests.add((file_part, func))
            elif token.startswith("test_"):
                named_tests.add((current, token))
    assert named_files and named_tests
    sources = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "tests").glob("*.py")}
    for name in named_files:
        if name.startswith("test_"):
            assert name in sources, f"SECURITY.md names a missing test file {name}"
    everything = "\n".join(sources.values())
    for file_part, func in named_tests:
        where = sources.get(file_part or "", everything)
        assert re.search(rf"^def {re.escape(func)}\(", where, re.M), \
            f"SECURITY.md names a missing test {file_part}::{func}"
