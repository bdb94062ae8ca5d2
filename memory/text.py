"""Deterministic text analysis shared by the offline writer, verification and the reader.

Nothing here knows about storage: tokens, stopwords, value slots (times, dates, numbers,
versions, regions, names) and the cue words that signal a revision or a decision.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

from memory.analysis.lexicon import (
    AGREED_ORDINAL,
    MEASURE_PATTERN,
    MONEY_PATTERN,
    SCALED_COUNT_PATTERN,
    SIGNED_PATTERN,
    SPOKEN_TIME,
)

_WORD = re.compile(r"[a-z0-9][a-z0-9'._-]*[a-z0-9]|[a-z0-9]", re.IGNORECASE)
# Zero-width and bidi controls carry no meaning for matching but can hide words from it.
_INVISIBLE = dict.fromkeys(
    [0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D,
     0x202E, 0x2066, 0x2067, 0x2068, 0x2069],
    None,
)

# Negations typed without their apostrophe ("arent", "didnt"): function words, as with it.
BARE_NEGATIONS = frozenset(
    "arent isnt wasnt werent dont doesnt didnt havent hasnt hadnt wouldnt shouldnt couldnt"
    .split())
STOPWORDS = frozenset(
    """a about above after again against all am an and any are aren't as at be because been
    before being below between both but by can could did do does doing don't down during each
    few for from further had has have having he her here hers herself him himself his how i i'm
    i've i'll i'd if in into is isn't it it's its itself just let's me more most my myself no nor
    not of off on once only or other our ours ourselves out over own same she should so some
    such than that that's the their theirs them themselves then there these they this those
    through to too under until up very was wasn't we we're we'll we've were what when where which
    while who whom why will with would you you're your yours yourself yourselves yes yeah ok okay
    also get got go going gonna really still thing things think lol oh hey hi hello thanks thank
    sure well like one now right know want need pls please via re heads fyi psa btw imo
    anyone everyone guys folks im ive youre theyre thats theres wheres hows shud shld cud
    cld wud wld dont cant wont didnt doesnt isnt arent wasnt u ur theyd youd hed theyll
    youll itll weve youve theyve hes shes whats whos lets
    he's she's they're they'll they'd they've he'll she'll he'd she'd we'd you'll you'd
    you've it'll there's here's what's who's how's where's""".split()
) | BARE_NEGATIONS
# (chat apps type the apostrophe curly as often as straight: "she’s" is "she's")
STOPWORDS = STOPWORDS | frozenset(w.replace("'", "’") for w in STOPWORDS if "'" in w)

# Words that by themselves say "this replaces what was said before".
REVISION_CUES = (
    "instead", "moved to", "move it to", "move to", "moving it", "moving to", "switch to",
    "switching to", "switched to", "slips to", "slipped to", "slip to", "postponed",
    "postpone", "pushed to", "push it to", "pushing to", "push to", "bumped to", "bump to",
    "actually", "changed to", "change to", "changing to", "change of plan", "rescheduled",
    "reschedule", "no longer", "not anymore", "update:", "correction", "scratch that",
    "rather than", "calling it", "renamed", "now at", "is now", "are now", "now on",
    "will now", "new time", "new date", "delayed", "delay to", "revised", "revise",
    "going with", "go with", "replaced", "replace", "pulled in to", "brought forward",
    "rebooked", "re-booked", "relocated", "rearranged", "re-arranged",
)
# Words that mark a message as stating a decision or plan worth tracking as a state.
DECISION_VERBS = (
    "decided", "decision", "agreed", "we'll", "we will", "let's", "lets ", "plan is",
    "the plan", "final", "confirmed", "scheduled", "set for", "due ", "reminder",
    "action item", "todo", "to-do", "is at", "will be",
)
# Nouns that make a statement about them state-bearing; unlike the verbs, they are topics.
STATE_NOUNS = (
    "deadline", "budget", "target", "release", "launch", "meeting", "review", "standup",
    "lunch", "owner", "offsite", "demo", "retro", "interview", "migration", "freeze",
)
DECISION_CUES = DECISION_VERBS + STATE_NOUNS
# The cue words that never name a topic.
CUE_ONLY = REVISION_CUES + DECISION_VERBS
# Words that describe the act of deciding or announcing rather than what was decided: a label
# made only of these ("Poll's closed:", "Final answer:", "Update:", "ok so") names no topic.
PROCEDURAL_WORDS = (
    "poll", "vote", "voting", "ballot", "survey", "tally", "count", "result", "outcome",
    "update", "final", "finally", "answer", "decision", "decide", "verdict", "summary",
    "recap", "tldr", "tl;dr", "conclusion", "consensus", "close", "closed", "closing", "done",
    "settle", "settled", "winner", "won", "call", "official", "officially", "confirm",
    "confirmed", "announcement", "status", "note", "correction", "edit", "resolution",
    "resolved", "plan", "news", "good", "bad", "great", "quick", "alright", "agreed", "deal",
    "lock", "locked", "booked", "booking", "wrap", "loop", "bottom", "line", "follow-up",
    "followup", "reminder", "drumroll",
)
# Every pattern here runs over message text of any length: each is built so one match
# attempt reads a bounded number of characters (no unbounded repeat that a failure can
# make it scan again from the next position), so a scan is linear in the text's length.
# tests/test_abuse_text_bounds.py checks it.
AGREEMENT = re.compile(
    r"^\W{0,40}(\+1|👍|sounds good|works for me|agreed|agree|same|lgtm|ok{1,20}|okay|yes|yep|sure|"
    r"fine by me|good idea|great idea|perfect|done|ack|makes sense|love it|do it|ship it)\b",
    re.IGNORECASE,
)
NOISE = re.compile(
    r"^\W{0,40}(hi|hey|hello|morning|good morning|gm|thanks|thank you|thx|ty|cheers|lol|"
    r"haha{1,20}|np|no problem|welcome|bye|cya|see you|brb|nice|cool|great|awesome|"
    r":[a-z0-9_+-]{1,60}:)\W{0,40}$",
    re.IGNORECASE,
)


class SlotKind(StrEnum):
    TIME = "time"
    DATE = "date"
    VERSION = "version"
    REGION = "region"
    MONEY = "money"
    NUMBER = "number"
    NAME = "name"


# Kinds that can replace one another in a revision ("3 pm" → "Friday 10am").
SLOT_FAMILY: dict[SlotKind, str] = {
    SlotKind.TIME: "when",
    SlotKind.DATE: "when",
    SlotKind.VERSION: "version",
    SlotKind.REGION: "where",
    SlotKind.MONEY: "amount",
    SlotKind.NUMBER: "amount",
    SlotKind.NAME: "name",
}

_WEEKDAYS = r"(?:mon|tue|tues|weds|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|sday|urday|rsday)?"
#: A day that recurs, said as its plural ("thursdays").
RECURRING_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days"
_MONTHS = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
# A name of at most seven words of at most 40 characters: a match attempt starting at any
# capital letter reads at most ~330 characters, however many capitals follow.
_PROPER = r"[A-Z][\w'’&-]{0,39}(?:\s{1,5}(?:[A-Z][\w'’&-]{0,39}|de|la|del|of|the)){0,6}(?<!\s)"
_SLOT_PATTERNS: list[tuple[SlotKind, re.Pattern[str]]] = [
    # A proper name is a value only where a decision names it ("switching to Taqueria Luna",
    # "Pho Saigon it is"); capitalised words elsewhere are just mentions.
    (SlotKind.NAME, re.compile(
        r"(?i:\b(?:switch(?:ing|ed)? to|go(?:ing)? with|went with|decided on|settled on|"
        r"moving to|moved to|picked|chose|renamed to|winner is|booked|rebooked us at|"
        r"booked us at|hired|went for|going for))\s{1,10}(?P<v>" + _PROPER + r")|"
        r"(?P<w>" + _PROPER + r")(?=,? it is\b| it's\b| wins\b)")),
    (SlotKind.REGION, re.compile(r"\b(?:us|eu|ap|ca|sa|me|af)-(?:east|west|north|south|central|"
                                 r"northeast|southeast|northwest|southwest)-\d\b", re.I)),
    # Before money and versions: "5 m/s" is no £5m, "a 7.5 tonner" no version 7.5.
    (SlotKind.NUMBER, re.compile(MEASURE_PATTERN, re.I)),
    (SlotKind.NUMBER, re.compile(SIGNED_PATTERN, re.I)),
    # Before versions: "4.2 million dollars" is an amount, not version 4.2.
    (SlotKind.MONEY, re.compile(MONEY_PATTERN, re.I)),
    (SlotKind.NUMBER, re.compile(SCALED_COUNT_PATTERN, re.I)),
    # Before versions: "7.30am" is a time of day, not version 7.30.
    (SlotKind.TIME, re.compile(r"\b(?:\d{1,2}(?:[:.]\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)|"
                               r"\d{1,2}:\d{2}|noon|midnight|eod|end of day|" + SPOKEN_TIME
                               + r")\b", re.I)),
    (SlotKind.VERSION, re.compile(r"\bv?\d{1,12}\.\d{1,12}(?:\.\d{1,12}){0,8}"
                                  r"(?:-[a-z0-9.]{1,40})?\b", re.I)),
    (SlotKind.DATE, re.compile(
        # longer forms first: an alternation takes the first that matches, not the longest
        # (a span of days in a month is one: "16-27 march", "feb 16-20")
        rf"\b(?:\d{{1,2}}(?:st|nd|rd|th)?\s?[-–]\s?\d{{1,2}}(?:st|nd|rd|th)?\s{{1,3}}(?:of\s)?"
        rf"(?!may\s[a-z])(?:{_MONTHS})\b|"
        rf"(?:{_MONTHS})\.?\s{{1,3}}\d{{1,2}}(?:st|nd|rd|th)?\s?[-–]\s?\d{{1,2}}(?:st|nd|rd|th)?"
        rf"\b(?![:.]\d)|"
        rf"{_WEEKDAYS}\.?,?\s{{1,3}}(?:the\s)?\d{{1,2}}(?:st|nd|rd|th)\b|"
        rf"(?:the\s)?\d{{1,2}}(?:st|nd|rd|th)\s?[-–]\s?\d{{1,2}}(?:st|nd|rd|th)|"
        rf"the\s\d{{1,2}}\s?[-–]\s?\d{{1,2}}(?:st|nd|rd|th)|"
        rf"(?:early|mid|late|end\sof|start\sof|beginning\sof)[\s-]{{1,3}}{_MONTHS}|"
        rf"(?:the\s)?(?:first|second|third|fourth|last|final)\s(?:week|weekend|half)\sof\s"
        rf"{_MONTHS}|"
        rf"(?:wk|week)\sof\s{{1,3}}{_MONTHS}\.?\s{{1,3}}\d{{1,2}}(?:st|nd|rd|th)?|"
        rf"{_WEEKDAYS}\.?,?\s{{1,3}}\d{{1,2}}/\d{{1,2}}(?:/(?:\d{{4}}|\d{{2}}))?(?![/\d])|"
        # "moved to 6/20": a day as numbers where a day is meant ("6/6" alone is a score)
        r"(?:(?<=\bon\s)|(?<=\bby\s)|(?<=\bto\s)|(?<=\bis\s)|(?<=\btill\s)|(?<=\bfrom\s)|"
        r"(?<=\buntil\s)|(?<=\bfor\s)|(?<=\bdue\s)|(?<=\bbefore\s)|(?<=\bafter\s))"
        r"\d{1,2}/\d{1,2}(?:/(?:\d{4}|\d{2}))?(?![/\d])|"
        # a day that recurs is a day ("campfire goes to thursdays")
        rf"\d{{4}}-\d{{2}}-\d{{2}}|{RECURRING_DAY}|"
        # (not an occasion named after its day: "Black Friday", "Cyber Monday")
        rf"(?:(?:next|this|last)\s{{1,10}})?(?<!black\s)(?<!cyber\s)(?<!(?-i:Good)\s){_WEEKDAYS}|"
        rf"{_MONTHS}\.?\s{{1,10}}\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s{{1,10}}\d{{4}})?|"
        rf"\d{{1,2}}(?:st|nd|rd|th)?\s{{1,10}}(?:of\s{{1,10}})?{_MONTHS}"
        rf"(?:,?\s{{1,10}}\d{{4}})?|"
        r"the \d{1,2}(?:st|nd|rd|th)|today|tomorrow|tonight|yesterday|next week|this week|"
        r"tmrw|tmr|tmw|tomo|tmrow|tonite|2moro|2morrow|2nite|tdy|"
        r"next wk|this wk|"
        r"next month|end of (?:the )?"
        r"(?:week|month|quarter|sprint)|q[1-4])\b", re.I)),
    (SlotKind.DATE, re.compile(AGREED_ORDINAL, re.I)),
    (SlotKind.DATE, re.compile(r"\b(?:19|20)\d{2}\b")),
    (SlotKind.NUMBER, re.compile(r"\b\d(?:[\d,]{0,24}\d)?(?:\.\d{1,12})?\s?"
                                 r"(?:%|percent|ms|gb|tb|users|people|seats|days|weeks|hours|"
                                 r"minutes|nodes|replicas|x(?![\w]))?", re.I)),
]
_TIME_OF_DAY = next(p for k, p in _SLOT_PATTERNS if k is SlotKind.TIME)


def time_of_day(text: str) -> str:
    """The first time of day ``text`` names ("11am" in "wednesday 11am"), "" for none."""
    m = _TIME_OF_DAY.search(clean(text))
    return m.group(0) if m is not None else ""


def has_time_of_day(text: str) -> bool:
    """Whether ``text`` names a time of day, alone or inside a moment ("Thu Feb 25,
    6:30pm" is one date slot that holds a time)."""
    return bool(time_of_day(text))


_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]{1,40}(?:\s{1,5}[A-Z][a-z]{1,40}){0,2})\b")


