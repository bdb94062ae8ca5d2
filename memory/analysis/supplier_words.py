"""Who a team buys, rents or books from: "who are we getting our logs from these days?",
"who did we have the crane booked with before?", "who's our veg supplier?".

Such a *who* question asks a business, not a person in the chat: its answer is the name a
message gives after "from", "with", "to" or a verb of buying ("get a pallet from ashdown",
"booked Apex Crane", "moving to wessex mill"), or the name standing before what is bought
("coombe marquees quoted £650", "hodges logs are soaking"). The words are data; extend
freely. :func:`asks_supplier` reads the question, :func:`suppliers_in` a message.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from memory.analysis.colour_words import colours_in
from memory.text import STOPWORDS, Slot, SlotKind, is_calendar_word

__all__ = ["asks_supplier", "supplier_replaced", "suppliers_in", "supply_word"]

#: Verbs of getting something from a business, which a trailing "from"/"with" completes.
SUPPLY_VERBS: frozenset[str] = frozenset("""
get getting got buy buying bought order ordering ordered rent renting rented hire hiring
hired book booking booked source sourcing sourced use using used lease leasing leased
print printing printed supply supplied supplying deliver delivered delivering
host hosting hosted insure insuring insured bank banking banked
""".split())

#: Nouns naming the business a question asks ("who's our veg supplier").
SUPPLIER_NOUNS: frozenset[str] = frozenset("""
supplier suppliers vendor vendors provider caterer caterers contractor firm company
wholesaler distributor roaster roasters
""".split())

# Words after which a message names the business ("from", "booked", "switching to").
_LEADS = (r"from|off|with|via|through|try|trying|use|using|booked|booking|book|order from|"
          r"ordering from|switch(?:ing|ed)? to|mov(?:e|ing|ed) to|go(?:ing)? with|went with|"
          r"goes to|call(?:ed)?|ring|rang|called up|quote from|quotes from|"
          # the business dropped is named too ("we'll drop hodges")
          r"drop|dropping|dropped|ditch|ditching|ditched|cancel|cancelling|canceling|"
          r"cancelled|canceled")
_WORD = r"[A-Za-z0-9][\w'’-]{1,24}"
# (a lookahead, so that a lead word right after another is a lead too: "booked from X")
_AFTER_LEAD = re.compile(
    rf"\b(?:{_LEADS})\s(?=(?:the\s)?(?P<v>{_WORD}(?:\s(?:&\s)?{_WORD}){{0,2}}))",
    re.IGNORECASE)
# A capitalised name inside a sentence ("booked Apex Crane", "Summit Lift & Rigging").
_NAMED = re.compile(r"(?<=[\w,;:]\s)(?P<v>[A-Z][\w'’-]{1,24}(?:\s(?:&\s)?[A-Z][\w'’-]{1,24}){0,3})")
# Words before which the name of a business stands ("coombe marquees quoted").
_BUSINESS_VERBS = re.compile(
    r"(?P<v>\b[a-z0-9][\w'’-]{1,24}(?:\s[a-z0-9][\w'’-]{1,24})?)\s"
    r"(?:quoted|quote|charge|charges|charged|deliver|delivers|delivered|delivery|invoice|"
    r"rep|van|order|can't|cant|can|won't|wont|said|say|says)\b")
# A business named as dropped ("we'll drop hodges", "cancel boxco", "instead of carrow").
_DROPPED = re.compile(r"\b(?:drop|dropping|dropped|ditch|ditching|ditched|cancel|cancelling|"
                      r"canceling|cancelled|canceled|instead of|rather than|not|away from|"
                      r"done with|leave|leaving|left)\s(?:the\s)?$", re.IGNORECASE)
_FROM_TO = re.compile(r"\bfrom\s(?:the\s)?$", re.IGNORECASE)
_TO_AFTER = re.compile(r"^[\w'’ &-]{0,40}?\s(?:to|→|->)\s", re.IGNORECASE)
_CANCELLED_AFTER = re.compile(r"^(?:'s|’s)?\s(?:is\s|are\s)?(?:cancelled|canceled|out|gone|"
                              r"dropped)\b", re.IGNORECASE)

_MAX_TEXT = 4000


def asks_supplier(lows: Sequence[str], opening: int) -> bool:
    """Whether a *who* question (its words ``lows``, opened at ``opening``) asks the
    business something comes from: "who are we getting X from", "who was X booked with",
    "who did we use for X", "who's our X supplier"."""
    rest = [w for w in lows[opening + 1:] if w not in _TAIL_WORDS]
    while len(rest) > 2 and (rest[-2], rest[-1]) in _TAIL_PAIRS:
        rest = rest[:-2]  # "who are we ordering ink from this time?"
    if not rest:
        return False
    # the team gets it ("who are we getting …", "who was … booked with"), not one of its
    # people ("who did Chloe get the spare keys from": a person)
    ours = bool(_OURS & set(rest)) or rest[0] in ("was", "were", "is", "are")
    if ours and rest[-1] in ("from", "with") and any(
            w.rstrip("s") in SUPPLY_VERBS or w in SUPPLY_VERBS for w in rest):
        return True
    if ours and ("use" in rest or "used" in rest):
        i = max(i for i, w in enumerate(rest) if w in ("use", "used"))
        if i + 1 < len(rest) and rest[i + 1] == "for":
            return True
    # "who's our veg supplier (now)": the noun closes the question
    return rest[-1] in SUPPLIER_NOUNS


def supply_word(low: str) -> bool:
    """Whether ``low`` is a verb of getting something or a noun for who supplies it."""
    return low in SUPPLY_VERBS or low in SUPPLIER_NOUNS


# Words saying the team is who gets something.
_OURS = frozenset({"we", "us", "our", "ours", "we're", "we've", "we'll", "y'all"})


# Words that may close the question after its "from" ("… from these days", "… from now").
_TAIL_WORDS = frozenset("now these days currently anymore any more originally before first "
                        "then lately at the moment rn again".split())
_TAIL_PAIRS = frozenset({("this", "time"), ("next", "time"), ("this", "week"),
                         ("this", "month"), ("this", "year"), ("this", "season"),
                         ("this", "round")})


def suppliers_in(text: str, *, skip: Iterable[str] = ()) -> list[Slot]:
    """The business names ``text`` gives, in reading order: after a word of getting or
    booking, capitalised inside a sentence, or before a word a business does ("coombe
    marquees quoted £650"); none of ``skip`` (the question's own words, the chat's
    people), no day, number or common word."""
    text = text[:_MAX_TEXT]
    skipped = {w.lower() for w in skip}
    found: list[Slot] = []
    taken: list[tuple[int, int]] = []
    for pattern in (_AFTER_LEAD, _NAMED, _BUSINESS_VERBS):
        for m in pattern.finditer(text):
            name = _trim(m.group("v"), skipped)
            if not name or colours_in(name):
                continue  # ("navy with gold trim": a colour is no business)
            start = m.start("v")
            end = start + len(name)
            if any(start < te and end > ts for ts, te in taken):
                continue
            taken.append((start, end))
            found.append(Slot(SlotKind.NAME, name, start, end))
    found.sort(key=lambda sl: sl.start)
    return found


def supplier_replaced(text: str, slot: Slot) -> bool:
    """Whether the business at ``slot`` is named as the one dropped ("drop hodges", "from
    Carrow to Brightline", "Apex is cancelled")."""
    before = text[max(0, slot.start - 30):slot.start]
    if _DROPPED.search(before):
        return True
    if _FROM_TO.search(before) and _TO_AFTER.match(text[slot.end:slot.end + 50]):
        return True
    return _CANCELLED_AFTER.match(text[slot.end:slot.end + 20]) is not None


def _trim(name: str, skipped: set[str]) -> str:
    """``name`` cut at its first word that names no business (a common word, a day, a
    number, a word of the question); "" when its first word is one."""
    kept: list[str] = []
    for word in name.split():
        low = word.lower().removesuffix("'s").removesuffix("’s")
        if word == "&":
            kept.append(word)
            continue
        if (low in STOPWORDS or low in _COMMON or low in skipped or is_calendar_word(low)
                or low.isdigit() or low in SUPPLY_VERBS or low.endswith(("n't", "n’t"))):
            break
        if len(kept) >= 2 and word.islower():
            break  # a lower-case name is a word or two ("jump4fun", "wessex mill")
        kept.append(word.removesuffix("'s").removesuffix("’s") if low != word.lower()
                    else word)
    while kept and kept[-1] == "&":
        kept.pop()
    return " ".join(kept)


# Words that never open a business's name ("from next week", "with me", "use ours").
_COMMON: frozenset[str] = frozenset("""
next last this that these those them him her me us you our your their my everyone anyone
someone nobody everybody people person guys folks team today tomorrow tonight tmrw week
weekend month year morning afternoon evening night now then here there home work office
time day days hour hours minute minutes bit lot lots few more less much many some any all
both each other another new old same different usual regular normal cheap cheaper dear
dearer good better best bad worse great nice fine ok okay yes yeah yep no nope thanks
price prices quote quotes cost costs invoice delivery order orders stuff things thing
pallet box boxes batch bag bags kit stock load loads one two three four five six seven
eight nine ten half just also still only really actually maybe probably again back instead
""".split())
