"""Nouns naming a gathering that meets on a day: one meeting of it can be off ("No club
night next Thursday") while the thing goes on, and a question about it being "bumped up"
asks when, not how much. Data, extend freely."""

from __future__ import annotations

__all__ = ["GATHERING_NOUNS", "is_gathering"]

#: Heads of a gathering's name, singular (a plural "s" is read off).
GATHERING_NOUNS: frozenset[str] = frozenset("""
meeting standup stand-up sync call retro review practice training rehearsal session class
lesson lecture seminar tutorial workshop club night quiz trivia game match fixture gig show
concert performance meetup social drinks dinner lunch breakfast brunch party walk ride
hike tour service mass assembly playtest nets net market sale fair clinic surgery
appointment interview briefing huddle catchup catch-up check-in checkin 1:1 one-to-one
kickoff kick-off standup demo screening viewing tasting swim parkrun bootcamp circuit
circuits yoga pilates choir band jam karaoke bingo raffle auction visit trip outing school
nursery league cup race regatta
""".split())


def is_gathering(word: str) -> bool:
    """Whether ``word`` (lower case) names a gathering, in the singular or the plural."""
    return word in GATHERING_NOUNS or (word.endswith("s") and word[:-1] in GATHERING_NOUNS) \
        or (word.endswith("es") and word[:-2] in GATHERING_NOUNS)
