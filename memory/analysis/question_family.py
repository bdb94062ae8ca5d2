"""What kind of value a question asks: the family its opener or its heading value noun
names ("when…", "how much…", "what's the release *date*"), and what an amount question
measures."""

from __future__ import annotations

from collections.abc import Sequence

from memory.analysis.definitions import QuestionKind
from memory.analysis.gathering_words import is_gathering
from memory.analysis.question_lexicon import QuestionLexicon
from memory.analysis.question_words import _spans, find_phrase
from memory.text import STOPWORDS

__all__ = ["family", "family_of_kind", "head_attribute", "measure", "money_verb", "openers"]


def measure(family: str, lows: Sequence[str], lexicon: QuestionLexicon) -> str:
    """What an amount question measures: money ("how much"), a count ("how many"), or ""."""
    if family == "money":
        return "money"
    return "count" if any(find_phrase(lows, p) >= 0 for p in lexicon.counting) else ""


def openers(lows: Sequence[str], opening: int, lexicon: QuestionLexicon,
            cue_spans: list[tuple[int, int, str]]) -> tuple[str, str, str, str, str, str]:
    """The opener of each family the question starts with (who, when, where, how much,
    how many, which version), the first that applies; each found is a cue."""
    def opens(phrases: Sequence[str]) -> str:
        for p in sorted(phrases, key=lambda x: -len(x.split())):
            if find_phrase(lows, p, opening) == opening:
                cue_spans.append((opening, opening + len(p.split()), p))
                return p
        return ""

    who_open = opens(lexicon.who_openers + lexicon.who_nouns)
    when_open = "" if who_open else opens(lexicon.when_openers)
    where_open = "" if who_open or when_open else opens(lexicon.where_openers)
    money_open = "" if who_open or when_open else opens(lexicon.money_openers)
    if money_open and _measures_a_thing(lows, opening + len(money_open.split()), lexicon):
        # "how much compost did we get": an amount of it, not money
        count_open, money_open = money_open, ""
    else:
        count_open = ("" if who_open or when_open or money_open
                      else opens(lexicon.count_openers))
    version_open = "" if who_open or when_open else opens(lexicon.version_openers)
    return who_open, when_open, where_open, money_open, count_open, version_open


def _measures_a_thing(lows: Sequence[str], after: int, lexicon: QuestionLexicon) -> bool:
    """Whether "how much" is followed by a noun naming no money ("how much *compost*"),
    so it asks an amount of that thing."""
    if after >= len(lows):
        return False
    noun = lows[after]
    return (noun.isalpha() and noun not in STOPWORDS and noun not in lexicon.question_words
            and noun not in lexicon.confirm_openers and noun not in lexicon.money_words
            and lexicon.attributes.get(noun, "") not in ("money", "price"))


def money_verb(lows: Sequence[str], opening: int, lexicon: QuestionLexicon) -> str:
    """A price asked by its verb: "what are we *charging* referral offices", "what did the
    fix end up *costing*", "what's fernhill *paying* us" (a "what" question; "who's paying"
    asks a person)."""
    if opening >= len(lows) or lows[opening] not in lexicon.what_openers:
        return ""
    rest = lows[opening + 1:]
    # (or by what it is paid per: "what did aisha first quote the wedding *per head*",
    # "what did we settle on per jar"; not a limit: "what's the max per team")
    per = any((w in {"a", "an"} and nxt in _PAID_PER) or (
        w == "per" and nxt.isalpha() and nxt not in _NOT_PAID_PER)
        for w, nxt in zip(rest, rest[1:], strict=False)) and not _LIMITS & set(rest)
    # (or what it is offered at: "what's beach rd *advertised at* now", "listed for")
    offered = any(w in _OFFERED and nxt in {"at", "for"} and prev not in _DOERS
                  for prev, w, nxt in zip(rest, rest[1:], rest[2:], strict=False))
    # ("what was tony's first quote", "what did lena first quote": a price; "what's the
    # quote for the newsletter" is words quoted)
    quoted = any(w == "quote" and (prev.endswith(("'s", "’s")) or prev in _QUOTE_LEADS)
                 for prev, w in zip(lows[opening:], rest, strict=False))
    return "price" if per or offered or quoted or any(
        w in lexicon.money_verbs for w in rest) else ""


# Words before "quote" that make it a price given: whose, which one, or who gave it.
_QUOTE_LEADS = frozenset({"first", "original", "initial", "latest", "new", "revised", "final",
                          "last", "their", "his", "her", "our", "your", "best", "cheapest",
                          "lowest", "highest", "did", "we", "they", "he", "she", "i", "you",
                          "to"})
# Who does the selling ("what're *we* selling at the bake sale" asks the goods).
_DOERS = frozenset({"we", "you", "they", "i", "he", "she", "people", "everyone"})
# Verbs of putting a thing on offer: said with "at"/"for", they ask its price.
_OFFERED = frozenset({"advertised", "listed", "marketed", "selling", "sold", "renting",
                      "let", "letting", "offered"})


