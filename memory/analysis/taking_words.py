"""Words by which someone asks for a task to be taken and someone takes it on, as data (the
*who's doing it* reader, :mod:`memory.reader.taking`). Extend freely.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: A message asking someone to take a task on ("marco can you start the contract stuff",
#: "can someone chase pharmacy", "calling volunteers", "who's doing it now?").
TASK_REQUEST: re.Pattern[str] = re.compile(
    r"\b(?:can|could|would|will) (?:you|u|someone|somebody|anyone|anybody|one of you)\b"
    r"(?! (?:please )?(?:see|be|say|confirm|need|tell|remind|let|hear|remember|believe|"
    r"imagine|think|come|join|attend|make it|share|send me|give me|help me|explain|clarify|"
    r"look at|ask|check if|check whether|double[- ]check)\b)|"
    r"\b(?:anyone|anybody|someone|somebody) (?:able|free|around|want|wants|willing|up for|"
    r"(?:got|have) time)\b|"
    # "tariq you want to run it?", "Lena you wanna host?", "fancy taking the raffle?"
    r"\b(?:you|u) (?:want|wanna|fancy|up for)(?: to)? (?:run|running|take|taking|do|doing|"
    r"host|hosting|lead|leading|handle|handling|organi[sz]e|organi[sz]ing|cover|covering|"
    r"sort|sorting|manage|managing|chair|chairing|coordinate|coordinating|drive|driving)\b|"
    r"\bfancy (?:running|taking|doing|hosting|leading|handling|organi[sz]ing|covering|"
    r"sorting|managing|chairing|coordinating|driving)\b|"
    # "someone needs to bring the club laptop", "somebody has to lock up"
    r"\b(?:someone|somebody|one of us) (?:needs|has|will need|will have) to\b|"
    r"\bwho(?:'s|’s| is| will| wants to| can| could|s)? (?:doing|taking|handling|on|up for|"
    r"grab|take|do|cover|covering|free|able|available|[a-z]{2,15}ing\b[^.!\n]{0,60}\?)|"
    # "who has the loading bay keys?": whoever says "me" holds them
    r"\bwho(?: has| has got|'s got|’s got| got)\b[^.!\n]{0,60}\?|"
    r"\bvolunteers?\b|\bany takers\b|\bup for grabs\b|\bneed (?:someone|somebody|a volunteer|"
    r"a hand|help|people|one person|\d{1,4} (?:people|person|volunteers?)|(?:a |some )?cover|"
    r"(?:a )?sub)\b|\bneed:",
    re.IGNORECASE)

#: A task given up is open to whoever takes it on next ("can't do the airport", "I can't
#: move it", "won't be able to drive"); the people it names are whom it is for.
# (the speaker's own: "I can't", or a clause opening on it; not "she can't do the teas")
_OWN_CANT = (r"(?:\bi\s|\bi'?ll\s|\bim\s|\bi'm\s|^|[.!?,;:)—–-]\s{0,3}|[^\w\s'’]\s)"
             r"(?:can't|can’t|cant|cannot|can not|won't be able to|wont be able to|unable to|"
             r"not able to)\s")
GIVING_UP: re.Pattern[str] = re.compile(
    _OWN_CANT + r"(?:do|drive|bring|take|collect|pick|get|cover|run|host|mind|manage|lead|"
    r"move|open|lock|walk|feed|fetch)\b", re.IGNORECASE)

#: Its holder saying they cannot do what they held ("😩 can't quizmaster"): the task is
#: open to whoever takes it on next.
RELEASING: re.Pattern[str] = re.compile(_OWN_CANT + r"[a-z]", re.IGNORECASE)

#: How a reply taking the task on opens ("on it", "yep", "sure, i'll grab the files").
TAKING_OPENERS: tuple[str, ...] = (
    "on it", "will do", "can do", "sure", "sure thing", "yep", "yup", "yes", "yeah", "ya",
    "ok", "okay", "i can do", "i can take", "i can cover", "i could do", "i'll do",
    "ill do", "i'll take", "ill take", "i'll cover", "i will do", "i'll do it",
    "i'm on it", "im on it", "i got it", "i've got it", "ive got it", "got it covered",
    "leave it with me", "happy to", "no problem", "np", "me", "me!", "count me in",
    "i'm in", "im in", "consider it done", "absolutely", "of course", "for sure", "👍",
    "i've got one", "ive got one", "i have one", "i'll bring", "ill bring",
    "go on", "alright", "no worries", "mine now", "fine", "deal",
)

#: The speaker saying they will ("i'll", "ill", "i will"), as the patterns below spell it.
I_WILL = r"i'll|i’ll|ill|i will"

#: First-person words committing the speaker to something ("I'll do sign-in", "i can be the
#: charge nurse for that", "me, after the main one is locked").
COMMITTING: re.Pattern[str] = re.compile(
    r"(?:^|\b)(?:" + I_WILL + r"|i can|i could|i'm happy to|im happy to|happy to|"
    r"i'm doing|im doing|i'm taking|im taking|i've got|ive got|i got|leave it with me)\b",
    re.IGNORECASE)

#: Words by which a reply declines ("can't do the truck that day", "not me"): no taker.
DECLINING: re.Pattern[str] = re.compile(
    r"\b(?:can't|cant|cannot|can not|won't|wont|unable|not me|no can do|sorry|nope|"
    r"i'm out|im out|pass|skip|skipping|not this time)\b", re.IGNORECASE)


#: A reply taking over what the turn before it offered to do ("wide format cyan is low, ill
#: order" → "ill do it, I have the HP account open"): it opens by committing to "it".
TAKING_OVER: re.Pattern[str] = re.compile(
    r"^\W{0,3}(?:(?:nah|no|actually|oh|ok|okay|np|don'?t worry|dw|wait)\W{1,4}){0,2}"
    r"(?:(?:" + I_WILL + r"|i can|let me|lemme) (?:do|take|sort|handle|grab|cover)"
    r"(?: it| that| this| care of it)?|(?:i'll|i’ll|ill) go on|leave it with me|"
    r"i(?:'ve|ve)? got this)"
    # the offer ends there: not "i'll take it home after", "I can do that next week"
    r"(?=\s{0,3}(?:[,.!;:)]|$|(?:then|instead|for you|no worries|np|later|now|asap|today|"
    r"tonight|x{1,4}|[^\w\s]{1,4})"
    r"(?:\W|$)))", re.IGNORECASE)

#: A speaker committing themselves to a task from now on, of their own accord ("so I'll let
#: the engineer in", "I'm doing the school run now"): what follows names the task.
VOLUNTEERING: re.Pattern[str] = re.compile(
    r"\b(?:" + I_WILL + r"|i'm doing|im doing|i'm taking|im taking|i'll be doing|"
    r"leave (?:it|that) with me)\s", re.IGNORECASE)

#: A reply committing to the thing spoken of by a pronoun ("I'll get them", "I'll bring
#: her Siobhan", "i can do it"): it takes on what was asked, not news of its own ("I'll let
#: you know" commits to nothing asked).
TAKES_IT: re.Pattern[str] = re.compile(
    r"^\W{0,3}(?:(?:ok|okay|oh|ah|sure|yeah|yep|no worries|np|right)\W{1,4}){0,2}"
    r"(?:" + I_WILL + r"|i can)\s(?!let\b|tell\b|ask\b|send\b|text\b|call\b|ring\b|"
    r"message\b|remind\b|see\b|keep\b|update\b|ping\b|show\b|check\b)[a-z]{2,12}\s"
    r"(?:it|them|her|him|that|those|these|this)\b", re.IGNORECASE)


@dataclass(frozen=True)
class TakingWords:
    """The words above as one frozen object (a field of the question lexicon)."""

    request: re.Pattern[str] = TASK_REQUEST
    openers: tuple[str, ...] = TAKING_OPENERS
    committing: re.Pattern[str] = COMMITTING
    declining: re.Pattern[str] = DECLINING
    taking_over: re.Pattern[str] = TAKING_OVER
    takes_it: re.Pattern[str] = TAKES_IT
    volunteering: re.Pattern[str] = VOLUNTEERING
    giving_up: re.Pattern[str] = GIVING_UP
    releasing: re.Pattern[str] = RELEASING
