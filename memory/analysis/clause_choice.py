"""The named choice a clause states when no slot pattern found one ("Outing decided: bowling
alley", "going with X", "X instead of Y", "the venue is now Albion House"): a base of
:class:`~memory.analysis.clause_reader.ClauseReader`."""

from __future__ import annotations

import re

from memory.analysis.clause_parts import _label_led
from memory.analysis.lexicon import CHOICE_NOUNS, CLAUSE_VERBS, DISCOURSE, Lexicon
from memory.analysis.message_patterns import (
    _CHOICE_AFTER,
    _COPULAS,
    _FROM_NAME,
    _INSTEAD_CHOICE,
    _IS_NAME,
    _IS_NAME_OF,
    _NOT_NAME,
    _NOW_VALUE,
    _PRONOUNS,
    _SUBJECT_PRONOUNS,
    _SWITCHED_TO,
    _TO_NAME,
)
from memory.analysis.old_names import swap_lead
from memory.analysis.subject_phrases import _PROPER_WORDS, _trim_phrase
from memory.analysis.values import Kind, Value, titled_end, tokenize
from memory.text import STOPWORDS, is_calendar_word

__all__ = ["ClauseChoice"]

# Words before "ordering from X" that leave X rather than choose it.
_LEAVING = re.compile(r"\b(?:stop|stopped|stopping|no longer|not|don't|dont|never|quit|"
                      r"won't|wont|avoid)\b", re.IGNORECASE)


class ClauseChoice:
    """A clause's named choice, read with ``lexicon``."""

    lexicon: Lexicon

    def _choice(self, part: str, start: int, values: tuple[Value, ...],
                label: str) -> Value | None:
        """A named choice that no pattern found: "Outing decided: bowling alley" (a short
        slot-less phrase after a deciding label), "going with X", "X instead of Y"."""
        if any(v.kind in (Kind.CHOICE, Kind.PERSON, Kind.PLACE) for v in values):
            return None
        toks = tokenize(part)
        label_words = {t.low.removesuffix("'s") for t in tokenize(label)}
        led = _label_led(part, start, values) if label else None
        if led is not None:
            return led
        if (label and not values and 1 <= len(toks) <= 5 and not part.rstrip().endswith("?")
                and (label_words & CHOICE_NOUNS or self.lexicon.decision.search(label)
                     or self.lexicon.change_strength(label) >= 0.5)
                and any(t.low not in STOPWORDS for t in toks)
                and not any(t.low in _COPULAS or t.low in CLAUSE_VERBS for t in toks)):
            text = part.strip().rstrip(".!")
            offset = start + part.find(text)
            return Value(Kind.CHOICE, text, offset, offset + len(text))
        strength = self.lexicon.change_strength(part)
        change = strength >= 0.5 or self.lexicon.change_strength(label) >= 0.5
        # a proposal or a decision names what it gets from somewhere as much as a change
        # ("… from Henley Wholesale now": what is got from somewhere *now* is a change too)
        decides = change or strength >= self.lexicon.change_cues["now"] or bool(
            self.lexicon.proposal.search(part) or self.lexicon.decision.search(part))
        for pattern, needs in ((_TO_NAME, change), (_FROM_NAME, decides), (_IS_NAME, True),
                               (_IS_NAME_OF, True)):
            found = pattern.search(part)
            if found is None or not needs:
                continue
            name = found.group("v")
            name = part[found.start("v"):titled_end(part, name, found.end("v"))]
            at = start + found.start("v")
            if pattern is _FROM_NAME and _LEAVING.search(part[max(0, found.start() - 30):
                                                             found.start()]):
                continue  # "we stop ordering from Hillside Farm": the name is left
            if (any(v.start <= at < v.end for v in values) or is_calendar_word(name.split()[0])
                    or name.split()[0].lower() in _PRONOUNS):
                continue
            # ("talk on the 19th is Prof. Alvarez": a title names a person)
            kind = Kind.PERSON if _TITLED.match(name) else Kind.CHOICE
            return Value(kind, name, at, at + len(name))
        won = _WINS.search(part)
        if won is not None and (label or _POLL.search(part)) \
                and not _GAME.search(f"{label} {part}") \
                and won.group("v").split()[0].lower() not in _WINNERS_NOT \
                and not any(start + won.start("v") < v.end and v.start < start + won.end("v")
                            for v in values):
            at = start + won.start("v")  # "shirts result: black wins 14-6"
            return Value(Kind.CHOICE, won.group("v"), at, at + len(won.group("v")))
        swap = _SWAPPED_FOR.search(part)
        if swap is not None and not _NAMES_NOTHING.match(swap.group("v")) and not any(
                start + swap.start("v") < v.end and v.start < start + swap.end("v")
                for v in values):
            at = start + swap.start("v")  # "swapping North Reef for Kettle Cove"
            return Value(Kind.CHOICE, swap.group("v"), at, at + len(swap.group("v")))
        now = _now_value(part, start, values)
        if now is not None:
            return now
        old_name = _NOT_NAME.search(part)
        if old_name is not None:
            other = next((n for n in _PROPER_WORDS.finditer(part)
                          if n.start() != old_name.start("v") and not is_calendar_word(n.group(0))
                          and n.start() > 0 and n.group(0).lower() not in DISCOURSE), None)
            if other is not None:
                return Value(Kind.CHOICE, other.group(0), start + other.start(),
                             start + other.end())
        m = _CHOICE_AFTER.search(part) or _INSTEAD_CHOICE.search(part) or _SWITCHED_TO.search(part)
        if m is not None and not any(start + m.start("v") <= v.start < start + m.end("v")
                                     for v in values if not _after_a_name(m, v.start - start)):
            phrase = _trim_phrase(m.group("v"))
            # ("how about a family movie night basket"; "going with the Anchor": a name
            # said after a lower-case article is the name alone)
            lead = re.match(r"(?:a|an|the|some|our)\s(?=[a-z])|the\s(?=[A-Z])", phrase)
            skip = lead.end() if lead is not None and len(phrase.split()) > 1 else 0
            phrase = phrase[skip:]
            named_before = _named_before(part, m) if phrase.lower() in _CHOSEN_PRONOUNS else None
            if named_before is not None:
                # "Kookaburra Broadband does 250 Mbps …, going with them": the name said
                return Value(Kind.CHOICE, named_before.group(0), start + named_before.start(),
                             start + named_before.end())
            first = phrase.split()[0] if phrase else ""
            named = (first[:1].isupper() and len(phrase.split()) > 1  # "The Lake"
                     and first.lower() not in _PRONOUNS and first.lower() not in _SUBJECT_PRONOUNS)
            # (nor a word of talk: "to cover hall hire tbh")
            if phrase and not all(w in DISCOURSE for w in phrase.lower().split()) and (
                    named or (first.lower() not in STOPWORDS
                              and first.lower() not in _PRONOUNS)):
                at = start + m.start("v") + skip
                return Value(Kind.CHOICE, phrase, at, at + len(phrase))
        return None


