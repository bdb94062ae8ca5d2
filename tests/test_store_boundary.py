"""The store boundary holds: outside ``memory/store`` no code reaches into the LanceDB
tables (``.tables``), builds a filter string for them, or speaks SQL at all; callers pass
scopes, windows and ids. (The inbox and the local ledgers are SQLite files of their own,
kept in ``memory/store`` too.) The tests and benchmarks are held to it as well: what they
look at beyond the ports they ask of ``memory.store.inspection``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Every tree of Python code in the repository but the store's own.
TREES = ("bot", "memory", "adapters", "egmem_eval", "tests", "benchmarks")
STORE = Path("memory") / "store"
# This module holds the forbidden forms as text, to show the check finds them.
EXEMPT = (Path("tests") / "test_store_boundary.py",)
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
# A SQLite statement (the inbox's, a ledger's): a statement's opening words, or a
# placeholder. (A lone word such as an HTTP method named ``DELETE`` is no statement.)
SQLITE = re.compile(
    r"^\s*(?:SELECT\b.+\bFROM\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b"
    r"|INSERT\s+(?:OR\s+\w+\s+)?INTO\b|CREATE\s+(?:UNIQUE\s+)?(?:TABLE|INDEX)\b"
    r"|PRAGMA\s+\w)|\w=\?", re.DOTALL)


def _modules(root: Path = ROOT) -> list[Path]:
    return sorted(p for tree in TREES for p in (root / tree).rglob("*.py")
                  if root / STORE not in p.parents
                  and p.relative_to(root) not in EXEMPT)


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


def offences(path: Path, root: Path = ROOT) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    rel = path.relative_to(root)
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


# The forms the code used before the boundary existed: in the packages (filters built from
# user values, raw SQLite) and in tests and benchmarks (rows read, states picked by a
# filter, a column dropped to stage an older directory).
PACKAGE_SAMPLE = (
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
TEST_SAMPLE = (
    "def test_x(eg, sid):\n"
    "    rows = eg.store.tables.query_states(\"space = 'T1' AND channel = 'C1'\")\n"
    "    eg.store.tables.nodes.drop_columns(['card'])\n"
    "    left = eg.store.tables.query_nodes('card IS NULL', columns=['node_id'])\n"
    "    row = eg.store.states.get(sid)\n"
    "    return rows, left, row, f\"state_id = '{sid}'\", 'SELECT key FROM tombstones'\n"
)


def _tree(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


def test_the_check_finds_what_it_forbids(tmp_path: Path) -> None:
    _tree(tmp_path, {"memory/sample.py": PACKAGE_SAMPLE})
    got = offences(tmp_path / "memory" / "sample.py", tmp_path)
    assert any("imports sql_str" in o for o in got)
    assert any(".tables" in o for o in got) and any(".query_nodes" in o for o in got)
    assert sum("'" in o.split(": ", 1)[1][:1] for o in got) >= 4
    assert any("imports sqlite3" in o for o in got)


def test_tests_and_benchmarks_are_held_to_it_too(tmp_path: Path) -> None:
    """A test or benchmark that reaches into the tables again fails the check; only the
    store's own modules and this one (which holds the samples) are left out."""
    _tree(tmp_path, {"tests/test_sample.py": TEST_SAMPLE,
                     "tests/support/sample.py": TEST_SAMPLE,
                     "benchmarks/bench_sample.py": TEST_SAMPLE,
                     "memory/store/sample.py": TEST_SAMPLE,
                     "tests/test_store_boundary.py": TEST_SAMPLE,
                     "adapters/web/ok.py": "def f(store):\n    return store.states.listed()\n"})
    checked = [p.relative_to(tmp_path).as_posix() for p in _modules(tmp_path)]
    assert checked == ["adapters/web/ok.py", "benchmarks/bench_sample.py",
                       "tests/support/sample.py", "tests/test_sample.py"]
    for rel in checked[1:]:
        got = offences(tmp_path / rel, tmp_path)
        assert sum(o.endswith(": .tables") for o in got) == 3, got
        assert any(".query_states" in o for o in got) and any(".query_nodes" in o for o in got)
        quoted = [o.split(": ", 1)[1] for o in got if o.split(": ", 1)[1][:1] in "'\""]
        assert len(quoted) == 4, got  # two filters, a state id filter, a SQLite statement
    assert offences(tmp_path / "adapters" / "web" / "ok.py", tmp_path) == []


def test_a_method_named_like_a_statement_is_no_statement() -> None:
    """What the SQLite pattern must not take for a statement (an HTTP method, prose)."""
    for text in ("DELETE", "POST", "Select a channel from the list", "updated"):
        assert not SQLITE.search(text), text
    for text in ("SELECT * FROM inbox", "DELETE FROM inbox WHERE seq=?",
                 "UPDATE inbox SET status = 'done'", "INSERT OR IGNORE INTO t(k) VALUES (?)",
                 "PRAGMA secure_delete=ON", "CREATE TABLE IF NOT EXISTS t (k TEXT)"):
        assert SQLITE.search(text), text