@dataclass(frozen=True)
class Slot:
    kind: SlotKind
    text: str
    start: int
    end: int

    @property
    def family(self) -> str:
        return SLOT_FAMILY[self.kind]


def clean(text: str) -> str:
    """Normalize for matching: NFKC, drop zero-width/bidi controls and NULs."""
    text = unicodedata.normalize("NFKC", text).translate(_INVISIBLE)
    return text.replace("\x00", "")


def tokens(text: str) -> list[str]:
    """Lowercase word tokens (keeps things like ``2.3``, ``us-east-1``, ``don't``)."""
    return [t.lower() for t in _WORD.findall(clean(text))]


def stem(word: str) -> str:
    """A deliberately light stemmer: plural and common verb endings only."""
    for suffix, repl in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if (len(word) > len(suffix) + 2 and word.endswith(suffix)
                and word[-len(suffix) - 1] != "'"):
            return word[: -len(suffix)] + repl
    return word


def content_terms(text: str) -> list[str]:
    """Stemmed tokens without stopwords or pure punctuation: what a topic is made of."""
    return [stem(t) for t in tokens(text) if t not in STOPWORDS and len(t) > 1]


def overlap(a: set[str], b: set[str]) -> float:
    """Overlap coefficient |a∩b| / min(|a|,|b|); 0 when either side is empty."""
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


