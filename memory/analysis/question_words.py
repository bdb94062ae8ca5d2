"""The words of a question: tokens with their case and offsets, phrase matching with suffix
wildcards, and whom the question is addressed to (which is not what it asks).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

# A question is read up to this many characters: longer input is not a question a person
# typed, and bounding it keeps every pattern below linear in a small constant.
MAX_QUESTION_CHARS = 1000


# Words as written (case kept), with their offsets; the same token shape as memory.text.
_WORD = re.compile(r"[^\W_](?:[\w'’.:-]{0,200}[^\W_])?")


_QUOTED = re.compile(r"[\"“”]([^\"“”]{2,80})[\"“”]")


# Whom a question is addressed to is not what it asks: platform mentions (<@U123>, <!here>),
# broadcasts (@channel, @here, @everyone) anywhere, and @names opening or closing it.
_BROADCAST = re.compile(r"<[@#!][^<>\s]{1,80}>|(?<![\w@])@(?:channel|here|everyone|all)\b",
                        re.IGNORECASE)


_ADDRESSED = re.compile(r"^(?:\s{0,10}@[\w.-]{1,80}[,:]?){1,5}|"
                        r"(?:\s{1,10}@[\w.-]{1,80}){1,5}\W{0,3}$")


def strip_address(question: str) -> str:
    """``question`` without whom it is addressed to (mentions, broadcasts), so
    "when is the deploy window? @channel" asks what "when is the deploy window?" asks."""
    text = _BROADCAST.sub(" ", question[:MAX_QUESTION_CHARS])
    return " ".join(_ADDRESSED.sub(" ", text).split()) or question


@dataclass(frozen=True)
class Word:
    text: str
    low: str
    start: int
    end: int


def words(text: str) -> list[Word]:
    """Word tokens of ``text`` with their case and offsets ("2.4", "us-east-1", "don't")."""
    out = []
    for m in _WORD.finditer(text):
        w = m.group().replace("’", "'")
        out.append(Word(w, w.lower(), m.start(), m.end()))
    return out


@functools.lru_cache(maxsize=4096)
def low_words(text: str) -> frozenset[str]:
    """The lower-cased words of ``text`` (read once per text: the coverage test asks for
    them of every unit it scores)."""
    return frozenset(w.low for w in words(text))


def _matches(word: str, pattern: str) -> bool:
    return word.startswith(pattern[:-1]) if pattern.endswith("*") else word == pattern


def find_phrase(lows: Sequence[str], phrase: str, start: int = 0) -> int:
    """Index of the first occurrence of ``phrase`` (space-separated words, ``*`` suffix
    wildcards) in ``lows`` at or after ``start``; -1 when absent."""
    parts = phrase.split()
    n = len(parts)
    if not n:
        return -1
    for i in range(start, len(lows) - n + 1):
        if all(_matches(lows[i + j], parts[j]) for j in range(n)):
            return i
    return -1


def _spans(lows: Sequence[str], phrases: Sequence[str]) -> list[tuple[int, int, str]]:
    """(start, end, phrase) of every phrase found (first occurrence each)."""
    out = []
    for p in phrases:
        i = find_phrase(lows, p)
        if i >= 0:
            out.append((i, i + len(p.split()), p))
    return out


def _opens_with(lows: Sequence[str], phrases: Sequence[str], *, within: int = 3) -> str:
    """The phrase among ``phrases`` that occurs within the first ``within`` words (after a
    leading filler such as "so", "and", "ok"), longest first; "" when none does."""
    for p in sorted(phrases, key=lambda x: -len(x.split())):
        i = find_phrase(lows, p)
        if 0 <= i < within:
            return p
    return ""


def edit_distance(a: str, b: str, limit: int) -> int:
    """Optimal-string-alignment distance of ``a`` and ``b`` (a swap of two neighbours is one
    edit), or ``limit + 1`` as soon as it exceeds ``limit``; O(len(a) * len(b)) on words."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


#: How questions are typed in chat, and what they stand for: a question word, "now", or
#: filler that asks nothing ("who's captain rn", "wat time is standup pls"). Whole words
#: only; data, extend freely.
QUESTION_SHORTHAND: dict[str, str] = {
    "rn": "now", "atm": "now", "wat": "what", "wut": "what", "wht": "what", "hw": "how",
    "wen": "when", "whn": "when", "wher": "where", "whr": "where", "r": "are", "u": "you",
    "ur": "your", "pls": "", "plz": "", "lol": "", "lmao": "", "tho": "", "thx": "",
    "ty": "", "btw": "", "again": "",
}

_SHORTHAND = re.compile(r"(?<![\w'’@#/-])(?:" + "|".join(
    sorted(map(re.escape, QUESTION_SHORTHAND), key=len, reverse=True)) + r")(?![\w'’/-])",
    re.IGNORECASE)


# An abbreviation made a verb ("who's MCing", "QAed", "DMing her"): the chat names it by the
# abbreviation ("I'll MC!").
_ABBREVIATION_VERB = re.compile(r"\b([A-Z]{2,5})(?:ing|ed|'d|’d)\b")


# "y" opening a question is "why" ("y icebox now", "y'd we switch"); elsewhere, or written
# "Y", it is a letter ("plan y", "Y hall booked for when?").
_OPENING_Y = re.compile(r"^(\s{0,10})y(?=['’]d\b|\s{1,10}[\w'’])")


# "what's the warden at St Anne's called?" asks the warden's name.
_CALLED = re.compile(r"^(\W{0,3}(?:what's|what’s|whats|what is|what was)\s)(?:the\s)?"
                     r"(\S.{1,80}?)\s(?:called|named)(\s{0,3}\?{0,3}\s{0,3})$", re.IGNORECASE)


# An arrival said as a phrasal verb ("turn up", "showed up", "rock up").
_TURNED_UP = re.compile(r"\b(?:turn(?:ed|s)?|show(?:ed|s)?|rock(?:ed|s)?)\s(?:up)\b",
                        re.IGNORECASE)


def expand_shorthand(text: str) -> str:
    """``text`` with chat shorthand spelled out, filler dropped (see QUESTION_SHORTHAND) and
    an abbreviation made a verb read as the abbreviation; "what's X called" asks the name
    of X."""
    text = _ABBREVIATION_VERB.sub(r"\1", _OPENING_Y.sub(r"\1why", text, count=1))
    text = _CALLED.sub(r"\1the name of the \2\3", text, count=1)
    text = _TURNED_UP.sub("arrive", text)  # "when did the T540 turn up"

    def spelled(m: re.Match[str]) -> str:
        word = m.group(0)
        if len(word) == 1 and not word.islower():
            return word  # "the R rating", "plan B"
        return QUESTION_SHORTHAND[word.lower()]

    out = _SHORTHAND.sub(spelled, text)
    return " ".join(out.split()) if out != text else text


def swapped_letters(word: str, other: str, *, shortest: int = 6) -> bool:
    """Whether ``other`` is ``word`` with two neighbouring letters swapped ("trainign" for
    "training"): a slip of the keyboard. Words shorter than ``shortest`` are left alone
    ("form" and "from" are both words)."""
    if len(word) < shortest or len(other) != len(word) or not word.isalpha():
        return False
    diff = [i for i, (a, b) in enumerate(zip(word, other, strict=True)) if a != b]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and word[diff[0]] == other[diff[1]] \
        and word[diff[1]] == other[diff[0]]