# What "per" is said of without a price ("per cent", "per se"), and the words that make
# a number per thing a limit ("max per team").
_NOT_PAID_PER = frozenset({"cent", "se", "annum"})
_LIMITS = frozenset({"max", "maximum", "min", "minimum", "limit", "cap", "number", "many",
                     "allowance", "quota"})
# What a price is said per ("per head", "an hour").
_PAID_PER = frozenset({"head", "person", "guest", "kid", "child", "hour", "night", "ticket",
                       "seat", "cover", "plate", "month", "week"})


def _raised(lows: Sequence[str], end: int) -> bool:
    """Whether a change word ending at ``end`` raises an amount ("what was the print run
    before it got bumped *up*"), which moves no moment: "bumped up" last, of no gathering
    (a standup "bumped up" is moved earlier)."""
    return (end + 1 == len(lows) and lows[end] == "up" and lows[end - 1].startswith("bump")
            and not any(is_gathering(w) for w in lows))


def family_of_kind(kind: QuestionKind, family: str, *, who: bool, lows: Sequence[str],
                   lexicon: QuestionLexicon) -> str:
    """Who held it before asks a person; what slipped or was postponed is a moment."""
    if kind in (QuestionKind.PREVIOUS, QuestionKind.ORIGINAL) and who:
        return "person"
    if not family and kind in (QuestionKind.PREVIOUS, QuestionKind.ORIGINAL,
                               QuestionKind.CURRENT) and any(
            not _raised(lows, end) for _, end, _ in _spans(lows, lexicon.schedule_change)):
        return "when"
    if not family and kind is QuestionKind.PREVIOUS:
        # "what was sourdough before the *price* change": the value noun of the change
        # (an amount's; "what was the menu before the date change" asks the menu)
        for w, nxt in zip(lows, lows[1:], strict=False):
            if nxt in lexicon.change_nouns and lexicon.attributes.get(w) in ("money", "price"):
                return lexicon.attributes[w]
    return family


def family(opened: Sequence[tuple[str, str]], head: str,
           lexicon: QuestionLexicon) -> str:
    """The kind of value asked: the opener's ("when…", "how much…"), else that of the value
    noun heading the question ("what's the release *date* for 2.4")."""
    for kind, opener in opened:
        if opener:
            if kind == "count" and head and lexicon.attributes.get(head) == "money":
                return "money"  # "how many dollars", "how big is the budget"
            return kind
    return lexicon.attributes.get(head, "") if head else ""


# Words counting periods ("a few hours", "two weeks").
_FEW = frozenset({"few", "couple", "two", "three", "four", "five", "six", "several", "many"})
# Words making a value noun a period the question is scoped to ("next year", "this week").
_RELATIVE = frozenset({"next", "last", "this", "every", "each", "per", "a"})
# Words saying which value of a chain is asked, after the value noun ("the pickup *date*
# originally"): the noun still heads the question.
_WHEN_SAID = frozenset({"originally", "initially", "previously", "first", "earlier", "now",
                        "currently", "finally", "eventually", "ultimately", "these", "nowadays",
                        "anymore", "atm", "rn"})
_PERIODS = frozenset({"year", "week", "month", "day", "weekend", "quarter", "term", "season",
                      "hour", "night"})


# Past forms of choosing and saying that are no "-ed" form.
_CHOSE = frozenset({"chose", "picked", "said", "found", "wanted", "booked", "suggested",
                    "proposed"})


def _done(word: str) -> bool:
    """Whether ``word`` is a verb in the past ("picked", "chose", "suggested")."""
    return word in _CHOSE or (len(word) > 4 and word.endswith("ed"))


def head_attribute(lows: Sequence[str], lexicon: QuestionLexicon) -> str:
    """The value noun that heads a noun phrase: one not followed by another content word
    ("release *date* for", "*budget* for helix", "kafka *version* are we on")."""
    for i, w in enumerate(lows):
        if w not in lexicon.attributes:
            continue
        if i > 2 and lexicon.qualifiers & set(lows[i - 2: i]):
            continue  # "… on training *day*": which occasion, not what is asked
        if i > 0 and lows[i - 1] in _RELATIVE and w in _PERIODS:
            continue  # "the budget for the party *next year*": when, not what is asked
        if i > 0 and (lows[i - 1].isdigit() or lows[i - 1] in _FEW) and w.rstrip("s") in _PERIODS:
            continue  # "the deposit for a piece over *4 hours*": a length, not what is asked
        nxt = lows[i + 1] if i + 1 < len(lows) else ""
        if not nxt or nxt in STOPWORDS or nxt in lexicon.question_words or \
                nxt in lexicon.generic or nxt in _WHEN_SAID:
            return w
        if i > 0 and lows[i - 1] in ("what", "which") and lexicon.attributes[w] == "colour" \
                and nxt not in lexicon.attributes:
            return w  # "what colour ribbon …" (not "what colour brand": the brand)
        if i + 2 < len(lows) and nxt not in lexicon.attributes \
                and nxt not in lexicon.change_nouns and _done(lows[i + 2]):
            return w  # "the foray *spot* kenji picked": a clause of who chose it follows
    return ""