# "pushing launch to", "moved the review until", "bumping the alert from X to Y".
_MOVE_TO = re.compile(
    r"\b(?:push\w{0,20}|mov(?:e|es|ed|ing)|bump\w{0,20}|slip\w{0,20}|shift\w{0,20}|"
    r"chang(?:e|es|ed|ing)|reschedul\w{0,20}|postpon\w{0,20}|delay\w{0,20}|rais\w{0,20}|"
    r"lower\w{0,20}|increas\w{0,20}|reduc\w{0,20}|cut|trim\w{0,20}|updat\w{0,20}|"
    r"swap\w{0,20}|renam\w{0,20})\b[^.;!?]{0,40}?\b(?:to|until|till|into)\b|"
    r"\bfrom\s{1,10}\S[^.;!?]{0,40}?\bto\b|\binstead of\b|"
    # "coach now leaves at 6:30", "a ticket now costs $15": a verb said of a new value
    r"\bnow\s{1,5}(?!(?:look|seem|say|think|know|mean|feel)s\b)[a-z]{2,20}s"
    r"(?:\s{1,5}(?:at|on|from|in|by|to|until|till)\b|\s{1,5}[\d$£€])",
    re.IGNORECASE,
)
_URL = re.compile(r"https?://\S{1,4000}|www\.\S{1,4000}", re.IGNORECASE)


