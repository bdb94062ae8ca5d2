"""Where a state-bearing value may come from: the message's words, its speaker, or the
proposal it accepts.

Verification and the reader apply the same rule, so a value the writer committed is read as
authoritative exactly when verification would accept it again.
"""

from __future__ import annotations

from memory.analysis.lexicon import FIRST_PERSON
from memory.text import grounded, tokens


def claims_first_person(text: str) -> bool:
    """Whether ``text`` speaks in the first person ("I'll drive it", "push is mine now")."""
    return bool(set(tokens(text)) & FIRST_PERSON)


def grounded_value(value: str, text: str, *, speaker: str = "", context: str = "") -> bool:
    """Whether ``value`` is grounded: in ``text`` itself; as the ``speaker``'s own name when
    the text claims something in the first person; or in ``context`` (the proposal or
    question the message answers) when the message takes that value over ("ok let's do
    that")."""
    if not value.strip():
        return False
    if grounded(value, text):
        return True
    if speaker and value.strip().lower() == speaker.strip().lower() and claims_first_person(
            text):
        return True
    # the speaker taking on what a request named them for ("priya could you take over
    # badges?" → Priya: "sure, happy to") is grounded in that request like any acceptance
    return bool(context) and grounded(value, context)
