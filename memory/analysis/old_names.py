"""Values named as what a change leaves, though no pattern knows them as values: the place
turned down right after another ("library car park, not the SU steps") and the name a
place or choice is switched from ("switching from Pett Level to Winchelsea Beach")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory.analysis.value_types import Kind, Value

__all__ = ["from_before", "not_after", "swap_lead", "swapped_from"]


# ", not the SU steps": a place named as turned down right after another (a short phrase
# up to the end of its part).
_NOT_AFTER = re.compile(r",?\s{1,3}(?:not|instead of|rather than)\s(?P<v>(?:the\s)?[\w'’&-]{1,24}"
                        r"(?:\s[\w'’&-]{1,24}){0,3}?)(?=\s?(?:[.,;:!?)]|$|\s[—–-]\s))")


def not_after(masked: str, value: Value) -> Value | None:
    """The place or choice turned down right after ``value`` ("…, not the SU steps", "code
    is GLOW25 instead of WICK20"), of ``value``'s kind: for a choice, a name or one word
    ("not sure what time yet", "not the cheapest but reliable" turn nothing down)."""
    m = _NOT_AFTER.match(masked, value.end)
    if m is None:
        return None
    if value.kind is not Kind.PLACE and not _TURNED_DOWN_NAME.fullmatch(m.group("v")):
        return None
    return Value(value.kind, m.group("v"), m.start("v"), m.end("v"))


# A choice turned down: a name ("WICK20", "the Anchor", "Premier Inn") or one plain word
# that is no word of degree or doubt ("purple", "car-sharing").
_TURNED_DOWN_NAME = re.compile(
    r"(?:the\s)?(?:[A-Z0-9][\w'’&-]{0,24}(?:\s[A-Z0-9][\w'’&-]{0,24}){0,2}|"
    r"(?!(?:sure|yet|too|really|much|many|that|so|just|only|even|quite|very|ideal|great|bad|"
    r"good|cheap|cheapest|now|today|ever|always|everyone|all|me|us|them|you)\b)"
    r"[a-z][\w'’-]{1,24})")


# "from Pett Level to ": a capitalised name of up to four words right before "to" and the
# value it changes to.
_FROM_BEFORE = re.compile(r"\bfrom\s(?:the\s)?(?P<v>[A-Z][\w'’&-]{0,24}(?:\s(?:of\s|the\s|&\s)?"
                          r"[A-Z][\w'’&-]{0,24}){0,3})\s{1,2}to\s{1,2}(?:the\s)?$")


# A verb of changing right before "from" ("switching", "we're moving the AGM").
_CHANGING_FROM = re.compile(r"\b(?:switch\w{0,3}|mov\w{1,3}|chang\w{1,3}|swap\w{0,4}|go(?:ing|es)?|"
                            r"went|transfer\w{0,4}|migrat\w{1,4}|relocat\w{1,4})\s"
                            r"(?:[\w'’-]{1,20}\s){0,4}$", re.IGNORECASE)


def from_before(masked: str, value: Value, start: int,
                 values: Sequence[Value]) -> Value | None:
    """The name a change goes from to ``value`` ("switching from Pett Level to Winchelsea
    Beach"), of ``value``'s kind; None when no verb of changing leads to it."""
    m = _FROM_BEFORE.search(masked, max(start, value.start - 64), value.start)
    if m is None or any(v.start < m.end("v") and m.start("v") < v.end for v in values):
        return None  # (a value already found there is judged as such)
    if _CHANGING_FROM.search(masked, max(start, m.start() - 40), m.start()) is None:
        return None  # "Shuttle from Pett Level to Winchelsea Beach": a route, no change
    return Value(value.kind, m.group("v"), m.start("v"), m.end("v"))


# A thing a swap gives up ("North Reef", "the old router").
_THING = r"[\w'’&-]{1,24}(?:\s[\w'’&-]{1,24}){0,3}?"


def swap_lead(gives: str = _THING, replaces: str = _THING) -> str:
    """The words of a swap up to what it takes: "swapping North Reef for ", "replacing the
    ETX with " (not "swap shifts with Tom", "swapping you in"), with ``gives`` and
    ``replaces`` for the thing given up in each wording."""
    return (r"\b(?:(?i:swap(?:ping|ped|s)?)\s(?:out\s)?(?!(?:you|u|me|him|her|them|us|it)\b)"
            rf"(?:the\s|our\s)?{gives}\s{{1,2}}for|(?i:replac(?:e|es|ed|ing))\s"
            rf"(?:the\s|our\s)?{replaces}\s{{1,2}}with)\s{{1,2}}(?:the\s)?")


# "swapping North Reef for ", "replacing the ETX with ": the thing a swap gives up, right
# before the one it takes.
_SWAPPED_FROM = re.compile(swap_lead(f"(?P<v>{_THING})", f"(?P<w>{_THING})") + "$",
                           re.IGNORECASE)


def swapped_from(masked: str, value: Value, start: int,
                 values: Sequence[Value]) -> Value | None:
    """The thing a swap gives up for ``value`` ("swapping North Reef for Kettle Cove"), of
    ``value``'s kind; None when no swap leads to it."""
    m = _SWAPPED_FROM.search(masked, max(start, value.start - 90), value.start)
    if m is None:
        return None
    group = "v" if m.group("v") else "w"
    if any(v.start < m.end(group) and m.start(group) < v.end for v in values):
        return None  # (a value already found there is judged as such)
    return Value(value.kind, m.group(group), m.start(group), m.end(group))