def family_of(value: str, source: str = "") -> str:
    """The kind of a value as it was found in its message ("Pho Saigon" is a name only
    where a decision named it), else as the value alone reads; "" for free text."""
    for slot in find_slots(source) if source else []:
        if slot.text == value:
            return slot.family
    alone = find_slots(value)
    return alone[0].family if alone else ""


def value_key(value: str) -> str:
    """A value normalised for "is this value named here": case, spaces and most punctuation
    folded, but the dots of versions and colons of times kept ("2.3" ≠ "23")."""
    return re.sub(r"[^a-z0-9.:$€£-]", "", clean(value).lower()).strip(".:-")


def names_value(text: str, value: str) -> bool:
    key = value_key(value)
    if len(key) < 2 or (len(key) < 3 and not any(ch.isdigit() for ch in key)):
        return False
    return key in value_key(text)


def strip_urls(text: str) -> str:
    return _URL.sub(" ", text)


def has_revision_cue(text: str) -> bool:
    return (has_cue(text, REVISION_CUES) or bool(_MOVE_TO.search(text))
            or bool(_NOW_AMOUNT.search(text)))


# "marlow AGAIN - now it's 800 numbers": an amount in force from now on (not the clock:
# "now it's 4pm and still no sign of them")
_NOW_AMOUNT = re.compile(r"\bnow\s(?:it['’]?s|it\sis|they['’]re|we['’]re|we\sare)\s(?:at\s)?"
                         r"[$€£]?\d[\d,.]{0,12}(?!\d|[.:]\d|\s?(?:am|pm|o['’]?clock|h\b|hrs\b))",
                         re.IGNORECASE)


