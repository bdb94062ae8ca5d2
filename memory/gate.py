"""The cheap deterministic gate in front of the LLM writer.

A gate decides, from a message alone, whether it could possibly bear or touch a state. Messages
it turns away get a ``context`` proposal without an LLM call. It is deliberately conservative:
a message is turned away only when no reading of it can establish, revise or restate anything
worth keeping; anything in doubt goes to the model (which verify then checks anyway).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memory.models import Message
from memory.text import AGREEMENT, clean, find_slots, is_noise, tokens

#: ``gate(message) -> True`` when the message goes to the proposer, False when it is gated.
Gate = Callable[[Message], bool]

# A bare acknowledgement is at most this many words and nothing after the agreement phrase.
_BARE_MAX_WORDS = 3
_TRAILING = re.compile(r"^[\W_]*$")


def may_bear_state(message: Message) -> bool:
    """The default gate: False for bot messages, noise and bare top-level acknowledgements.

    Noise is :func:`memory.text.is_noise` (greetings, thanks, emoji-only, empty). A bare
    acknowledgement ("ok", "+1", "lgtm!") is gated only when it answers nothing explicitly
    (no reply or thread parent): with a parent it may restate the parent's state, so the
    model sees it. Without one, the most it could do is restate some recent state, which
    never changes a value — losing that link is the price of not spending a call on "ok".
    """
    if message.is_bot:
        return False
    text = message.text
    if is_noise(text):
        return False
    return not (_is_bare_agreement(text) and not _has_parent(message))


def _has_parent(message: Message) -> bool:
    return bool(message.reply_to) or bool(message.thread_id and message.thread_id != message.id)


def _is_bare_agreement(text: str) -> bool:
    stripped = clean(text).strip()
    match = AGREEMENT.match(stripped)
    if match is None:
        return False
    rest = stripped[match.end():]
    return (
        bool(_TRAILING.match(rest))
        and len(tokens(stripped)) <= _BARE_MAX_WORDS
        and not find_slots(stripped)
    )


def pass_all(message: Message) -> bool:
    """A gate that sends every message to the proposer (for ablations)."""
    _ = message
    return True