# What a swap takes in place of what it gives up: "swapping North Reef for Kettle Cove",
# "replacing the ETX with the 102 refractor" (a name, or up to three plain words to the end
# of the part; not "swap shifts with Tom": whom one swaps with is no new value).
_SWAPPED_FOR = re.compile(
    swap_lead() + r"(?P<v>[A-Z][\w'’&-]{0,24}(?:\s[A-Z][\w'’&-]{0,24}){0,3}|[a-z0-9][\w'’&-]{1,24}"
    r"(?:\s[a-z][\w'’&-]{1,24}){0,2})(?=\s?(?:[.,;:!?)]|$))")
# What a swap takes that names nothing ("new ones", "somewhere closer").
_NAMES_NOTHING = re.compile(r"(?:new|a new|another|some|any|every|no)(?:\s|one|thing|where|body)",
                            re.IGNORECASE)
# A person's title before their name.
_TITLED = re.compile(r"(?:Dr|Prof|Mr|Mrs|Ms|Rev|Capt)\.?\s[A-Z]")
# What a vote or a poll settled on: "black wins 14-6", "Ridgeway won the vote".
_WINS = re.compile(r"(?:^\W{0,3}|,\s)(?:(?i:so|ok|and)\W{1,3})?(?:the\s)?(?P<v>[\w'’&-]{2,24}"
                   r"(?:\s[\w'’&-]{2,24}){0,2}?)\s(?:wins|won)\b(?=\s(?:\d{1,3}\s?[-–]\s?\d{1,3}|"
                   r"the\s(?:vote|poll)|by|it|hands\sdown|comfortably|easily)\b|\s?[.!,;]|\s?$)")
_POLL = re.compile(r"\b(?:vote[sd]?|poll|result|results)\b",
                   re.IGNORECASE)
# A game's result, not a vote's ("Rovers won 3-1 vs Harriers", "FT result: …").
_GAME = re.compile(r"\b(?:vs?\.?|versus|against|beat|ft|ht|full[- ]time|half[- ]time|goals?|"
                   r"match|game|away|home|final score|"
                   r"\d{1,3}\s?[-–]\s?\d{1,3}\s(?:win|loss|defeat))\b",
                   re.IGNORECASE)
# Who wins a game rather than a vote.
_WINNERS_NOT = frozenset({"we", "they", "he", "she", "i", "you", "it", "nobody", "who",
                          "everyone", "team", "our", "their", "my", "his", "her"})
