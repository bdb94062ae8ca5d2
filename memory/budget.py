"""The per-message analysis budget.

A message is stored, indexed and searchable whole (up to the import cap), but the write
path *analyses* — proposes, verifies, rewrites, derives topics — only its first
:data:`ANALYSIS_CHARS` characters. Decisions are stated in a sentence or two; a 40,000
character paste is a log or a document, and every pattern run over it costs time the
process (holding the interpreter lock) cannot spend acknowledging the next event.
"""

from __future__ import annotations

from memory.models import Message

ANALYSIS_CHARS = 4000
"""The most characters of one message the write path analyses."""

# A cut inside a word could make a value of half of it ("$4,0" of "$4,000"): the window
# ends at the last space within this many characters of the budget.
_BACKOFF = 200


def analysis_text(text: str) -> str:
    """``text`` cut to the analysis budget (whole when it fits), ending between words."""
    if len(text) <= ANALYSIS_CHARS:
        return text
    cut = text[:ANALYSIS_CHARS]
    start = ANALYSIS_CHARS - _BACKOFF
    space = max(cut.rfind(" ", start), cut.rfind("\n", start))
    return cut[:space] if space > 0 else cut


def analysis_view(message: Message) -> Message:
    """``message`` with its text cut to the analysis budget (the same object if it fits)."""
    text = analysis_text(message.text)
    return message if text is message.text else message.model_copy(update={"text": text})
