"""The store boundary holds: outside ``memory/store`` no code reaches into the LanceDB
tables (``.tables``), builds a filter string for them, or speaks SQL at all; callers pass
scopes, windows and ids. (The inbox and the local ledgers are SQLite files of their own,
kept in ``memory/store`` too.)"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "memory", "adapters")
STORE = ROOT / "memory" / "store"
# Names only the store's own modules may use.
STORE_ONLY = {"tables", "sql_str", "sql_in", "scope_sql", "members_sql", "states_sql",
              "query_nodes", "query_states", "query_channels", "query_nodes_with_vectors",
              "get_meta", "set_meta", "upsert_states", "delete_states"}
# What a filter string looks like: a column compared with a quoted or interpolated value,
# an IN list, or SQL's own words and functions.
SQL = re.compile(
    r"\b[a-z_]+ (?:=|!=|>=|<=|>|<) (?:\{|')"
    r"|\b[a-z_]+ IN \("
    r"|\b(?:AND|OR) (?:NOT )?\(?[a-z_]+ (?:=|!=|>=|<=|>|<|IN|LIKE|IS) "
    r"|array_has_any\(|regexp_replace\(|\bIS (?:NOT )?NULL\b|\bLIKE\b.*\bESCAPE\b")
# A parameterized SQLite statement (the inbox's, a ledger's): placeholders, never values.
SQLITE = re.compile(r"^\s*(?:SELECT|UPDATE|DELETE|INSERT|CREATE|PRAGMA)\b|\w=\?")


def _modules() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")
                  if STORE not in p.parents)


def _strings(tree: ast.AST) -> list[tuple[int, str]]:
    """The string literals and f-string texts of a module, docstrings left out."""
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef
                                | ast.AsyncFunctionDef)
                  and n.body and isinstance(n.body[0], ast.Expr)
                  and isinstance(n.body[0].value, ast.Constant)}
    parts = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    out: list[tuple[int, str]] = []
    for n in ast.walk(tree):
        if isinstance(n, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "{}"
                           for v in n.values if isinstance(v, ast.Constant | ast.FormattedValue))
            out.append((n.lineno, text))
        elif (isinstance(n, ast.Constant) and isinstance(n.value, str)
              and id(n) not in docstrings and id(n) not in parts):
            out.append((n.lineno, n.value))
    return out


def offences(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    rel = path.relative_to(ROOT)
    found = [f"{rel}:{n.lineno}: .{n.attr}" for n in ast.walk(tree)
             if isinstance(n, ast.Attribute) and n.attr in STORE_ONLY]
    for n in ast.walk(tree):
        if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("memory.store"):
            found += [f"{rel}:{n.lineno}: imports {a.name}" for a in n.names
                      if a.name in STORE_ONLY]
        if isinstance(n, ast.Name) and n.id in STORE_ONLY - {"tables"}:
            found.append(f"{rel}:{n.lineno}: {n.id}")
    found += [f"{rel}:{line}: {text[:60]!r}" for line, text in _strings(tree)
              if SQL.search(text) or SQLITE.search(text)]
    found += [f"{rel}:{n.lineno}: imports sqlite3" for n in ast.walk(tree)
              if isinstance(n, ast.Import) and any(a.name == "sqlite3" for a in n.names)]
    return found


def test_no_table_access_or_query_string_outside_the_store() -> None:
    assert [o for p in _modules() for o in offences(p)] == []


def test_the_check_finds_what_it_forbids(tmp_path: Path) -> None:
    """The patterns catch the forms the code used before the boundary existed."""
    sample = ROOT / "memory" / "_boundary_sample.py"
    bad = (
        "from memory.store.tables import sql_str\n"
        "def f(store, user, scope):\n"
        "    rows = store.tables.query_nodes(f\"speaker_id = {sql_str(user)} AND {scope}\")\n"
        "    where = f\"channel = {scope}\"\n"
        "    other = 'state_id IN (' + user + ')'\n"
        "    return rows, where, other, \"TRUE AND NOT (platform = 'x')\"\n"
        "import sqlite3\n"
        "def g(db):\n"
        "    return db.execute('DELETE FROM inbox WHERE platform=?', ('x',))\n"
    )
    sample.write_text(bad, encoding="utf-8")
    try:
        got = offences(sample)
    finally:
        sample.unlink()
    assert any("imports sql_str" in o for o in got)
    assert any(".tables" in o for o in got) and any(".query_nodes" in o for o in got)
    assert sum("'" in o.split(": ", 1)[1][:1] for o in got) >= 4
    assert any("imports sqlite3" in o for o in got)
