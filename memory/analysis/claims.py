"""What the message analyzer finds in a message: its clauses, the claims (typed values with their
subjects) each makes, and the analysis of the whole message.
"""

from __future__ import annotations

from dataclasses import dataclass

from memory.analysis.definitions import SpeechAct
from memory.analysis.values import Value


@dataclass(frozen=True)
class Claim:
    """One value a clause states, with what it is about."""

    value: Value
    subject: str
    terms: frozenset[str]
    #: Said outright ("X is V", "X: V", "X V" as a headline, after a change), not in passing.
    stated: bool = True
    #: Words of the header that opened the message ("Atlas: ... go-live moves to Nov 11").
    scope: frozenset[str] = frozenset()
    #: That header when it names a thing ("Fjord"), to label a subject it does not name.
    heading: str = ""


@dataclass(frozen=True)
class Clause:
    """One clause of a message (offsets are into the message text)."""

    start: int
    end: int
    text: str
    label: str = ""
    subject: str = ""
    terms: frozenset[str] = frozenset()
    claims: tuple[Claim, ...] = ()
    old: tuple[Value, ...] = ()
    act: SpeechAct = SpeechAct.CHATTER
    change: float = 0.0
    #: The clause points back at something named elsewhere ("pushing it to Friday").
    pointer: bool = False
    #: A decision said outright (a cue, a label, a change, "X is V"), not a passing mention.
    stated: bool = False

    @property
    def values(self) -> tuple[Value, ...]:
        return tuple(c.value for c in self.claims)


@dataclass(frozen=True)
class MessageAnalysis:
    """What a message says and does."""

    text: str
    act: SpeechAct
    clauses: tuple[Clause, ...] = ()
    reason: str = ""
    #: Sentences of a changing message that carry no value: its likely explanation.
    explanation: str = ""
    system: bool = False
    noise: bool = False
    question: bool = False
    #: Value families a question asks for ("who's got it?" → {"who"}).
    asks: frozenset[str] = frozenset()
    #: Agrees with what it answers ("sure", "ok let's do that", "+1").
    agrees: bool = False
    #: The strongest change cue anywhere in the message ("ok moving it" names a change).
    changes: float = 0.0
    speaker: str = ""

    @property
    def subject(self) -> str:
        """The first subject any clause names."""
        return next((c.subject for c in self.clauses if c.subject), "")

    @property
    def terms(self) -> frozenset[str]:
        out: set[str] = set()
        for c in self.clauses:
            out |= c.terms
            for claim in c.claims:
                out |= claim.terms
        return frozenset(out)

    @property
    def claims(self) -> tuple[Claim, ...]:
        return tuple(cl for c in self.clauses for cl in c.claims)

    @property
    def values(self) -> tuple[Value, ...]:
        return tuple(cl.value for cl in self.claims)
