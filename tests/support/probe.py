"""Where can a piece of text still be read from? Every reader path, every table, the lexical
index's term dictionary, the inbox, and every byte under the data directory.

Used by the abuse suite after deletes, forgets and edits: a probe is only meaningful if it
first finds its needle, so tests call it once before the change (a positive control).
"""

from __future__ import annotations

import json
from pathlib import Path

from memory.models import Scope
from memory.service import Egmem


def files_containing(root: Path, needle: str) -> list[str]:
    want = needle.lower().encode()
    return [str(p.relative_to(root)) for p in sorted(root.rglob("*"))
            if p.is_file() and want in p.read_bytes().lower()]


def leaks(eg: Egmem, data: Path, needle: str, *, space: str = "T1", platform: str = "slack",
          files: bool = True) -> list[str]:
    """Every place ``needle`` can still be read from (case-insensitive)."""
    low = needle.lower()
    found: list[str] = []

    def check(where: str, blob: object) -> None:
        if low in str(blob).lower():
            found.append(where)

    s = eg.tools.session(Scope(platform=platform, space=space))
    check("search_evidence", [(n.text, n.rewrite, n.topic, n.value, n.context)
                              for n in s.search_evidence(needle, k=100)])
    check("lookup_phrase", [n.text for n in s.lookup_phrase(needle, k=1000)])
    check("read_current_state", [st.model_dump_json() for st in
                                 s.read_current_state(needle, k=100)])
    a = eg.ask(f"what was said about {needle}?", platform=platform, space=space, user=None,
               channel=None)
    check("ask", a.model_dump_json())
    check("history", [st.model_dump_json() for st in eg.history(
        needle, platform=platform, space=space, user=None, channel=None, k=100)])
    check("why", [n.model_dump_json() for n in eg.why(
        needle, platform=platform, space=space, user=None, channel=None)])
    check("stats", json.dumps(eg.stats(), default=str))
    check("nodes table", eg.store.inspection().node_rows())
    check("states table", eg.store.states.listed())
    token = "".join(ch for ch in low if ch.isalnum())
    if token.isalpha():
        check("lexical terms", eg.store.lexical.body_terms(token))
    check("inbox", eg.inbox.inspection().rows())
    if files:
        found += [f"file {f}" for f in files_containing(data, needle)]
    return found


def assert_consistent(eg: Egmem) -> None:
    """No reference to a node that is gone; the index holds exactly the table's nodes."""
    nodes = eg.store.find_nodes(Scope())
    ids = {n.node_id for n in nodes}
    for n in nodes:
        assert n.supersedes is None or n.supersedes in ids, n.message_id
        assert n.reply_to_node is None or n.reply_to_node in ids, n.message_id
        assert set(n.context_ids) <= ids, n.message_id
    for st in eg.store.states.listed():
        assert st["active_node_id"] in ids, st["state_id"]
    assert eg.store.lexical.count() == len(ids)