def has_cue(text: str, cues: tuple[str, ...]) -> bool:
    low = " " + clean(text).lower() + " "
    return any(_cue_in(low, cue) for cue in cues)


_PROCEDURAL = {stem(t) for w in PROCEDURAL_WORDS + CUE_ONLY for t in tokens(w)}


def is_procedural_word(word: str) -> bool:
    """Whether a token says nothing about a topic: it describes deciding or announcing
    ("poll's", "closed", "update") or is filler (a stopword, a number, one letter)."""
    base = word.lower().removesuffix("'s")
    return _filler(base) or stem(base) in _PROCEDURAL


def names_procedure(word: str) -> bool:
    """Whether a token describes deciding or announcing (filler does not count)."""
    base = word.lower().removesuffix("'s")
    return not _filler(base) and stem(base) in _PROCEDURAL


def _filler(base: str) -> bool:
    return base in STOPWORDS or base.isdigit() or len(base) < 2


def is_procedural(label: str) -> bool:
    """Whether a label names the act rather than a topic: every word is procedural (or a
    stopword), so "Poll's closed", "Final answer", "ok so" are, "Launch update" is not."""
    return all(is_procedural_word(t) for t in tokens(label))


def _cue_in(low: str, cue: str) -> bool:
    idx = low.find(cue)
    while idx != -1:
        before = low[idx - 1] if idx > 0 else " "
        after = low[idx + len(cue)] if idx + len(cue) < len(low) else " "
        if not before.isalnum() and (not after.isalnum() or cue.endswith(" ")):
            return True
        idx = low.find(cue, idx + 1)
    return False


def is_noise(text: str) -> bool:
    """Greetings, thanks, emoji-only: messages that cannot bear state."""
    stripped = clean(text).strip()
    if not stripped:
        return True
    if not any(ch.isalnum() for ch in stripped):
        return True
    return bool(NOISE.match(stripped))


def is_agreement(text: str) -> bool:
    """Short replies that only make sense with what they answer ("+1, works for me")."""
    stripped = clean(text).strip()
    return len(stripped) <= 80 and bool(AGREEMENT.match(stripped))


def find_slots(text: str) -> list[Slot]:
    """Value slots in reading order; overlapping matches keep the earlier, more specific kind."""
    text = clean(text)
    taken: list[tuple[int, int]] = []
    found: list[Slot] = []
    for kind, pattern in _SLOT_PATTERNS:
        for m in pattern.finditer(text):
            group = next((g for g in ("v", "w") if g in pattern.groupindex and m.group(g)), 0)
            s, e = m.span(group)
            value = m.group(group).strip()
            if not value or any(s < te and e > ts for ts, te in taken):
                continue
            if kind is SlotKind.NUMBER and not _meaningful_number(value):
                continue
            taken.append((s, e))
            found.append(Slot(kind, value, s, s + len(value)))
    found.sort(key=lambda sl: sl.start)
    return _merge_adjacent_when(found, text)


