"""The types of the values a message states: their kinds and families, a value with its place
in the text, and the word tokens values are read from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class Kind(StrEnum):
    """What kind of value a slot holds."""

    TIME = "time"
    DATE = "date"
    RANGE = "range"
    PLACE = "place"
    PERSON = "person"
    VERSION = "version"
    REGION = "region"
    MONEY = "money"
    COUNT = "count"
    CHOICE = "choice"
    STATUS = "status"


#: Kinds that can replace one another in a revision ("3 pm" → "Friday 10am"). A status
#: ("called off") ends a state of any family.
FAMILY: dict[Kind, str] = {
    Kind.TIME: "when", Kind.DATE: "when", Kind.RANGE: "when", Kind.PLACE: "where",
    Kind.REGION: "where", Kind.PERSON: "who", Kind.VERSION: "version", Kind.MONEY: "amount",
    Kind.COUNT: "amount", Kind.CHOICE: "name", Kind.STATUS: "status",
}


STATUS_FAMILY = "status"


# Which value wins where two overlap: the more specific pattern first.
_RANK: dict[Kind, int] = {
    Kind.RANGE: 0, Kind.PERSON: 1, Kind.MONEY: 2, Kind.VERSION: 2, Kind.REGION: 2,
    Kind.DATE: 3, Kind.TIME: 3, Kind.PLACE: 4, Kind.CHOICE: 5, Kind.STATUS: 5, Kind.COUNT: 6,
}


_WHEN = frozenset({Kind.TIME, Kind.DATE, Kind.RANGE})


_YEAR = re.compile(r"(?:19|20)\d{2}")


_TOKEN = re.compile(r"[\w][\w'’.-]{0,200}[\w]|[\w]|[→]|->")


@dataclass(frozen=True)
class Value:
    """One value in a message: its kind, its text as written, and where it is."""

    kind: Kind
    text: str
    start: int
    end: int
    #: A person value claimed in the first person ("I'll drive it", "push is mine now"):
    #: ``text`` is then the speaker's name, not words of the message.
    speaker: bool = False

    @property
    def family(self) -> str:
        return FAMILY[self.kind]

    @property
    def is_year(self) -> bool:
        return self.kind is Kind.DATE and bool(_YEAR.fullmatch(self.text))


@dataclass(frozen=True)
class Token:
    text: str
    start: int
    end: int

    @property
    def low(self) -> str:
        return self.text.lower()


def tokenize(text: str) -> list[Token]:
    """Word tokens with offsets (keeps "16.7", "eu-west-1", "don't", arrows)."""
    return [Token(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(text)]
