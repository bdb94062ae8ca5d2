"""Whether the speaker is what a clause is about: a member's name opening a clause names
who is told ("dan ur booked on the course …"), and a first-person clause changing a thing
("I'm moving ours to Sunday 21 June") is the team's, unlike the speaker moving themselves
("I'm moving to Leeds on Friday")."""

from __future__ import annotations

from collections.abc import Sequence

from memory.analysis.cue_words import CHANGE_VERBS
from memory.analysis.value_types import Token

__all__ = ["moves_a_thing", "without_addressee"]

#: What a change verb acts on when the speaker changes a team's thing ("I'm moving *ours*",
#: "I've pushed *the* review"); "I'm moving to Leeds" moves the speaker.
_MOVED_THINGS = frozenset({"it", "them", "that", "this", "those", "these", "ours", "the",
                           "our", "both", "everything"})
#: Words right after a change verb that leave the speaker as what moves.
_OWN_MOVES = frozenset({"to", "into", "in", "out", "on", "over", "back", "house", "home",
                        "away", "abroad", "up", "down", "off", "my", "me", "myself", "jobs",
                        "job", "teams", "shifts", "desks", "offices", "forward", "from"})
#: What the speaker would do, not does ("I'd extend it to 60 days").
_WOULD = frozenset({"i'd", "i’d", "id", "would", "wd", "i'd've"})
#: Where a moved thing goes ("pushing X *back*", "moving X *to*").
_DIRECTIONS = frozenset({"to", "back", "forward", "till", "until", "til", "up", "down"})
#: Words after a member's name that make the name a greeting of who is told ("dan *ur*
#: booked", "dan *the* course has moved"), not what the clause is about.
_VOCATIVE_NEXT = frozenset({"ur", "u", "you", "your", "you're", "youre", "yr", "the", "pls",
                            "please", "plz", "fyi", "btw"})
#: Verbs asking the member named ("femi *can u* do sat"; "Marcus will be away" is his).
_ASKING = frozenset({"can", "could", "would", "will", "r", "are", "do", "did"})
_YOU = frozenset({"u", "you", "ya", "yall", "y'all"})


def moves_a_thing(toks: Sequence[Token]) -> bool:
    """Whether a first-person clause changes a thing: a change verb among its first words
    with an object after it ("I'm moving it to Sunday", "i've bumped the order to 40", "I'm
    pushing overnight turnout back a week"), not the speaker ("I'm moving to Leeds", "moving
    house", "changing my flight"), nor what the speaker would do ("I'd extend it to 60
    days" puts a value forward)."""
    if any(t.low in _WOULD for t in toks[:3]):
        return False
    for i, t in enumerate(toks[:5]):
        if t.low not in CHANGE_VERBS or i + 1 >= len(toks):
            continue
        after = toks[i + 1].low
        if after in _MOVED_THINGS:
            return True
        if after not in _OWN_MOVES and any(x.low in _DIRECTIONS for x in toks[i + 2:i + 6]):
            return True
    return False


def without_addressee(words: list[Token], people: frozenset[str]) -> list[Token]:
    """``words`` without a member's name that opens them to address that member ("dan ur
    booked on the course", "femi can u do sat"); "Dan is off on friday" keeps it."""
    if len(words) < 2 or words[0].low not in people:
        return words
    if words[1].low in _VOCATIVE_NEXT or (
            words[1].low in _ASKING and len(words) > 2 and words[2].low in _YOU):
        return words[1:]
    return words