# Which slot of a clause is its value: a named decision beats an amount beats a version ...
_PRIORITY = {SlotKind.NAME: 0, SlotKind.MONEY: 1, SlotKind.VERSION: 2, SlotKind.REGION: 3,
             SlotKind.TIME: 4, SlotKind.DATE: 4, SlotKind.NUMBER: 6}
_YEAR = re.compile(r"(?:19|20)\d{2}")


def is_year(slot: Slot) -> bool:
    return slot.kind is SlotKind.DATE and bool(_YEAR.fullmatch(slot.text))


def primary_slot(slots: list[Slot]) -> Slot | None:
    """The slot that carries a clause's value; a bare year only qualifies ("2025 budget")."""
    ranked = [s for s in slots if not is_year(s)] or slots
    return min(ranked, key=lambda s: (_PRIORITY[s.kind], s.start)) if ranked else None


# Runs of spaces are taken 40 at a time: "\s+[—–-]" tried at every space of a long run
# would read the rest of the run each time.
_CLAUSE = re.compile(r"(?<=[.!?])\s{1,40}|\n{1,40}|;\s{1,40}|:\s{1,40}|\s{1,40}[—–-]\s{1,40}")


def clauses(text: str) -> list[tuple[int, str]]:
    """Split a message into clauses (sentences, "label: rest", dashes), with offsets."""
    out: list[tuple[int, str]] = []
    pos = 0
    for m in _CLAUSE.finditer(text):
        if m.start() > pos:
            out.append((pos, text[pos : m.start()]))
        pos = m.end()
    if pos < len(text):
        out.append((pos, text[pos:]))
    return [(i, c) for i, c in out if c.strip()]


def _meaningful_number(value: str) -> bool:
    digits = re.sub(r"\D", "", value)
    # A bare single digit is usually a count in passing ("2 of us"), not a tracked value.
    return len(digits) >= 2 or not value.isdigit()


_WHEN_GAP = re.compile(r"[\s,@at]{0,4}", re.IGNORECASE)


_RECURRING_SAID = re.compile(RECURRING_DAY, re.IGNORECASE)

#: A value that recurs ("every monday", "WEDNESDAYS", "weekly").
RECURRING = re.compile(r"\b(?:every|each|weekly|daily|monthly|biweekly|fortnightly|"
                       + RECURRING_DAY + r"|(?:first|second|third|fourth|last|1st|2nd|3rd|4th)"
                       r"\s(?:mon|tue|wed|thu|fri|sat|sun)[a-z]{0,6}\sof\s(?:the|each|every)"
                       r"\smonth)\b", re.IGNORECASE)
# A day of the month in a value ("23rd", "14 Oct", "Oct 14", "14/10").
_DAY_NUMBER = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)\b|\b\d{1,2}\s?" + _MONTHS + r"\b|\b"
                         + _MONTHS + r"\s\d{1,2}\b|\b\d{1,2}/\d{1,2}\b", re.IGNORECASE)


def recurs_only(value: str) -> bool:
    """Whether ``value`` names a day that recurs and no dated day ("the first Tuesday of the
    month", "every friday"; not "weekly from Monday 10 March")."""
    return bool(RECURRING.search(value)) and not _DAY_NUMBER.search(value)


def one_dated_day(value: str) -> bool:
    """Whether ``value`` names one dated day ("Sat 23rd", "14 Oct"), and no series."""
    return bool(_DAY_NUMBER.search(value)) and not RECURRING.search(value)


def _recurring_at(a: Slot, b: Slot) -> bool:
    """Whether one of ``a`` and ``b`` is a day that recurs and the other a time of day: a
    weekly slot ("saturdays 10am") is read as its day and its time, each as said."""
    return any(x.kind is SlotKind.DATE and _RECURRING_SAID.fullmatch(x.text) is not None
               and y.kind is SlotKind.TIME for x, y in ((a, b), (b, a)))