# Pronouns a choice verb takes for a thing named before it in the clause.
_CHOSEN_PRONOUNS = frozenset({"them", "it", "those", "that one", "this one"})
# Two or more capitalised words: a thing's name ("Kookaburra Broadband").
_NAME_RUN = re.compile(r"\b[A-Z][\w'’&-]{1,24}(?:\s[A-Z][\w'’&-]{1,24}){1,3}\b")


def _named_before(part: str, m: re.Match[str]) -> re.Match[str] | None:
    """The last name of two or more capitalised words before the choice verb of ``m``, not
    opening the clause with a word of talk or a day."""
    found = None
    for n in _NAME_RUN.finditer(part, 0, m.start()):
        words_ = n.group(0).split()
        if words_[0].lower() not in DISCOURSE and not any(is_calendar_word(w) for w in words_):
            found = n
    return found


def _after_a_name(m: re.Match[str], at: int) -> bool:
    """Whether a value at ``at`` in the part comes after the name the choice opens with,
    beyond it ("locking in CapeFoam for the year at 8% off": the discount is another part)."""
    phrase = _trim_phrase(m.group("v"))
    first = phrase.split()[0] if phrase else ""
    return (first[:1].isupper() and not is_calendar_word(first)
            and first.lower() not in DISCOURSE and at >= m.start("v") + len(phrase))


# A plain noun phrase in lower case ("shooting script", "new venue").
_COMMON_NOUNS = re.compile(r"[a-z][a-z'’-]{1,20}(?:\s[a-z][a-z'’-]{1,20}){0,2}")
# A name opening the clause, with a bracketed aside after it ("v8 (blue pages) ").
_NAME_BEFORE = re.compile(r"^\W{0,3}(?:(?i:so|ok|okay|and|but|right)\W{1,3})?"
                          r"(?P<v>(?:[A-Z][\w'’&-]{0,24}|[A-Za-z]{0,6}\d[\w.]{0,10})"
                          r"(?:\s[A-Z][\w'’&-]{0,24}){0,2})"
                          r"(?:\s\([^()]{1,30}\))?\s{1,3}$")


# A bracketed aside after a name, up to what is said of it ("v8 (blue pages) is now …").
_ASIDE = re.compile(r"(?:\s\([^()]{1,30}\))?\s{1,3}")


def now_thing(masked: str, value: Value) -> str:
    """The thing a named value is now the value of ("shooting script" of "v8 (blue pages) is
    now the shooting script"), or "": read as :func:`_now_value` reads it."""
    if value.kind is not Kind.CHOICE:
        return ""
    aside = _ASIDE.match(masked, value.end)
    now = _NOW_VALUE.match(masked, aside.end()) if aside is not None else None
    return _thing_named(now) if now is not None else ""


def _thing_named(now: re.Match[str]) -> str:
    """What "<name> is now the <thing>" says the name is, when it is a plain noun phrase
    ("shooting script", "owner"), or ""."""
    if not now.group("a"):
        return ""
    phrase = _trim_phrase(now.group("a").strip())
    lead = re.match(r"(?:a|an|the|our)\s(?=\w)", phrase)
    thing = phrase[lead.end():] if lead is not None else ""
    return thing if _COMMON_NOUNS.fullmatch(thing) else ""


def _now_value(part: str, start: int, values: tuple[Value, ...]) -> Value | None:
    """What a thing is said to be *now* ("the venue is now Albion House", "caterer is
    Saffron & Salt now"): a short phrase that is no pronoun, function word or day."""
    now = _NOW_VALUE.search(part)
    if now is None:
        return None
    group = "a" if now.group("a") else "b"
    phrase = _trim_phrase(now.group(group).strip())
    lead = re.match(r"(?:a|an|the|our)\s(?=\w)", phrase)
    phrase = phrase[lead.end():] if lead is not None else phrase
    if _thing_named(now):
        # "v8 (blue pages) is now the shooting script", "Priya is now the owner": the
        # name before is the value, what it is now is the thing it is the value of
        named = _NAME_BEFORE.search(part[:now.start()])
        head = named.group("v").split() if named is not None else []
        head = head[1:] if head[:1] == ["The"] and len(head) > 1 else head  # "The Albion"
        if named is not None and head[0].lower() not in STOPWORDS \
                and head[0].lower() not in _PRONOUNS and not any(
                    v.start < start + named.end("v") and start + named.start("v") < v.end
                    for v in values):
            at = start + named.start("v")
            return Value(Kind.CHOICE, named.group("v"), at, at + len(named.group("v")))
    first = phrase.split()[0].lower() if phrase else ""
    at = start + now.start(group) + now.group(group).find(phrase)
    if (phrase and first not in STOPWORDS and first not in _PRONOUNS
            and not is_calendar_word(first) and len(phrase.split()) <= 4
            and not any(v.start < at + len(phrase) and at < v.end for v in values)):
        # a phrase holding a value ("blueflame is coming fridays now") is that value's
        return Value(Kind.CHOICE, phrase, at, at + len(phrase))
    return None
