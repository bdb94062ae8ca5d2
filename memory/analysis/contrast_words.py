"""Kinds that stand against each other: a question naming one ("the *small* dog groom",
"tickets for *kids*", "open on *weekdays*", "the *90s* windbreakers") is not answered by a
message naming only another ("large dog full groom $90", "adult tickets £12", "8am
saturdays", "80s ski jackets £55").

Each group lists its classes; the words of one class name the same kind. A class may also
name words that stand against it without being a class of their own (a weekend day against
"weekdays"). Words used as often in other senses ("big", "little", "morning" as a greeting)
are left out, and so are students (as often the children themselves).
"""

from __future__ import annotations

import re

__all__ = ["CONTRAST_GROUPS", "DECADE", "WEEKDAY_CONTRASTS"]

CONTRAST_GROUPS: tuple[tuple[frozenset[str], ...], ...] = (
    (frozenset({"small", "smaller", "smallest", "mini"}), frozenset({"medium"}),
     frozenset({"large", "larger", "largest", "xl", "giant"})),
    (frozenset({"adult", "adults", "grown-up", "grown-ups"}),
     frozenset({"child", "children", "kid", "kids", "junior", "juniors"}),
     frozenset({"senior", "seniors", "pensioner", "pensioners", "oap", "oaps"})),
    (frozenset({"single", "singles"}), frozenset({"double", "doubles"}),
     frozenset({"twin", "twins"})),
    (frozenset({"indoor", "indoors"}), frozenset({"outdoor", "outdoors", "outside"})),
    (frozenset({"weekday", "weekdays"}), frozenset({"weekend", "weekends"})),
)
# the days of each kind, said for "weekdays" and "weekends" ("8am saturdays")
_WEEKDAYS = frozenset({"monday", "mondays", "tuesday", "tuesdays", "wednesday", "wednesdays",
                       "thursday", "thursdays", "friday", "fridays"})
_WEEKEND = frozenset({"saturday", "saturdays", "sunday", "sundays"})
WEEKDAY_CONTRASTS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "weekday": (_WEEKDAYS, _WEEKEND), "weekdays": (_WEEKDAYS, _WEEKEND),
    "weekend": (_WEEKEND, _WEEKDAYS), "weekends": (_WEEKEND, _WEEKDAYS),
}
# a decade said as a style: "80s", "'90s", "1970s"
DECADE = re.compile(r"(?<![\w'’])(?:19|['’])?([1-9]0)s\b")
