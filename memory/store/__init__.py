"""Persistent storage: LanceDB tables (source of truth) and the derived Tantivy index."""

from memory.store.store import MemoryStore, Window, scope_sql

__all__ = ["MemoryStore", "Window", "scope_sql"]
