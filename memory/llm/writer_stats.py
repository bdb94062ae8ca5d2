"""What the LLM writer counts: :class:`WriterStats` (shown by ``egmem stats`` and the ingest
report) and the :class:`Turn` record of one model reply."""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from memory.llm.prompts import WRITER_PROMPT_VERSION

__all__ = ["Turn", "WriterStats"]


@dataclass
class WriterStats:
    """Counters of one LLMProposer (thread-safe); :meth:`snapshot` is what ``egmem stats``
    and the ingest report show. ``issues`` keeps the latest problems with the model's
    replies (aliases, ids and reasons, never message text)."""

    messages: int = 0
    gated: int = 0
    llm_messages: int = 0
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    inspection_rounds: int = 0
    searches: int = 0
    repairs: int = 0
    proposals: int = 0
    malformed: int = 0
    fallbacks: int = 0
    recovered_calls: int = 0
    truncated: int = 0
    overflows: int = 0
    rejected: int = 0
    path: str = "tools"
    notes: tuple[str, ...] = ()
    issues: deque[str] = field(default_factory=lambda: deque(maxlen=50))
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, **deltas: int) -> None:
        with self._lock:
            for name, delta in deltas.items():
                setattr(self, name, getattr(self, name) + delta)

    def issue(self, text: str) -> None:
        with self._lock:
            self.malformed += 1
            self.issues.append(text)

    def snapshot(self) -> dict[str, Any]:
        """Counters plus ratios: calls, tokens and messages per call, gated share, and the
        share of the model-bound messages the model proposed (the rest: the fallback)."""
        with self._lock:
            n, sent = self.messages, self.llm_messages
            out: dict[str, Any] = {
                "prompt_version": WRITER_PROMPT_VERSION, "path": self.path,
                "path_notes": list(self.notes),
                "messages": n, "gated": self.gated, "llm_messages": sent,
                "calls": self.calls, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens,
                "inspection_rounds": self.inspection_rounds, "searches": self.searches,
                "repairs": self.repairs, "proposals": self.proposals,
                "malformed": self.malformed, "fallbacks": self.fallbacks,
                "recovered_calls": self.recovered_calls, "truncated": self.truncated,
                "overflows": self.overflows, "rejected": self.rejected,
                "model_share": self.proposals / sent if sent else 0.0,
                "fallback_share": self.fallbacks / sent if sent else 0.0,
                "calls_per_message": self.calls / n if n else 0.0,
                "prompt_tokens_per_message": self.prompt_tokens / n if n else 0.0,
                "completion_tokens_per_message": self.completion_tokens / n if n else 0.0,
                "messages_per_call": sent / self.calls if self.calls else 0.0,
                "gated_share": self.gated / n if n else 0.0,
                "recent_issues": list(self.issues),
            }
        return out


@dataclass
class Turn:
    """What one reply gave: new proposals, searches run, problems per message alias."""

    added: int = 0
    searched: int = 0
    truncated: bool = False
    rejected: dict[str, str] = field(default_factory=dict)
    replies: list[str] = field(default_factory=list)
