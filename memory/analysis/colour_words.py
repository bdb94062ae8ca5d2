"""Colours as values: "what colour are the hoodies?" is answered by "navy", "blue & white" or
"sage green", never by the price or the date said beside them.

The words are data (extend freely); :func:`colours_in` finds the colour phrases of a text as
slots, for the reader when a question asks a colour. A colour word is common in chat for
other things ("green light", "black friday"), so nothing here opens or revises a state: the
writer's values are unchanged.
"""

from __future__ import annotations

import re

from memory.text import Slot, SlotKind

__all__ = ["COLOUR_NOUNS", "colours_in"]

#: Question nouns asking a colour.
COLOUR_NOUNS: frozenset[str] = frozenset(
    "colour colours color colors shade shades colourway colorway".split())

#: Words naming a colour on their own.
COLOUR_WORDS: frozenset[str] = frozenset("""
red blue green yellow orange purple pink black white grey gray brown navy teal turquoise
maroon burgundy gold silver cream beige mustard lilac lavender magenta cyan olive khaki
coral charcoal sage aqua mint violet indigo scarlet crimson ochre terracotta tan
""".split())

#: Words that make a colour more precise ("pale blue", "forest green").
COLOUR_MODIFIERS: frozenset[str] = frozenset("""
pale light dark bright deep sky royal baby forest bottle lime neon pastel dusty soft
off hot electric powder duck egg sea racing british emerald midnight ceil petrol slate
steel ice cobalt heather
""".split())


def _alternation(words: frozenset[str]) -> str:
    return "|".join(sorted(words, key=lambda w: (-len(w), w)))


_ONE = (rf"(?:(?:{_alternation(COLOUR_MODIFIERS)})[\s-]){{0,2}}"
        rf"(?:{_alternation(COLOUR_WORDS)})(?:[\s-](?:green|blue|grey|gray))?")
# "blue & white", "black/gold": one value of several colours ("pale blue and sage" may be
# two to choose from)
_PHRASE = re.compile(rf"(?<![\w-])(?:{_ONE})(?:\s{{0,2}}(?:&|/|\+)\s{{0,2}}(?:{_ONE})){{0,2}}"
                     r"(?![\w-])", re.IGNORECASE)

_MAX_TEXT = 4000


def colours_in(text: str) -> list[Slot]:
    """The colour phrases of ``text`` in reading order, as slots ("blue & white", "pale
    blue", "sage green")."""
    return [Slot(SlotKind.NAME, m.group(), m.start(), m.end())
            for m in _PHRASE.finditer(text[:_MAX_TEXT])]
