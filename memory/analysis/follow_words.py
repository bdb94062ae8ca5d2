"""Words by which a turn right after an answer settles a value, or only seems to.

The reader's follow-up (:meth:`memory.reader.later_word.LaterWord.follow_up`) reads the
turns after the message it answered from: "actually make it 11", "45", "6 then" settle a
new value; "if we moved it to 6 …", "i'm in at 10 tomorrow", "4 people", "op 4" do not.
Words are data; extend freely.
"""

from __future__ import annotations

import re

__all__ = ["BARE_NUMBER", "FILLERS", "HYPOTHETICAL", "OWN_PLANS", "SUM_WORDS", "TAKES_NUMBER"]

#: A number standing alone: not part of a time, a date, a price, a version or a range, and
#: not counting something named after it ("4 people", "10 min", "3 of them", "12 elm st").
BARE_NUMBER: re.Pattern[str] = re.compile(
    r"(?<![\w$€£¥.,:/+#-])(\d{1,4}(?:[.,]\d{1,2})?)(?![\w%]|[.,:/-]\d|\s?[kK]\b)"
    r"(?=\s{0,3}(?:$|[.!,;)?]|(?:then|instead|now|it is|it's|works|for now|pls|please|ok|"
    r"and|but|same|tho|though)\b))", re.IGNORECASE)

#: Said as the value: a number opening its clause, or after a word that puts a value
#: ("start is 9", "up by 2", "go to 120", "say 6"), not after a noun it numbers ("op 4").
TAKES_NUMBER: re.Pattern[str] = re.compile(
    r"(?:^|[.!;:,(]|\b(?:is|are|be|to|by|at|say|make it|now|then|it's|its|'s|still|"
    r"instead|actually|only|just|do|ok|okay|fine|yes|yep|sure))\W{0,3}$",
    re.IGNORECASE)

#: A clause that only supposes a value ("if we moved it to 6 we'd miss the bus").
HYPOTHETICAL: re.Pattern[str] = re.compile(
    r"\b(?:if|unless|would|wouldn't|we'd|i'd|imagine|suppose)\b", re.IGNORECASE)

#: A clause telling the speaker's own plans ("i'm in at 10 tomorrow", "i'll be there at 9").
OWN_PLANS: re.Pattern[str] = re.compile(
    r"^\W{0,3}(?:(?:then|so|and|but|ok|okay|actually|also|btw)\W{1,3}){0,2}"
    r"(?:i'm|i’m|im|i am|i'll be|i’ll be|ill be|i will be|i'd be)\b", re.IGNORECASE)

#: Words that take a value up or go along with it, naming nothing it is of.
FILLERS: frozenset[str] = frozenset("""actually make say fine cool yep yeah yes sure okay
alright right just only still instead now then also though tho anyway well great perfect
good""".split())

#: Words naming the sum of whatever the talk is on, not a thing of their own ("added,
#: total's now £515" after "this order's going to northgate. £420").
SUM_WORDS: frozenset[str] = frozenset("""total totals sum amount figure bill tab
grand""".split())
