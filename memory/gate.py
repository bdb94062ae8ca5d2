"""The cheap deterministic gate in front of the LLM writer.

A gate decides, from a message alone, whether it could possibly bear or touch a state. Messages
it turns away get a ``context`` proposal without an LLM call. It is deliberately conservative:
a message is turned away only when no reading of it can establish, revise or restate anything
worth keeping; anything in doubt goes to the model (which verify then checks anyway).
"""

from __future__ import annotations

from collections.abc import Callable

from memory.analysis.message import MessageAnalyzer
from memory.models import Message
from memory.text import tokens

#: ``gate(message) -> True`` when the message goes to the proposer, False when it is gated.
Gate = Callable[[Message], bool]

# A bare acknowledgement is at most this many words and names no value.
_BARE_MAX_WORDS = 3


class StateGate:
    """The default gate, over the message analyzer: False for bot messages, platform lines
    ("has joined the channel", "uploaded a file"), noise and bare top-level acknowledgements.

    Noise is greetings, thanks, emoji-only and empty text. A bare acknowledgement ("ok",
    "+1", "lgtm!") is gated only when it answers nothing explicitly (no reply or thread
    parent): with a parent it may restate the parent's state, so the model sees it. Without
    one, the most it could do is restate some recent state — losing that link is the price
    of not spending a call on "ok". An acknowledgement with more words ("ok let's do that")
    may accept a proposal and goes to the model.
    """

    def __init__(self, *, analyzer: MessageAnalyzer | None = None) -> None:
        self.analyzer = analyzer or MessageAnalyzer()

    def __call__(self, message: Message) -> bool:
        if message.is_bot:
            return False
        a = self.analyzer.analyze(message.text, speaker=message.speaker)
        if a.system or a.noise:
            return False
        bare = (a.agrees and not a.values and len(tokens(a.text)) <= _BARE_MAX_WORDS
                and a.changes < 0.5)
        return not (bare and not _has_parent(message))


def _has_parent(message: Message) -> bool:
    return bool(message.reply_to) or bool(message.thread_id and message.thread_id != message.id)


_DEFAULT: list[StateGate] = []


def may_bear_state(message: Message) -> bool:
    """:class:`StateGate` with the stock analyzer."""
    if not _DEFAULT:
        _DEFAULT.append(StateGate())
    return _DEFAULT[0](message)
