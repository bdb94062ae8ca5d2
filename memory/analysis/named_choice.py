"""Whether a which/what question asks which named thing a team chose.

"which roofer did we pick", "what engine are we on" ask a team's choice and are answered
with the name chosen; "what book did Caroline recommend", "what motivated her" do not: the
first asks what a person did, the second opens with a verb, not a noun.
"""

from __future__ import annotations

from collections.abc import Sequence

from memory.analysis.question_lexicon import QuestionLexicon
from memory.analysis.question_words import Word, _spans, find_phrase
from memory.text import STOPWORDS

__all__ = ["named_choice"]

# How many words after the noun an auxiliary may come ("which water quality probe are …").
_AUXILIARY_REACH = 3


def named_choice(ws: Sequence[Word], lows: Sequence[str], opening: int,
                 lexicon: QuestionLexicon) -> str:
    """"name" when the question opens with which/what and a noun naming no kind of value,
    and the choice is a team's: it speaks of the team, names deciding or the value in force
    or before, or asks of no named person; "" otherwise."""
    noun_at = opening + 1
    if noun_at >= len(lows) or lows[opening] not in lexicon.choice_openers:
        return ""
    noun = lows[noun_at]
    if noun in STOPWORDS or noun in lexicon.question_words or noun in lexicon.attributes \
            or noun in lexicon.confirm_openers or not noun.isalpha():
        return ""
    if lows[opening] != "which" and _opens_a_verb(ws, noun_at + 1, lexicon):
        return ""  # "what motivated Caroline", "what caused tuesday's outage"
    if _team_choice(lows, noun_at, lexicon) or not _persons_doing(ws, lows, noun_at, lexicon):
        return "name"
    return ""


def _opens_a_verb(ws: Sequence[Word], after: int, lexicon: QuestionLexicon) -> bool:
    """Whether the word after what's first word makes that word a verb: an object follows
    it (a determiner, an object pronoun, a possessive or a name)."""
    if after >= len(ws):
        return False
    nxt = ws[after]
    return (nxt.low in lexicon.verb_objects or nxt.low.endswith("'s")
            or _is_name(nxt))


def _team_choice(lows: Sequence[str], noun_at: int, lexicon: QuestionLexicon) -> bool:
    """Whether the question speaks of the team, of the value in force or the one before,
    or, after its noun, of choosing ("which hotel did Dana *book*", not "what *book*…")."""
    cues = lexicon.current + lexicon.previous + lexicon.original
    verbs = lexicon.roles.decider + lexicon.choosing
    # the noun itself is what is chosen, not who chose it ("which *team* won the cup")
    team = any(w in lexicon.team_words for i, w in enumerate(lows) if i != noun_at)
    return (team or bool(_spans(lows, cues))
            or any(find_phrase(lows, v, noun_at + 1) >= 0 for v in verbs))


def _persons_doing(ws: Sequence[Word], lows: Sequence[str], noun_at: int,
                   lexicon: QuestionLexicon) -> bool:
    """Whether a named person is the subject after the noun's auxiliary ("what book *did
    Caroline* recommend", "what pets does Melanie have")."""
    for i in range(noun_at + 1, min(noun_at + 1 + _AUXILIARY_REACH, len(lows) - 1)):
        if lows[i] in lexicon.confirm_openers:
            return _is_name(ws[i + 1])
    return False


def _is_name(word: Word) -> bool:
    return word.text[:1].isupper() and word.low != "i"