def _merge_adjacent_when(slots: list[Slot], text: str) -> list[Slot]:
    """Join "Friday" + "10am" into one when-slot so a revision quotes the whole value; so
    too "next Friday (the 15th)", where the day in parentheses says which Friday."""
    merged: list[Slot] = []
    for slot in slots:
        if merged:
            prev = merged[-1]
            gap = text[prev.end : slot.start]
            pinned = gap.strip() == "(" and text[slot.end : slot.end + 1] == ")"
            if pinned and prev.kind is SlotKind.DATE and slot.kind is SlotKind.DATE:
                merged[-1] = Slot(SlotKind.DATE, text[prev.start : slot.end + 1], prev.start,
                                  slot.end + 1)
                continue
            if (
                prev.family == "when"
                and slot.family == "when"
                and not _recurring_at(prev, slot)
                and ((len(gap) <= 4 and _WHEN_GAP.fullmatch(gap))
                     or joins_day_set(prev.text, gap, slot.text))
            ):
                merged[-1] = Slot(SlotKind.DATE if SlotKind.DATE in (prev.kind, slot.kind)
                                  else prev.kind, text[prev.start : slot.end], prev.start,
                                  slot.end)
                continue
        merged.append(slot)
    return merged


# Weekdays listed as one recurring set ("mon/wed/fri", "wed + thu", "tue & thu", "mon, wed
# and fri"): one value, so a revision replaces the whole set. "or" lists alternatives.
_DAY_SET_GAP = re.compile(r"\s{0,2}(?:/|\+|&|,|,?\s{1,2}and)\s{0,2}", re.IGNORECASE)
# (a weekday with its date: "mon 23 + tue 24 feb")
_ENDS_WEEKDAY = re.compile(rf"\b{_WEEKDAYS}s?(?:\s(?:the\s)?\d{{1,2}}(?:st|nd|rd|th)?)?$",
                           re.IGNORECASE)
_ENDS_DATED = re.compile(r"\d(?:st|nd|rd|th)?$", re.IGNORECASE)
_STARTS_WEEKDAY = re.compile(rf"{_WEEKDAYS}s?\b", re.IGNORECASE)


def joins_day_set(before: str, gap: str, after: str) -> bool:
    """Whether the value ``after`` continues a set of weekdays ending ``before``."""
    if _ENDS_DATED.search(before) is not None and gap.strip() in (",", "/"):
        return False  # "moved to tue 3rd, fri 6th stays": two days said apart
    return (_DAY_SET_GAP.fullmatch(gap) is not None and _ENDS_WEEKDAY.search(before) is not None
            and _STARTS_WEEKDAY.match(after) is not None)


def names(text: str) -> list[str]:
    """Capitalised words not at a sentence start: people, places, products."""
    out = []
    for m in _NAME.finditer(clean(text)):
        word = m.group(1)
        if word.lower() not in STOPWORDS and not is_calendar_word(word):
            out.append(word)
    return out


_CALENDAR_WORD = re.compile(f"{_WEEKDAYS}|{_MONTHS}", re.IGNORECASE)
WEEKDAY = re.compile(rf"\b{_WEEKDAYS}\b", re.IGNORECASE)
_WEEKDAY_SAID = re.compile(rf"\b({_WEEKDAYS})s?\b", re.IGNORECASE)


def weekdays_in(text: str) -> set[str]:
    """The weekdays ``text`` names, by their first three letters ("sundays 9–10am" →
    {"sun"}; "tues", "Thursday", "weds" alike)."""
    return {m.group(1).lower()[:3] for m in _WEEKDAY_SAID.finditer(text[:500])}


def names_a_date(text: str) -> bool:
    """Whether ``text`` names a day of the month or a month ("15th", "3/6", "june"), not
    only weekdays ("tue + thu 10am")."""
    return _DATED.search(text[:500]) is not None


_DATED = re.compile(rf"\b\d{{1,2}}(?:st|nd|rd|th)\b|\b\d{{1,2}}[/.]\d{{1,2}}\b|\b{_MONTHS}\b",
                    re.IGNORECASE)


def is_calendar_word(word: str) -> bool:
    """Whether ``word`` names a weekday or a month ("Fri", "Friday", "Sept")."""
    return _CALENDAR_WORD.fullmatch(word) is not None


def grounded(quote: str, source: str, *, min_overlap: float = 0.8) -> bool:
    """A quote is grounded when it is a substring of the source or nearly all its words are."""
    q = " ".join(tokens(quote))
    s = " ".join(tokens(source))
    if not q:
        return False
    if q in s:
        return True
    qt = tokens(quote)
    st = set(tokens(source))
    return sum(1 for t in qt if t in st) / len(qt) >= min_overlap


def shorten(text: str, limit: int = 160) -> str:
    text = " ".join(clean(text).split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
