"""How a sentence says someone holds a task without a verb of owning: "Ciara's collecting",
"Lena's on minutes", "Taking over the lift chasing from Declan" (the speaker's); and the
capitalised -ing words that are verbs, not names ("Switching catering
to …")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory.analysis.cue_words import NOUN_DETERMINERS, ON_NOT_A_TASK, TASK_GERUNDS
from memory.analysis.value_types import Token
from memory.text import STOPWORDS, is_calendar_word

__all__ = ["JOURNEY_GERUNDS", "journey", "possessive_doer", "takes_over_unsaid",
           "task_on", "verb_form"]

# Who a task is done to, not by ("chasing us", "collecting me").
_OBJECT_PEOPLE = frozenset({"us", "me", "you", "him", "her", "them", "u"})
# Words of going somewhere after a gerund ("driving back", "flying home"): a journey, no task.
GOING_WORDS = frozenset({"back", "home", "down", "up", "over", "in"})
# Gerunds of a journey ("driving back", "flying home"), with a word of going after them.
JOURNEY_GERUNDS = frozenset({"driving", "flying", "heading", "coming", "going", "travelling",
                             "traveling", "walking", "cycling", "riding", "popping"})
# Words after a name that make it the doer ("Harding will sign off", "Yiming is on it").
_NAME_VERBS = frozenset({"will", "is", "'s", "was", "has", "had", "can", "could", "would",
                         "should", "said", "says", "and", "takes", "owns", "agreed", "wants"})


def possessive_doer(toks: Sequence[Token], i: int) -> bool:
    """Whether the word at ``i``, written with "'s", does a task by the words after it
    ("Ciara's collecting", "Lena's on minutes"; not an outside body chasing someone:
    "HMRC's chasing us", "Mum's collecting me")."""
    tok = toks[i]
    if not tok.low.endswith(("'s", "’s")) or i + 1 >= len(toks):
        return False
    if tok.text[:-2].isupper():
        return False
    nxt = toks[i + 1].low
    if nxt in TASK_GERUNDS:
        # (nor the person going somewhere: "Tom's driving back to Milwaukee after")
        return not (i + 2 < len(toks) and (toks[i + 2].low in _OBJECT_PEOPLE or (
            nxt in JOURNEY_GERUNDS and journey([t.low for t in toks], i + 2))))
    return task_on(toks, i + 1) is not None


def journey(lows: Sequence[str], j: int) -> bool:
    """Whether the word at ``j``, after a gerund of going, says a journey ("driving back to
    Milwaukee", "flying home after"), not what is carried ("driving over the PA system")."""
    if j >= len(lows) or lows[j] not in GOING_WORDS:
        return False
    nxt = lows[j + 1] if j + 1 < len(lows) else ""
    return nxt == "" or nxt in _JOURNEY_NEXT


# What follows a journey's direction ("back *to* Leeds", "home *after*", "down *from*").
_JOURNEY_NEXT = frozenset({"to", "from", "after", "with", "tonight", "tomorrow", "today",
                           "later", "now", "early", "first", "for", "on", "in"})


def takes_over_unsaid(toks: Sequence[Token], i: int, text: str) -> bool:
    """Whether the sentence at ``i`` opens on taking a task over with its doer left unsaid
    ("Taking over the lift chasing from Declan"), and does not ask it ("…?")."""
    if toks[i].low != "taking" or i + 1 >= len(toks) or toks[i + 1].low != "over":
        return False
    end = re.search(r"[.!?\n]", text[toks[i].start:toks[i].start + 300])
    return not (end is not None and end.group() == "?")


def verb_form(tok: Token, rest: Sequence[str], known: set[str]) -> bool:
    """Whether a capitalised word ending in -ing is a verb's form, not a name ("Yiming will
    take the minutes" names Yiming): no one the chat knows, and no verb of its own after."""
    low = tok.low
    return (len(low) > 5 and low.endswith("ing") and low not in known and tok.text[:1].isupper()
            and not (rest and rest[0] in _NAME_VERBS))


# Words saying someone is on something in another's place ("… on the stall instead").
_SWAP_WORDS = frozenset({"instead"})
# What someone is on while going or talking, not a task ("Tom's on the bus instead").
_GOING_ON = frozenset({"bus", "train", "tube", "tram", "plane", "flight", "ferry", "boat",
                       "phone", "call", "way", "road", "line", "motorway", "metro", "subway"})


def task_on(toks: Sequence[Token], j: int) -> Token | None:
    """The task "on" at ``j`` puts someone on ("Lena's on [minutes]", "Sam's on [teas]"): a
    plain noun right after it, not time off ("on leave") nor a determiner; else None."""
    if j >= len(toks) or toks[j].low != "on" or j + 1 >= len(toks) \
            or toks[j + 1].start - toks[j].end > 1:
        return None
    nxt = toks[j + 1]
    if nxt.low == "the" and j + 2 < len(toks) and toks[j + 2].low not in _GOING_ON and any(
            t.low in _SWAP_WORDS for t in toks[j + 3:j + 9]):
        # "so Yusuf's on the stall with me instead": a place at a task, taken in turn
        nxt = toks[j + 2]
    if (nxt.text.isalpha() and nxt.text.islower() and nxt.low not in STOPWORDS
            and nxt.low not in ON_NOT_A_TASK and nxt.low not in NOUN_DETERMINERS
            and not is_calendar_word(nxt.low)):
        return nxt
    return None
