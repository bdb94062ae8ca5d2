"""Nouns naming a gathering that meets on a day: one meeting of it can be off ("No club
night next Thursday") while the thing goes on, and a question about it being "bumped up"
asks when, not how much. Data, extend freely."""

from __future__ import annotations

from memory.text import is_calendar_word

__all__ = ["GATHERING_NOUNS", "GATHERING_OPENERS", "NOT_A_GATHERING_NAME", "OFF_AS_PARTICLE",
           "is_gathering", "opens_gathering"]

#: Heads of a gathering's name, singular (a plural "s" is read off).
GATHERING_NOUNS: frozenset[str] = frozenset("""
meeting standup stand-up sync call retro review practice training rehearsal session class
lesson lecture seminar tutorial workshop club night quiz trivia game match fixture gig show
concert performance meetup social drinks dinner lunch breakfast brunch party walk ride
hike tour service mass assembly playtest nets net market sale fair clinic surgery
appointment interview briefing huddle catchup catch-up check-in checkin 1:1 one-to-one
kickoff kick-off demo screening viewing tasting swim parkrun bootcamp circuit
circuits yoga pilates choir band jam karaoke bingo raffle auction visit trip outing school
nursery league cup race regatta
""".split())


#: Words that make the words after "no" more than a gathering's name ("no it was moved to
#: Wednesday", "No Tom till Friday", "no lunch provided on Thursday").
NOT_A_GATHERING_NAME: frozenset[str] = frozenset("""
i i'm it it's its we we're they they're you he she sorry was were is are be been moved
agreed meant think thought said left allowed provided till until after before from since
by at in to of with yet more longer than the that this plans plan idea
""".split())
#: Words before a gathering that make "off" a verb's particle ("signing the trip off",
#: "kicked the workshop off", "show off", "tick the review off").
OFF_AS_PARTICLE: frozenset[str] = frozenset("""
i we you they he she it me us them i'm we're they're i've we've sign signing signed kick
kicked kicking tick ticked ticking finish finished finishing round rounding get getting got
take taking took shift shifting let's lets can could should show walk
""".split())
#: Words a gathering's name may open with ("the", "tonight's"); a weekday's or month's
#: possessive ("thursday's") opens it too (:func:`opens_gathering`).
GATHERING_OPENERS: frozenset[str] = frozenset(
    "the our this tonight's today's tomorrow's ok so fyi update sorry".split())


def is_gathering(word: str) -> bool:
    """Whether ``word`` (lower case) names a gathering, in the singular or the plural."""
    return word in GATHERING_NOUNS or (word.endswith("s") and word[:-1] in GATHERING_NOUNS) \
        or (word.endswith("es") and word[:-2] in GATHERING_NOUNS)


def opens_gathering(word: str) -> bool:
    """Whether ``word`` may open a gathering's name: an opener or a day's possessive."""
    day = word.removesuffix("'s").removesuffix("’s")
    return word in GATHERING_OPENERS or (day != word and is_calendar_word(day))
