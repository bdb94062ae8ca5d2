"""Whether a unit of evidence speaks of what a "what/which N" question asks and whose it
is, when it does not say the words: a person named by a short name ("tom" / tomasz), and
a value given for the rest of the question ("which room is the retro in?" / "retro is in
Lovelace"), which is what the noun asks."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from memory.analysis.question import QuestionAnalysis, words
from memory.text import STOPWORDS, is_calendar_word

if TYPE_CHECKING:
    from memory.reader.coverage import Unit

__all__ = ["fills", "name_candidates", "spoke"]


def spoke(word: str, speakers: frozenset[str]) -> bool:
    """Whether a person the question names is one of ``speakers``, by name or by the short
    name a chat calls them ("tom" / "tomasz")."""
    return word in speakers or (len(word) >= 3 and any(s.startswith(word) for s in speakers))


def fills(unit: Unit, qa: QuestionAnalysis, people: frozenset[str] = frozenset(), *,
          days: bool = True) -> bool:
    """Whether ``unit`` gives a value the question does not already name: a state's
    current value ("which room is the recording in?" / "the annex"), or a name said inside
    a sentence that is no person's (``people``: the scope's speakers' name words; "which
    pub" / "the Star Inn has space"); without ``days``, no day or month counts as a name.
    That value is what the asked noun asks."""
    if unit.state is not None:
        said = {w.low for w in words(unit.state.value or "")} - STOPWORDS
        return bool(said) and not said <= set(qa.terms)
    if unit.node is None:
        return False
    asked = set(qa.terms) | set(unit.speakers) | people
    return any({w.lower() for w in m.group().split() if days or not is_calendar_word(w)}
               - asked for n in (unit.node, *unit.answers) for m in name_candidates(n.text))


def names_someone(unit: Unit, qa: QuestionAnalysis) -> bool:
    """Whether ``unit`` gives a name the question does not say ("what's the name of the
    principal" / "… the principal, Mrs Okafor, says …"): a state's value, or a capitalised
    name inside a sentence of its messages that is no day or month."""
    return fills(unit, qa, days=False)


def name_candidates(text: str) -> list[re.Match[str]]:
    """The capitalised names said inside the sentences of ``text``."""
    return list(_NAME_INSIDE.finditer(text))


# A capitalised name inside a sentence (not its first word, not an acronym): "the Star Inn
# has space", "going with The Crown instead".
_NAME_INSIDE = re.compile(r"(?<=[a-z,;:]\s)[A-Z][a-z][\w'’&-]{0,30}(?:\s[A-Z][\w'’&-]{0,30}){0,3}")
