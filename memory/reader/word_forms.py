"""The forms by which a question's words match what a message says: a word's stems and
short forms, the day an ordinal names, the hours a clock time names, and compounds written
open or closed ("call out" / "callout", "tool box" / "toolbox")."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence

from memory.analysis.cue_words import WEEKDAY_SPELLINGS
from memory.analysis.question import words
from memory.analysis.question_words import Word
from memory.analysis.reason_words import CHAT_SHORTHAND
from memory.reader.features import relevance_terms
from memory.text import STOPWORDS, stem

__all__ = ["anchor_forms", "closed_compounds", "forms", "part_of", "unit_forms"]


@functools.lru_cache(maxsize=8192)
def forms(word: str) -> frozenset[str]:
    """The ways a word can be matched: itself, its light stem, its Snowball stem."""
    low = word.lower()
    # "the 26th" is the day "sat 26 july" names
    day = _ORDINAL.fullmatch(low)
    extra: tuple[str, ...] = (day.group(1),) if day is not None else ()
    clock = _CLOCK.fullmatch(low)
    if clock is not None:  # "11am" is the 11 of "moved to 11", "9pm" the 21 of "21:00"
        hour = int(clock.group(1))
        pm = clock.group(2).startswith("p") and hour < 12
        extra += (str(hour), str(hour + 12)) if pm else (str(hour),)
    full = CHAT_SHORTHAND.get(low) or (WEEKDAY_SPELLINGS.get(low) if low != "sat" else None)
    if full is not None:  # "ppl" is people, "sun" sunday ("sat" is as often a verb)
        extra += (full, stem(full), *relevance_terms(full))
    # (a part of a compound that is a function word matches nothing: "ride-on" is no "on")
    parts = [t for t in relevance_terms(low)
             if t == low or "-" not in low or t not in STOPWORDS]
    return frozenset({low, stem(low), *parts, *extra})


_ORDINAL = re.compile(r"(\d{1,2})(?:st|nd|rd|th)")
_CLOCK = re.compile(r"(\d{1,2})(?:[:.]\d{2})?(am|pm|a\.m\.|p\.m\.)")


# The same few hundred messages are read for every question of a session: their word forms
# and value kinds are pure functions of their text, kept for the next question.
@functools.lru_cache(maxsize=4096)
def unit_forms(text: str) -> frozenset[str]:
    out: set[str] = set()
    ws = words(text)
    # a compound written open covers the closed one ("tool box" / "toolbox")
    out.update(a + b for a, b in _open_compounds(ws))
    # a measure spelled out covers it written short ("every 6 hours" / "6h")
    for a, b in zip(ws, ws[1:], strict=False):
        if a.low.isdigit() and b.low in _SHORT_FORMS and b.start - a.end <= 1:
            out.update(a.low + short for short in _SHORT_FORMS[b.low])
    for w in ws:
        out |= forms(w.low)
        # "ledger-api" also covers "ledger" and "api".
        if "-" in w.low or "_" in w.low:
            for part in re.split(r"[-_]", w.low):
                if part:
                    out |= forms(part)
            if "-" in w.low:
                out |= forms(w.low.replace("-", ""))  # "pre-orders" is "preorders" closed
        measured = _MEASURED.fullmatch(w.low)
        if measured is not None:
            out.add(measured.group(1))  # "72h" says the 72 of "72 hours notice"
            unit = CHAT_SHORTHAND.get(measured.group(2))
            if unit is not None:  # "now 28pp" says the pages of "how many pages"
                out |= forms(unit)
    return frozenset(out)


#: The units a number is written against short ("6h") and the words that spell them out
#: ("6 hours"): either way says the same measure. (No bare "s": "the 7s", "80s theme" and
#: "the 2s" are sevens, decades and second teams, not seconds.)
SPELLED_UNITS: dict[str, tuple[str, ...]] = {
    "h": ("hours", "hour", "hrs", "hr"), "hr": ("hours", "hour"), "hrs": ("hours", "hour"),
    "min": ("minutes", "minute", "mins"), "mins": ("minutes", "minute"),
    "sec": ("seconds", "second", "secs"), "secs": ("seconds", "second"),
    "d": ("days", "day"), "wk": ("weeks", "week"), "wks": ("weeks", "week"),
    "km": ("kilometres", "kilometers", "km"),
    # a measure written with a space before its unit ("capping it at 12 m" / "12m")
    "m": ("metres", "meters", "m"), "cm": ("centimetres", "centimeters", "cm"),
    "mm": ("millimetres", "millimeters", "mm"), "kg": ("kilos", "kilograms", "kg"),
    "ft": ("feet", "foot", "ft"),
}
# Each spelled-out unit word with every short form of its measure ("hrs" → h, hr, hrs).
_SHORT_FORMS: dict[str, tuple[str, ...]] = {
    full: tuple(short for short, spelled in SPELLED_UNITS.items() if spelled[0] == fulls[0])
    for fulls in SPELLED_UNITS.values() for full in fulls
}


def spelled_out(word: str) -> tuple[str, ...]:
    """``word`` ("6h") as a chat may spell it out ("6 hours", "6 hour"), or ()."""
    m = _SHORT_MEASURE.fullmatch(word)
    if m is None:
        return ()
    return tuple(f"{m.group(1)} {full}" for full in SPELLED_UNITS[m.group(2)])


_SHORT_MEASURE = re.compile(r"(\d{1,4})(" + "|".join(sorted(SPELLED_UNITS, key=len, reverse=True))
                            + r")")


#: Units a number is written against ("72h", "30min"), as a chat may write a measure.
MEASURE_UNITS: tuple[str, ...] = ("h", "hr", "hrs", "min", "mins", "k", "kg", "km", "x", "d",
                                  "wk", "wks", "pp", "pgs")
_MEASURED = re.compile(r"(\d{1,6})(" + "|".join(MEASURE_UNITS) + r")")


def _open_compounds(ws: Sequence[Word]) -> Iterator[tuple[str, str]]:
    """The adjacent word pairs of ``ws`` that may be one compound written open ("call out",
    "tool box"): one space apart, both plain words, the first no function word."""
    for a, b in zip(ws, ws[1:], strict=False):
        first, second = a.low, b.low
        if (b.start - a.end == 1 and first.isalpha() and second.isalpha() and len(first) >= 3
                and len(second) >= 2 and first not in STOPWORDS
                and (second not in STOPWORDS or second in _PARTICLES)):
            yield first, second


# The adverbs a compound verb or noun ends in ("call out", "set up", "drop off").
_PARTICLES = frozenset({"out", "up", "off", "over", "down", "back", "in", "on"})


def closed_compounds(text: str) -> dict[str, str]:
    """Each word of ``text`` that opens or ends a compound written open, with the compound
    closed ("call out fee": call → callout)."""
    out: dict[str, str] = {}
    for a, b in _open_compounds(words(text)):
        out.setdefault(a, a + b)
        out.setdefault(b, a + b)
    return out


def part_of(value: str, held: str) -> bool:
    """Whether ``value`` is said inside ``held`` whole ("5:30" of "Tue 20 Oct, 5:30pm"; not
    "10" of "10:30")."""
    return any(ch.isdigit() for ch in value) and re.search(
        rf"(?<![\w:.]){re.escape(value.strip())}(?![:.]?\d)", held, re.IGNORECASE) is not None \
        and value.strip().lower() != held.strip().lower()


# A time of day with its minutes ("5:15am", "7.45"): its hour is not a value said alone.
_MINUTES = re.compile(r"(?<![\d:.])(\d{1,2})[:.]([0-5]\d)(?![\d:.])")


def anchor_forms(value: str) -> frozenset[str]:
    """``value``'s forms as a change's anchor can name it: "before it went to 5" names
    "5am" and "5:00", not "5:15am" (an hour said alone is on the hour)."""
    found = unit_forms(value)
    timed = [m for m in _MINUTES.finditer(value) if m.group(2) != "00"]
    if not timed:
        return found
    alone = unit_forms(_MINUTES.sub(" ", value))
    hours = {f for m in timed for f in forms(m.group(1))}
    return found - (hours - alone)
