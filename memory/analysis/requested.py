"""What a request to change something names: the thing, not who asked ("wattle st tenant
asked to move [the inspection]", "the client wants us to push back [the launch]", "Sam
wants to move the time of [the party]")."""

from __future__ import annotations

from collections.abc import Sequence

from memory.analysis.lexicon import ATTRIBUTE_NOUNS, CHANGE_VERBS
from memory.analysis.message_patterns import _DETERMINERS, _PRONOUNS
from memory.analysis.subjects import _DATIVES, PARTICLES, _object_of
from memory.analysis.values import Token, Value
from memory.text import STOPWORDS

__all__ = ["requested_change"]


def requested_change(words: Sequence[Token], values: tuple[Value, ...],
                     masked: str) -> list[Token] | None:
    """What a request is to change, not who asked: "wattle st tenant asked to move [the
    inspection]", "the client wants us to push [the demo]"."""
    for i, t in enumerate(words[:_REQUEST_REACH]):
        if t.low not in _REQUESTS or i == 0:
            continue
        j = i + 1 + (i + 1 < len(words) and words[i + 1].low in _DATIVES)
        if j + 1 >= len(words) or words[j].low != "to" or words[j + 1].low not in CHANGE_VERBS:
            return None
        k = j + 2 + (j + 2 < len(words) and words[j + 2].low in PARTICLES)  # "push back"
        rest = list(words[k:])
        of = next((n for n, u in enumerate(rest[:4]) if u.low == "of"), None)
        if of is not None and any(u.low in ATTRIBUTE_NOUNS for u in rest[:of]):
            rest = rest[of + 1:]  # "move the time of the party": the party
        obj: list[Token] = []
        for u in _object_of(rest, values):
            if obj and any(ch in masked[obj[-1].end:u.start] for ch in ",.;:!?"):
                break
            obj.append(u)
        obj = [u for u in obj if u.low not in _DETERMINERS]
        if not obj or all(u.low in _PRONOUNS or u.low in STOPWORDS for u in obj):
            return None
        return obj
    return None


_REQUESTS = frozenset({"asked", "asks", "wants", "wanted", "requested", "requests"})
_REQUEST_REACH = 6
