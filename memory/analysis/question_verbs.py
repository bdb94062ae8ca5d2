"""What a question's shape says about its words.

"how often do backups *run*", "when did zed *become* a full mod": after a question word and
an auxiliary ("do", "did", "will") comes the subject, then the verb saying what happens to
it; "sale still *ending* on the 15th?": the verb after "still". That verb names no thing, so
the chat may say the same in other words ("backups go … every 6 hours"); it is found by the
question's shape, not by a list of verbs. After "we" the verb is what the asker asks about
("where do we *park*"). How far a change moved something ("delayed *a week*") is said of the
change, not of the thing asked about.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from memory.analysis.cue_words import DURATION_WORDS, NUMBER_WORDS
from memory.text import is_calendar_word

_WH = frozenset({"when", "where", "why", "how", "what", "which", "who", "whom", "whose"})
_DO = frozenset({"do", "does", "did", "don't", "doesn't", "didn't", "dont", "doesnt", "didnt"})
_MODALS = frozenset({"will", "would", "can", "could", "should", "shall", "might", "must",
                     "won't", "wont", "cant", "can't"})
_PRONOUNS = frozenset({"i", "we", "you", "they", "he", "she", "it", "u", "ya", "y'all"})
_DETERMINERS = frozenset({"the", "a", "an", "our", "your", "their", "my", "his", "her",
                          "its", "this", "that", "these", "those", "ur"})
# Words that end a subject and its verb: prepositions, particles, adverbs of time.
_ENDS = frozenset({"out", "up", "on", "in", "at", "to", "for", "with", "by", "off", "now",
                   "again", "down", "over", "into", "from", "back", "away", "next", "this",
                   "tomorrow", "today", "tonight", "yet", "ever", "anymore", "there", "here",
                   "then", "still", "already", "these", "days", "pls", "please", "and", "or",
                   "a", "an", "the", "as", "about", "after", "before", "until", "till", "if",
                   "so", "but", "because", "than", "around", "through", "each", "every",
                   "usually", "normally", "actually", "finally", "eventually", "last",
                   "first", "later", "earlier", "like", "of"})
# How far the auxiliary may sit from the question word ("what time does", "how much did").
_AUX_REACH = 3


def subject_verbs(lows: Sequence[str], opening: int, *, skip: frozenset[str] = frozenset()
                  ) -> tuple[str, ...]:
    """The verb after the subject of a question asked with an auxiliary ("when did zed
    *become* a full mod"; "when did the van *get fixed*"), or () when the question has no
    such shape; ``skip``: words that end a subject (question words)."""
    kept = _after_still(lows, skip)
    if kept:
        return kept
    if opening >= len(lows) or lows[opening] not in _WH:
        return ()
    aux = next((i for i in range(opening + 1, min(opening + 1 + _AUX_REACH, len(lows)))
                if lows[i] in _DO or lows[i] in _MODALS), -1)
    if aux < 0 or aux + 1 >= len(lows):
        return ()
    start = aux + 1
    if lows[start] in _PRONOUNS:
        # "where do we *park*", "why couldn't we *migrate*": what the asker does is what
        # they ask about
        return ()
    if aux == opening + 1 and lows[opening] in ("who", "what") and (
            lows[aux] in _MODALS or lows[opening] == "who"):
        # "who will run the stall" (the question word is the subject), "who did bella's
        # surgery" ("did" is the verb)
        return ()
    # (a weekday or month before the noun names which of a recurring thing: "do the
    # *sunday* rides leave")
    while start < len(lows) and (lows[start] in _DETERMINERS or (
            is_calendar_word(lows[start]) and lows[start].isalpha())):
        start += 1
    run = _run(lows, start, skip)
    if len(run) < 2:
        # a subject of one word and no verb after it ("when does registration") says none
        return ()
    light = next((i for i, w in enumerate(run) if i and w in _LIGHT), len(run) - 1)
    # (a participle after a light verb is the verb too: "get *fixed*"; "go *live*" names
    # the event asked about)
    return tuple(w for i, w in enumerate(run[light:]) if not i or w.endswith(("ed", "en")))


def _after_still(lows: Sequence[str], skip: frozenset[str]) -> tuple[str, ...]:
    """The verb a "still" question asks holds ("sale still *ending* on the 15th?", "is
    the cleaner still *coming*"): the word right after "still", when it is no preposition."""
    if "still" not in lows:
        return ()
    at = lows.index("still") + 1
    verb = lows[at] if at < len(lows) else ""
    return (verb,) if _content(verb, skip) and verb.endswith(("ing", "ed")) else ()


# Verbs that carry another ("get fixed", "go live", "be done").
_LIGHT = frozenset({"get", "got", "gets", "getting", "be", "been", "go", "goes", "going",
                    "gonna", "end", "ends"})


def _run(lows: Sequence[str], start: int, skip: frozenset[str]) -> list[str]:
    run: list[str] = []
    for w in lows[start:]:
        if not _content(w, skip):
            break
        run.append(w)
    return run


def _content(word: str, skip: frozenset[str]) -> bool:
    return (len(word) > 1 and word.replace("'", "").isalpha() and word not in _ENDS
            and word not in skip and word not in _PRONOUNS and not is_calendar_word(word))


# Between a change word and how far it moved ("pushed *back* two days", "slip *by* 3 days").
_PARTICLES = frozenset({"back", "up", "forward", "out", "by", "off", "on", "along"})
_AMOUNTS = frozenset(NUMBER_WORDS) | {"a", "an", "couple", "few", "another", "extra"}
_LENGTHS = DURATION_WORDS | {"fortnight", "fortnights", "hr", "hrs", "wk", "wks", "night",
                             "nights", "years"}


def change_amounts(lows: Sequence[str], changes: Callable[[str], bool]) -> set[int]:
    """The positions of how far a change moved something ("delayed *a week*", "pushed back
    *two days*", "slip by *3 days*"): said of the change, not of the thing asked about.
    ``changes`` tells a word of change."""
    out: set[int] = set()
    for i, w in enumerate(lows):
        if not changes(w):
            continue
        j = i + 1
        while j < len(lows) and lows[j] in _PARTICLES:
            j += 1
        start = j
        while j < len(lows) and (lows[j] in _AMOUNTS or lows[j].isdigit() or lows[j] == "of"):
            j += 1
        if j > start and j < len(lows) and lows[j] in _LENGTHS:
            out.update(range(start, j + 1))
    return out
