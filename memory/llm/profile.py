"""What egmem knows about one endpoint + model: which path the writer takes and why.

An :class:`EndpointProfile` starts optimistic (tools, forced tool choice, every parameter)
and is corrected by what the endpoint says (``egmem check-llm`` probes it; the client and the
writer learn from refusals). Each correction carries a note that is logged once, when it is
learned, and shown by ``egmem stats``. A :class:`ProfileStore` keeps profiles across runs so
the next process starts on the path that works.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from dataclasses import asdict, dataclass, field, fields, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, Protocol

logger = logging.getLogger(__name__)

__all__ = ["EndpointProfile", "FileProfileStore", "MemoryProfileStore", "ProfileStore",
           "WriterPath"]

#: How the writer asks: tool calls, a JSON object in the reply, or not at all (offline).
WriterPath = Literal["tools", "json", "offline"]
#: How a call is forced to use a tool: by name, "required", or not at all (server default).
ToolChoice = Literal["named", "required", "none"]


@dataclass(frozen=True, kw_only=True)
class EndpointProfile:
    """Capabilities of one endpoint + model (``key`` = redacted URL and model name)."""

    key: str
    path: WriterPath = "tools"
    tool_choice: ToolChoice = "required"
    json_mode: bool = True
    #: Tokens of context, when the server reported it (an overflow error, a probe).
    context_tokens: int | None = None
    #: Most messages one writer call may carry (learned from context overflows).
    max_call_messages: int | None = None
    #: Request fields the endpoint refuses (dropped from every later request).
    dropped_params: tuple[str, ...] = ()
    #: Why the profile differs from the default, oldest first (logged once, shown in stats).
    notes: tuple[str, ...] = ()
    updated: str = ""

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["dropped_params"] = list(self.dropped_params)
        out["notes"] = list(self.notes)
        return out

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> EndpointProfile:
        known = {f.name for f in fields(cls)}
        clean = {k: v for k, v in raw.items() if k in known}
        for name in ("dropped_params", "notes"):
            clean[name] = tuple(str(x) for x in clean.get(name) or ())
        if clean.get("path") not in ("tools", "json", "offline"):
            clean.pop("path", None)
        if clean.get("tool_choice") not in ("named", "required", "none"):
            clean.pop("tool_choice", None)
        for name in ("context_tokens", "max_call_messages"):
            if not isinstance(clean.get(name), int) or isinstance(clean.get(name), bool):
                clean[name] = None
        return cls(**clean)

    def learned(self, note: str, **changes: Any) -> EndpointProfile:
        """A copy with ``changes`` applied and ``note`` appended (notes are kept unique)."""
        notes = self.notes if note in self.notes else (*self.notes, note)[-20:]
        return replace(self, **changes, notes=notes,
                       updated=datetime.now(UTC).isoformat(timespec="seconds"))


class ProfileStore(Protocol):
    def load(self, key: str) -> EndpointProfile | None: ...

    def save(self, profile: EndpointProfile) -> None: ...


class MemoryProfileStore:
    """Profiles for one process only (tests, benchmarks)."""

    def __init__(self) -> None:
        self._profiles: dict[str, EndpointProfile] = {}

    def load(self, key: str) -> EndpointProfile | None:
        return self._profiles.get(key)

    def save(self, profile: EndpointProfile) -> None:
        self._profiles[profile.key] = profile


class FileProfileStore:
    """Profiles in one JSON file (``{key: profile}``), replaced atomically on save.

    The file never holds secrets: keys and notes use redacted URLs. An unreadable file is
    treated as empty (the profile is re-learned), never as an error."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()

    def _read(self) -> dict[str, Any]:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return raw if isinstance(raw, dict) else {}

    def load(self, key: str) -> EndpointProfile | None:
        with self._lock:
            raw = self._read().get(key)
        if not isinstance(raw, dict):
            return None
        try:
            return EndpointProfile.from_dict({**raw, "key": key})
        except (TypeError, ValueError):
            return None

    def save(self, profile: EndpointProfile) -> None:
        with self._lock:
            data = self._read()
            data[profile.key] = profile.as_dict()
            tmp = self.path.with_suffix(".tmp")
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                tmp.write_text(json.dumps(data, indent=2, sort_keys=True), encoding="utf-8")
                os.replace(tmp, self.path)
            except OSError as exc:
                logger.warning("could not save the endpoint profile to %s: %s", self.path, exc)


@dataclass
class ProfileHolder:
    """The live profile of one client, shared by the writer and the reader (thread-safe)."""

    current: EndpointProfile
    store: ProfileStore | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def get(self) -> EndpointProfile:
        with self._lock:
            return self.current

    def learn(self, note: str, **changes: Any) -> EndpointProfile:
        """Apply ``changes``; log ``note`` once (the first time it is learned) and save."""
        with self._lock:
            before = self.current
            after = before.learned(note, **changes)
            if {k: getattr(after, k) for k in changes} == {k: getattr(before, k)
                                                            for k in changes}:
                return before
            self.current = after
        logger.warning("LLM endpoint %s: %s", after.key, note)
        if self.store is not None:
            self.store.save(after)
        return after
