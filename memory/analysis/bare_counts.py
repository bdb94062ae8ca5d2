"""Counts said as bare numbers: after a head-count label ("final wedding count: 148") and
after a quantity raised or lowered to them ("raising the Smash cap to 48"). A bare number is
a time, a price or a count by its context alone, so each reader names the context it trusts.
"""

from __future__ import annotations

import re

from memory.analysis.question_lexicon import PRICE_WORDS
from memory.analysis.value_types import Kind
from memory.analysis.values import Value

__all__ = ["bare_time", "label_count", "raised_count", "raises_team_number"]


#: Words a label names a head count by ("final wedding count: 148", "headcount update:
#: 152, they added the cousins"): the bare number after such a label is that count.
_COUNT_LABEL_WORDS = frozenset({"count", "headcount", "numbers", "attendance", "rsvps",
                                "covers", "guests", "turnout", "pax", "attendees",
                                "signups", "sign-ups", "registrations"})

_BARE_COUNT = re.compile(r"\s{0,3}(?:~\s?|about\s|around\s)?(?P<v>\d{1,5})(?![\d.:/,-]?\d)"
                         r"(?=\s{0,3}(?:[,.;!)]|$))")


def label_count(part: str, start: int, values: tuple[Value, ...], label: str) -> Value | None:
    """The count a head-count label gives: the bare number opening the part after it, when
    no slot already reads that number (a time, an amount)."""
    if not label or not {w.lower().removesuffix("'s") for w in re.findall(
            r"[\w'’-]{1,40}", label)} & _COUNT_LABEL_WORDS:
        return None
    return _count_at(_BARE_COUNT.match(part), start, values)


# A quantity raised or lowered to a bare number: "raising the Smash cap to 48", "cutting
# the guest list to 60", "raising the lot limit to 30 per seller". (Moving verbs are left
# out: "moving it to 3" is a time.)
_RAISED_TO = re.compile(
    r"\b(?:rais(?:e|es|ed|ing)|increas(?:e|es|ed|ing)|bump(?:s|ed|ing)?|upp(?:ed|ing)|"
    r"lower(?:s|ed|ing)?|cut(?:s|ting)?|reduc(?:e|es|ed|ing)|capp(?:ed|ing)|"
    r"extend(?:s|ed|ing)?|expand(?:s|ed|ing)?)"
    r"\s(?:[\w'’-]{1,20}\s){0,3}?(?P<noun>[\w'’-]{1,20})\sto\s(?P<v>\d{1,5})(?![\d.:/,%-]?\d)(?!\s?(?:%|am|pm)\b)"
    r"(?=\s{0,3}(?:[,.;!)]|$)|\s(?:because|since|as|now|from|for|so|and|then|per|each|a\s"
    r"(?:head|person|team|seller|table|side))\b)",
    re.IGNORECASE)


def raises_team_number(part: str) -> bool:
    """Whether ``part`` raises or lowers something not the speaker's own to a number ("I'm
    raising the Smash cap to 48", not "I'm cutting my hours to 20")."""
    m = _RAISED_TO.search(part)
    return m is not None and not re.search(r"\bmy\b", m.group(0), re.IGNORECASE)


#: Nouns of an amount raised to a bare number that is no clock time ("bumping the booth
#: order to 4"; "bumping the meeting to 4" is a time).
_AMOUNT_NOUNS = frozenset({"order", "cap", "limit", "list", "count", "headcount", "number",
                           "size", "quota", "capacity", "target", "batch", "allocation"})


# Nouns of a price: a bare number they are raised to is money, never a count.
_PRICE_NOUNS = PRICE_WORDS | {"subs", "entry", "deposit", "rent", "wage"}


def raised_count(part: str, start: int, values: tuple[Value, ...]) -> Value | None:
    """The bare number a quantity is raised or lowered to, when no slot reads it (or a slot
    reads it as a time while the quantity is plural or an amount: "seats to 6")."""
    m = _RAISED_TO.search(part)
    noun = m.group("noun").lower() if m is not None else ""
    if noun in _PRICE_NOUNS:
        return None  # "bumped the ticket price to 15 per head": a price, not a count
    amount = noun in _AMOUNT_NOUNS or (noun.endswith("s") and not noun.endswith("ss"))
    return _count_at(m, start, values, over_times=amount)


def _count_at(m: re.Match[str] | None, start: int, values: tuple[Value, ...], *,
              over_times: bool = True) -> Value | None:
    """The count ``m`` found (group ``v``, offsets from ``start``), when no slot reads it
    (a slot's bare-number time gives way when ``over_times``)."""
    if m is None:
        return None
    at = start + m.start("v")
    if any(v.start <= at < v.end and not (over_times and bare_time(v)) for v in values):
        return None
    return Value(Kind.COUNT, m.group("v"), at, at + len(m.group("v")))


def bare_time(v: Value) -> bool:
    """Whether ``v`` is a time read from a number alone ("to 4"): a count said where a
    quantity is raised to it, or after a head-count label, is that count instead."""
    return v.kind is Kind.TIME and v.text.isdigit()
