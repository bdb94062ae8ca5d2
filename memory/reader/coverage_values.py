"""Whether a unit holds the value an amount or clock question asks for: "how many people…"
is answered by a number, never by a name alone; "what time does it start" by a time of
day, never by a day alone. Read in the unit's own words, not the writer's notes (which
carry resolved dates)."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from memory.analysis.cue_words import MONTH_WORDS, NUMBER_WORDS, PLACE_NOUNS, _alternation
from memory.analysis.definitions import QuestionKind
from memory.analysis.lexicon import default_lexicon
from memory.analysis.question import QuestionAnalysis, words
from memory.analysis.value_types import Kind
from memory.analysis.values import find_values, mask
from memory.text import STOPWORDS, Slot, find_slots, has_time_of_day

if TYPE_CHECKING:
    from memory.reader.coverage import Unit

__all__ = ["NAMELESS_FAMILIES", "asks_a_count", "asks_a_temperature", "says_a_temperature",
           "asks_a_length", "other_period", "said",
           "says_a_bare_sum", "says_a_clock", "says_a_length", "numbered_noun", "says_a_number",
           "says_a_numbered", "says_a_percent", "says_a_record_number", "says_an_address",
           "is_a_percent", "address_in", "asks_an_address", "common_place", "tells_a_sum"]

#: Value families that are never a place or a name ("which company" is not answered by a
#: day, an amount or a version).
NAMELESS_FAMILIES = frozenset({"when", "amount", "version"})

# A number in digits or words, or a word standing for one ("a dozen", "a couple").
_NUMBER_WORDS = frozenset({*NUMBER_WORDS, "forty", "dozen", "half", "couple"})
_NUMBER = re.compile(r"\d|\b(?:" + "|".join(sorted(_NUMBER_WORDS)) + r")\b", re.IGNORECASE)
# A sum of money as an answer's first line gives it: a number, or a word for a sum ("a
# tenner", "a few quid", "free", "nothing").
_SUM = re.compile(r"\d|\b(?:" + "|".join(sorted({
    *_NUMBER_WORDS, "few", "hundreds", "thousand", "thousands", "grand", "tenner", "fiver",
    "quid", "free", "nothing", "zero", "none"})) + r")\b", re.IGNORECASE)
# A number of things ("2 fewer classes", "one show"), not of money ("20 quid", "5 each").
_COUNTED = re.compile(r"\b(?:\d{1,9}|" + "|".join(sorted(_NUMBER_WORDS)) + r")\s"
                      r"(?:(?:more|fewer|less|extra|other)\s)?"
                      r"(?!(?:quid|grand|bucks?|dollars?|pounds?|euros?|pence|cents?|each|pp|"
                      r"per|a|an|off|for|total|k|p)\b)(?P<noun>[a-z]{3,20})\b", re.IGNORECASE)
# Words after a number that count nothing ("50 yeah", "20 tops").
_NOT_THINGS = frozenset({"yeah", "yep", "yes", "yup", "ok", "okay", "then", "now", "tops",
                         "max", "min", "ish", "flat", "cash", "even", "all", "including"})
# A share in digits ("9%", "8.5 percent").
_PERCENT = re.compile(r"\d\s?(?:%|percent\b|per cent\b)", re.IGNORECASE)
# The slots whose digits count nothing: a day, a time, a version.
_NOT_COUNTS = frozenset({"date", "time", "version"})
# The slots that are no identifying number ("build 1.8.2" and "room 2.14" are).
_NOT_NUMBERS = frozenset({"date", "time", "money"})
# A time written as four digits ("eta 1430", "PU 0630").
_HOURS = re.compile(r"(?<![\d/.:,-])(?:[01]\d|2[0-3])[0-5]\d(?![\d/.:,-]\d)")
# a time of day inside a moment ("tonight 6.30", "sat 9:15")
_CLOCK_IN = re.compile(r"\d:[0-5]\d|\d\.(?:00|15|30|45)\b|\d\s?(?:am|pm)\b", re.IGNORECASE)
# a span of hours ending a range ("sat 21st, 10-5", "weds 6-9"), not of days ("3-5 july")
_HOUR_SPAN = re.compile(r"(?<![\d/])(?:[01]?\d|2[0-4])(?:\s?[-–]\s?|\s(?:to|till|until)\s)"
                        r"(?:[01]?\d|2[0-4])$")


def asks_a_count(qa: QuestionAnalysis) -> bool:
    """Whether the question asks how many or how much of a thing (a count opened by "how
    much": see :func:`memory.analysis.question_family.openers`)."""
    return qa.measure == "count" or (qa.family == "count" and "how much" in qa.cues)


# The families asking a sum of money. (Counts and lengths asked of someone's life, "how
# long has she had them", are often answered by the sentence telling it in words: with
# them, LoCoMo dev own questions answered fell 0.920 → 0.899.)
_SUM_FAMILIES = frozenset({"money", "price"})


def tells_a_sum(qa: QuestionAnalysis, short: str) -> bool:
    """Whether ``short``, an answer's value, gives the sum of money ``qa`` asks for, if it
    asks one ("how much is a pint of pink slip" is not answered by "on it"; a *who* or
    *why* question asks no sum, however it is worded), or how many when it asks that (a
    number or a word for one, never only a price or a day)."""
    if qa.kind in (QuestionKind.WHO, QuestionKind.WHY):
        return True
    if qa.measure == "count":
        # "how many raffle tickets have we sold" is not answered by their price, nor a day
        return _count_in(short)
    if qa.family not in _SUM_FAMILIES:
        return True
    return _sum_in(short, frozenset(t.lower().removesuffix("s") for t in qa.terms))


def _count_in(text: str) -> bool:
    """Whether ``text`` holds a number that is no sum of money, day or time of day."""
    text = _without_moments(text, find_slots(text), money=True)
    return _SUM.search(text) is not None or _QUANTITY.search(text) is not None


def _without_moments(text: str, slots: Sequence[Slot], *, money: bool = False) -> str:
    """``text`` with the days and times of day among its ``slots`` blanked (not "12.50"),
    and with ``money`` its sums too."""
    for sl in sorted(slots, key=lambda x: -x.start):
        if sl.kind.value == "date" or (money and sl.kind.value == "money") or (
                sl.kind.value == "time" and has_time_of_day(sl.text)):
            text = text[:sl.start] + " " + text[sl.end:]
    return text


# Words that tell how many without a number ("a handful so far", "loads", "both").
_QUANTITY = re.compile(r"\b(?:handful|several|couple|dozens?|loads|lots|plenty|both|all|"
                       r"nobody|no\sone|noone|everyone|everybody|half)\b", re.IGNORECASE)


@functools.lru_cache(maxsize=4096)
def _sum_in(text: str, asked: frozenset[str] = frozenset()) -> bool:
    """Whether ``text`` holds a sum: an amount, or a number that is no day, time or count of
    things other than those ``asked`` of ("one show won't fit … w 2 fewer classes" holds
    none; "80 animals" is the animal cap asked), or a word for one."""
    slots = find_slots(text)
    if any(s.kind.value == "money" for s in slots):
        return True
    text = _without_moments(text, slots)

    def other_things(m: re.Match[str]) -> str:
        noun = m.group("noun").lower()
        kept = noun in STOPWORDS or noun in _NOT_THINGS or noun.removesuffix("s") in asked
        return m.group(0) if kept else " "
    return _SUM.search(_COUNTED.sub(other_things, text)) is not None


def asks_a_percent(qa: QuestionAnalysis) -> bool:
    """Whether the question asks a share ("what fee % did we put in", "what percentage")."""
    return _ASKS_PERCENT.search(qa.text) is not None


_ASKS_PERCENT = re.compile(r"%|\bper\s?cent(?:age)?\b", re.IGNORECASE)


def asks_a_temperature(qa: QuestionAnalysis) -> bool:
    """Whether the question asks a temperature ("what temp is the ferment at", "how hot
    does the kiln go")."""
    return _ASKS_TEMPERATURE.search(qa.text) is not None


def says_a_temperature(unit: Unit) -> bool:
    """Whether ``unit`` states a temperature ("18°C", "65 degrees", "1240c")."""
    return _TEMPERATURE.search(said(unit)) is not None


_ASKS_TEMPERATURE = re.compile(r"\b(?:temps?|temperatures?|degrees|how\s(?:hot|cold|warm))\b",
                               re.IGNORECASE)
_TEMPERATURE = re.compile(r"\d\s?(?:°|º|degrees?\b|deg\b|[cf]\b)", re.IGNORECASE)


def is_a_percent(value: str) -> bool:
    """Whether ``value`` is a share ("75%", "8.5 percent")."""
    return _PERCENT.search(value) is not None


def said(unit: Unit) -> str:
    """What a unit says in its own words: the message (and the answers it got), or the
    state's values."""
    if unit.state is not None:
        return " ".join(e.value for e in unit.state.chain if e.value)
    if unit.node is not None:
        return " ".join([unit.node.text, *(a.text for a in unit.answers)])
    return unit.told


def says_a_number(unit: Unit, *, money: bool = True) -> bool:
    """Whether ``unit`` states a number other than a day's, a time's or a version's ("the
    Ferry Inn wants bread from mon 11 may, 7am drop" counts nothing); without ``money``, an
    identifying number: neither a day, a time nor an amount (a jersey's number is no price;
    "build 1.8.2" is a build number)."""
    return _counts(said(unit), _NOT_COUNTS if money else _NOT_NUMBERS)


@functools.lru_cache(maxsize=4096)
def _counts(text: str, kinds: frozenset[str]) -> bool:
    spans = [(s.start, s.end) for s in find_slots(text) if s.kind.value in kinds]
    for start, end in reversed(spans):
        text = text[:start] + " " + text[end:]
    return _NUMBER.search(text) is not None


def says_a_record_number(unit: Unit) -> bool:
    """Whether ``unit`` states a number a record is known by: four digits or more ("acct
    40177823", "#48213", "07700 900123") or a code mixing letters and digits ("SO-4471"),
    none of them a day, a time or an amount ("off 11-15th" names no account)."""
    return _records(said(unit))


@functools.lru_cache(maxsize=4096)
def _records(text: str) -> bool:
    spans = [(s.start, s.end) for s in find_slots(text) if s.kind.value in _NOT_NUMBERS]
    for start, end in reversed(spans):
        text = text[:start] + " " + text[end:]
    return _RECORD.search(text) is not None


# A number a record is known by: "#4821", four digits or more ("4471", "40177823"; not a
# year), digits in groups ("07700 900123", "12-34-56"; not the days "11-15"), or a code of
# letters then three digits or more ("SO-4471", "INV2291"; not "v12", "covid19").
_RECORD = re.compile(r"#\d{3,20}|(?<![\w.,])(?:(?!(?:19|20)\d\d(?!\d))\d{4,20}|\d{3,5}[\s-]\d{4,8}|"
                     r"\d{2,5}(?:[\s-]\d{2,6}){2,6})(?![\w%])|\b[a-z]{1,4}-?\d{3,12}"
                     r"[a-z\d]{0,6}\b", re.IGNORECASE)


def says_a_percent(unit: Unit) -> bool:
    """Whether ``unit`` states a percentage ("9%", "8.5 percent")."""
    return _PERCENT.search(said(unit)) is not None


def says_a_bare_sum(unit: Unit, price_words: frozenset[str]) -> bool:
    """Whether ``unit`` prices something in a bare number: it says a word for a price
    ("rate", "price", "fee"), in its own words or in the question it answers, and a number
    that is no day, time or count of other things ("half day rate for spree too?" → "half
    day spree 140")."""
    if unit.node is None:
        return False
    said_words = set(re.findall(r"[a-z]{2,20}", f"{unit.told} {unit.context}".lower()))
    if not said_words & price_words:
        return False
    # (a short answer is the number asked; in a longer message the number must be said
    # by the price word: "we have 6, two are from 2022" prices nothing)
    told = unit.told.lower()
    if _ASKING.match(told):
        return False  # "whats the price on 2.4 CLS now" asks, without its question mark
    if len(told.split()) > _SHORT_PRICE_WORDS:
        near = re.search(r"\b(?:" + "|".join(sorted(price_words)) + r")\b[\s:=]{1,3}"
                         r"(?:\w{1,15}\s){0,2}\d|\d[\d.,]{0,9}\s(?:\w{1,15}\s){0,2}"
                         r"(?:" + "|".join(sorted(price_words)) + r")\b", told[:_MAX_TOLD])
        if near is None:
            return False
    return _sum_in(unit.told)


# A question written without its question mark ("whats the price on …").
_ASKING = re.compile(r"\s{0,3}(?:what|whats|what's|how|hows|how's|is|are|does|do|any)\b")
# How many words an answer holding a bare price may have; the longest text read for one.
_SHORT_PRICE_WORDS = 6
_MAX_TOLD = 2000


def other_period(question: str, told: str) -> bool:
    """Whether ``question`` asks a rate by one period ("day rate", "hourly", "a night") and
    ``told`` gives rates by other periods only ("35/h → 40/h" answers no day rate)."""
    asked = {_PERIODS[(m.group(1) or m.group(2)).lower()]
             for m in _PERIOD_ASKED.finditer(question[:300])}
    if len(asked) != 1:
        return False
    given = {_PERIODS[u] for m in _PER_UNIT.finditer(told[:_MAX_TOLD])
             if (u := m.group("unit").lower()) in _PERIODS}
    return bool(given) and not given & asked


# The period a rate is by, as asked ("day rate", "hourly", "per night") and as given after
# an amount (:data:`_PER_UNIT`: "40/h", "£80 a night", "495/day").
_PERIODS = {"h": "hour", "hr": "hour", "hour": "hour", "hourly": "hour", "d": "day",
            "day": "day", "daily": "day", "night": "night", "nightly": "night",
            "week": "week", "wk": "week", "weekly": "week", "month": "month", "mo": "month",
            "monthly": "month", "year": "year", "yr": "year", "yearly": "year",
            "annual": "year"}
_PERIOD_ASKED = re.compile(r"\b(hourly|daily|nightly|weekly|monthly|yearly|annual|"
                           r"(?:hour|day|night|week|month|year)(?=\s(?:rate|price|fee|charge|"
                           r"hire|cost)))\b|\b(?:per|an?|by\sthe)\s(hour|day|night|week|"
                           r"month|year)\b", re.IGNORECASE)


def says_a_rate(unit: Unit) -> bool:
    """Whether ``unit`` states an amount per something or a share ("£20/hr", "14.50 an
    hour", "495/day", "9%"): what "rate" names."""
    text = said(unit)
    return _PER_UNIT.search(text) is not None or _PERCENT.search(text) is not None


# An amount by a unit of time or of people ("£20/hr", "14.50 an hour", "£80 pp").
_PER_UNIT = re.compile(r"\d\s?(?:/|per\s|an?\s|p)(?P<unit>hr|hour|h|day|d|wk|week|month|mo|year|"
                       r"yr|night|head|person|p|session|class|lesson)\b", re.IGNORECASE)


def asks_a_length(qa: QuestionAnalysis) -> bool:
    """Whether the question asks how long something lasts or is ("how long is the film",
    "how long is the route"): a duration or a distance answers it, never a day."""
    return "how long" in qa.cues


def is_a_length(value: str) -> bool:
    """Whether ``value`` is a duration or a distance ("6 weeks", "98 mins", "10k")."""
    return _LENGTH.search(value) is not None


def says_a_length(unit: Unit) -> bool:
    """Whether ``unit`` states a duration or a distance ("98 mins", "an hour and a half",
    "two weeks", "10k", "6 miles"), or how many entries a list or a text runs to ("invite
    list is at 250 names", "rulebook's 28 pages")."""
    text = said(unit)
    return _LENGTH.search(text) is not None or _ENTRIES.search(text) is not None


_LENGTH = re.compile(
    r"(?:\d|\b(?:" + "|".join(sorted({*NUMBER_WORDS, "an?", "half", "forty", "sixty", "ninety",
                                        "few", "couple(?: of)?"})) +
    r")\b)[\s-]?(?:\+\s?)?(?:mins?|minutes?|"
    r"hrs?|hours?|h|days?|nights?|weeks?|wks?|fortnights?|months?|years?|yrs?|secs?|seconds?|"
    r"km|k|kms|kilometres?|kilometers?|miles?|mi|metres?|meters?|m|ft|feet|yards?)\b"
    r"|\b(?:all day|all night|overnight|half an hour|an hour)\b", re.IGNORECASE)


# What a list or a text is long in ("how long is the waiting list" / "40 names").
_ENTRIES = re.compile(
    r"\b\d[\d,]{0,8}\+?\s?(?:names|people|ppl|entries|items|pages|pp|words|lines|slots|"
    r"signatures|guests|households|rows|tracks|songs|chapters|questions)\b", re.IGNORECASE)


def says_a_clock(unit: Unit) -> bool:
    text = said(unit)
    return _has_clock(text) or _HOURS.search(text) is not None


@functools.lru_cache(maxsize=4096)
def _has_clock(text: str) -> bool:
    # the analyzer's reading counts too: a bare hour where a time is set ("we close at 7
    # instead of 8") is a time of day
    if any(s.kind.value == "time" for s in find_slots(text)) or has_time_of_day(text):
        return True
    lex = default_lexicon()
    # (a span of hours said as the hours kept: "ok sundays 1–6 then", "sat 21st, 10-5")
    return any(v.kind is Kind.TIME or (v.kind is Kind.RANGE and _HOUR_SPAN.search(v.text))
               or (v.kind in (Kind.DATE, Kind.RANGE) and _CLOCK_IN.search(v.text))
               for v in find_values(mask(text, lex), lex))


# "what's our *site* number", "which room no.": the thing a label number is asked of.
_NUMBERED = re.compile(r"\b([a-z]{3,20})\s{1,3}(?:number|no\.|num|#)(?!\w)", re.IGNORECASE)
# Things known by a label number said after their name ("site 14", "pitch 7", "room 3");
# "the guest number", "the backpack number" ask how many instead.
_LABELLED = frozenset({"site", "pitch", "room", "table", "seat", "locker", "booth", "gate",
                       "platform", "bay", "stall", "plot", "desk", "court", "lane", "berth",
                       "cabin"})


@functools.lru_cache(maxsize=1024)
def numbered_noun(question: str) -> str:
    """The thing a question asks the label number of ("whats our site number at alice lake"
    → "site"), "" when it asks none."""
    m = _NUMBERED.search(question)
    if m is None or m.group(1).lower() not in _LABELLED:
        return ""
    return m.group(1).lower()


def says_a_numbered(unit: Unit, noun: str) -> bool:
    """Whether ``unit`` gives ``noun`` a label number ("site 14", "pitch #7", "locker at the
    gym is no. 9"; not "2 sites")."""
    return re.search(rf"\b{re.escape(noun)}s?(?:\s{{0,3}}#?\d|(?:\s{{1,3}}[\w']{{1,15}}){{0,5}}?"
                     rf"\s{{1,3}}(?:number|no\.?|num|#)(?:\s{{1,3}}is)?\s{{0,3}}#?\d)",
                     said(unit),
                     re.IGNORECASE) is not None


def asks_an_address(qa: QuestionAnalysis, nouns: frozenset[str]) -> bool:
    """Whether ``qa`` asks an address (one of ``nouns``: "address", "postcode")."""
    return any(w.low in nouns for w in words(qa.text))


def address_in(text: str) -> str:
    """The last address ``text`` writes out ("it's Lohmühlenstraße 56, not 65"), or ""."""
    found = [m.group().strip(" ,.") for m in _ADDRESS.finditer(text)]
    return found[-1] if found else ""


def common_place(value: str) -> bool:
    """Whether ``value`` is a place said by its common noun ("the yard", "the back
    office"): a place, never the name of a company or a thing."""
    ws = value.lower().split()
    return len(ws) >= 2 and ws[0] == "the" and ws[-1] in PLACE_NOUNS and value == value.lower()


def says_an_address(unit: Unit) -> bool:
    """Whether ``unit`` writes out an address: a number and a street ("14 Mill Lane",
    "Lohmühlenstraße 56"), a postcode ("BS1 4DJ") or an email address."""
    return _ADDRESS.search(said(unit)) is not None


# (not a day: "sat 14 march st brendans")
_MONTH = r"(?:" + _alternation(MONTH_WORDS) + r")\s"
_STREETS = ("street|st|road|rd|avenue|ave|lane|ln|way|drive|dr|close|court|ct|place|pl|"
            "boulevard|blvd|terrace|crescent|square|sq|row|parade|gardens|grove|mews|hwy|"
            "highway")
_ADDRESS = re.compile(
    r"\b\d{1,5}[a-z]?,?\s(?:(?!" + _MONTH + r")[^\W\d_][\w'’.-]{0,20}\s){1,3}(?:" + _STREETS
    + r")\b\.?"
    r"|[^\W\d_]{3,30}(?:straße|strasse|str\.|weg|platz|gasse|allee|laan|gracht|straat|"
    r"vej|gatan|gata|rue|via|calle)\s?\d{1,4}"
    r"|\b(?:rue|via|calle|avenida|rua)\s[^\W\d_]{2,20}"
    r"|(?-i:\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b)"
    r"|\b[\w.+-]{1,40}@[\w-]{1,40}\.[a-z]{2,10}\b", re.IGNORECASE)
