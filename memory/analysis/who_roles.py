"""The words naming the role a *who* question asks about (who proposed, turned down,
decided, changed or holds something), as data for :mod:`memory.analysis.question_lexicon`.
Extend freely.
"""

from __future__ import annotations

from dataclasses import dataclass

# The words of making the call, which a question about a change may also use.
_CALL: tuple[str, ...] = (
    "decid*", "made the call", "make the call", "makes the call", "call the shot*", "approv*",
    "signed off", "sign off", "greenlit", "green-lit", "okayed", "ok'd", "agreed", "finaliz*",
    "finalis*", "whose call", "whose decision", "whose choice",
)


@dataclass(frozen=True)
class WhoRoles:
    """Verbs naming the role a *who* question asks about.

    ``proposer``: who put something forward first; ``rejecter``: who turned it down;
    ``decider``: who made the decision in force; ``changer``: who changed it (the latest
    revision's speaker); ``owner``: the person a decision names (who owns, drives, covers
    it)."""

    proposer: tuple[str, ...] = (
        "suggest*", "propos*", "recommend*", "pitch*", "float*", "came up", "come up",
        "comes up", "mention*", "brought up", "bring up", "asked for", "asked to",
        "nominat*", "wanted", "want", "wants", "push for", "pushed for", "pushing for",
        "argued for",
        # who found or spotted something said it first
        "found", "find", "spotted", "spot", "discovered", "noticed", "flagged", "caught",
        # who was unhappy with something raised it first ("who complained about the 1pm
        # cutoff")
        "complain*", "moan*", "unhappy", "grumbl*", "upset",
    )
    rejecter: tuple[str, ...] = (
        "shot down", "shoot down", "shoots down", "turned down", "turn down", "said no",
        "say no", "says no", "reject*", "veto*", "nixed", "nix", "overrul*", "blocked",
        "block", "pushed back", "push back", "objected", "object", "killed", "kill",
    )
    # Saying who was against something asks who turned it down, whatever other role word
    # follows ("who didn't want the marquee", "who was against using MAQS").
    against: tuple[str, ...] = (
        "against", "opposed", "didn't want", "didnt want", "did not want", "wasn't keen",
        "wasnt keen", "not keen", "disagreed", "disagree",
    )
    # Saying it asks who said it first, after the words of turning down ("who said no")
    # are read: "who said the roof has to be capped at 80", "who told us it's 80".
    sayer: tuple[str, ...] = ("said", "says", "told us", "told me", "tells us")
    # An opinion of what should be ("who *thought* the service *should* be £75") asks who
    # put that value forward; one of how a thing is ("who thought it was too dear") does not.
    opinion: frozenset[str] = frozenset({"thought", "reckoned", "felt", "figured"})
    opinion_modals: frozenset[str] = frozenset({"should", "ought", "shud", "shld"})
    # Weak proposer words, used when no other role word is there ("whose idea was bo7").
    idea: tuple[str, ...] = ("idea", "suggestion", "proposal", "pick", "recommendation")
    # "whose idea was it to …": a proposer whatever verb follows ("host", "put … on")
    whose_idea: frozenset[str] = frozenset({"idea", "suggestion", "proposal",
                                            "recommendation"})
    # Decision words that make a question about a change ask who made the call ("who
    # decided to drop the clinic", "who signed off on moving it"): the approver of a
    # proposal answers it.
    call: tuple[str, ...] = _CALL
    decider: tuple[str, ...] = (
        *_CALL, "chose", "choose*", "chosen", "picked", "pick", "settl*", "confirm*", "agree",
        "agrees", "determin*", "set",
    )
    changer: tuple[str, ...] = (
        "moved", "moving", "move", "moves", "push", "pushes", "pushed", "pushing", "chang*",
        "postpon*", "delay*",
        "resched*", "switch*", "cancel*", "called off", "call off", "scrap*", "cut", "bump*",
        "renam*", "slip*", "correct*",
        "revis*", "updat*", "shift*", "swap*", "replac*", "reassign*", "handed", "hand",
        "hands", "handing", "handover", "handoff",
        "trim*", "rais*", "lower*", "increas*", "reduc*", "drop*", "reverted", "revert*",
    )
    owner: tuple[str, ...] = (
        "own*", "in charge", "responsible", "driv*", "lead*", "running", "run", "runs",
        "handl*", "on call", "on-call", "oncall", "primary", "secondary", "cover*",
        "assigned", "assignee", "point person", "dri", "host*", "present*", "organi*",
        "manag*", "look* after", "in charge of", "captain*",
    )
    # Phrasal verbs of doing a task whose first word is also a decision or change word
    # ("who set up the account" asks who did it, not who decided it)
    doer: tuple[str, ...] = ("set up", "sets up", "setting up", "cut out", "cuts out")
    # Light verbs that name holding a task only when no change is named ("who has the
    # push work", "who's doing face painting"; but "who has moved the review").
    holder: tuple[str, ...] = (
        "taking", "take*", "took", "doing", "working on", "has", "have", "had", "got",
        "gets", "giving", "gives", "bringing", "brings", "making", "makes", "on",
    )

