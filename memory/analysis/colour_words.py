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
    "colour colours color colors shade shades colourway colorway palette palettes".split())

#: Words naming a colour on their own.
COLOUR_WORDS: frozenset[str] = frozenset("""
red blue green yellow orange purple pink black white grey gray brown navy teal turquoise
maroon burgundy gold silver cream beige mustard lilac lavender magenta cyan olive khaki
coral charcoal sage aqua mint violet indigo scarlet crimson ochre terracotta tan
peach ivory apricot blush champagne mauve plum rust taupe salmon copper bronze amber jade
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


# A colour word meaning something else ("the green light", "we're in the red", "black
# friday", "red tape").
_IDIOM = re.compile(r"\b(?:in|into|out of)\s(?:the\s)?(?:red|black)\b|"
                    r"\b(?:green|red)\s(?:light|lit|flag|flags|tape|card|cards|herring)\b|"
                    r"\bblack\s(?:friday|eye|market|out)\b|\bwhite\s(?:paper|lie|noise|board)\b|"
                    r"\bgold\s(?:medal|star|standard)\b|\bblue\smoon\b", re.IGNORECASE)


def colours_in(text: str) -> list[Slot]:
    """The colour phrases of ``text`` in reading order, as slots ("blue & white", "pale
    blue", "sage green"): not a colour word meaning something else ("green light", "in the
    red") nor a capitalised one inside a sentence, a name ("Sage", "the Red Lion")."""
    text = text[:_MAX_TEXT]
    idioms = [(m.start(), m.end()) for m in _IDIOM.finditer(text)]
    out: list[Slot] = []
    for m in _PHRASE.finditer(text):
        if any(s <= m.start() < e for s, e in idioms):
            continue
        if m.group()[:1].isupper() and not m.group().isupper() and (
                _inside(text, m.start()) or _ACTS.match(text, m.end())):
            continue  # a name ("Sage is bringing the cake")
        out.append(Slot(SlotKind.NAME, m.group(), m.start(), m.end()))
    return out


# What follows a person's name opening a sentence ("Sage is …", "Olive said …").
_ACTS = re.compile(r"\s(?:is|was|will|says|said|can|has|had|thinks|wants|and\s[A-Z])\b|['’]s\b")


def _inside(text: str, at: int) -> bool:
    """Whether ``at`` is inside a sentence, not at its start."""
    before = text[:at].rstrip()
    return bool(before) and before[-1] not in ".!?:;—–-\n(\"'"
