"""Persistent storage: LanceDB tables (source of truth) and the derived Tantivy index.

Callers reach the store through the ports in ``memory.store.ports`` and pass domain values
(scopes, windows, ids); every query string lives in this package."""

from memory.store.filters import Span, Window
from memory.store.store import MemoryStore, open_store

__all__ = ["MemoryStore", "Span", "Window", "open_store"]
