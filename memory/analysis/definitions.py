"""The one set of definitions of speech acts and question kinds.

The offline analyzers classify into these; the LLM prompts render them (with their examples)
so a model is told exactly what the deterministic code means. Change a definition here and both
modes change together.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class SpeechAct(StrEnum):
    """What a chat message does to the decisions of its channel."""

    PROPOSAL = "proposal"
    DECISION = "decision"
    REJECTION = "rejection"
    CORRECTION = "correction"
    REASSIGNMENT = "reassignment"
    CANCELLATION = "cancellation"
    CONFIRMATION = "confirmation"
    REMINDER = "reminder"
    QUESTION = "question"
    CHATTER = "chatter"


class QuestionKind(StrEnum):
    """What a question to the memory asks for."""

    CURRENT = "current"
    PREVIOUS = "previous"
    ORIGINAL = "original"
    WHO = "who"
    WHEN = "when"
    WHY = "why"
    LIST = "list"
    FACT = "fact"


@dataclass(frozen=True)
class Definition:
    meaning: str
    effect: str
    examples: tuple[str, ...]


SPEECH_ACTS: dict[SpeechAct, Definition] = {
    SpeechAct.PROPOSAL: Definition(
        "suggests or asks for a value without deciding it",
        "context: no state changes until someone else takes it on (\"ok let's do that\", or "
        "saying the value back: \"12th 👍\"); it then revises the state whose value the "
        "proposal called a problem (\"5th is bad. shall we do the 12th?\")",
        ("could we move standup to 10?", "how about The Lake?", "maybe Thursday works better"),
    ),
    SpeechAct.DECISION: Definition(
        "states a value now in force, first time or replacing the old one",
        "establish a state, or revise the state whose subject it names; a clock time agreed "
        "for a plan that holds only a day is the plan's time (a state '<plan> time' beside "
        "it), never a new day; someone's change of mind ('the library changed their mind, "
        "back to 1000') revises the thing it is about, it names no subject and no owner; "
        "with no other subject, a gathering's verb names what its time is of ('from the "
        "17th we start at 7pm' sets the start); a count ('9 confirmed') never replaces a "
        "place or a name; where the speaker will be ('i'll be there after evensong, about 6:30') "
        "decides nothing for the team; a counter-offer taken up ('£2. £3 feels steep' -> "
        "'fair, £2') or an offer named in a reply ('ok refurb sanremo') settles its value",
        ("Atlas design review is Thursday 3 pm", "Outing decided: bowling alley",
         "moved again: Friday at 11 am", "the upgrade is postponed until January"),
    ),
    SpeechAct.REJECTION: Definition(
        "turns a proposed change down; the current value stays",
        "restate the existing state",
        ("no, keeping 9:30", "let's not move it, Thursday stays"),
    ),
    SpeechAct.CORRECTION: Definition(
        "fixes a value that was stated wrongly",
        "revise the state whose value is the corrected one",
        ("correction: Dec 18, not the 20th", "Postgres 16 instead of 15"),
    ),
    SpeechAct.REASSIGNMENT: Definition(
        "hands a task or ownership to someone else",
        "revise the owner of that task; someone taking over what the turn before offered "
        "to do ('toner's low, ill order' -> 'nah i'll do it') is its new owner; 'taking "
        "over the lift chasing from Declan' makes its speaker the owner (Declan is the one "
        "before); 'Lena's on minutes', 'Ciara's collecting' put Lena and Ciara on the task",
        ("handing the release notes over to Marcus", "Priya takes over on-call from Sam"),
    ),
    SpeechAct.CANCELLATION: Definition(
        "ends a plan without a new value",
        "revise the state with the cancellation as its value (it ends a state of any kind)",
        ("standup is cancelled this week", "offsite postponed indefinitely"),
    ),
    SpeechAct.CONFIRMATION: Definition(
        "agrees with or repeats the value in force",
        "restate the existing state; a reply that only agrees ('Correct', 'exactly') is no "
        "value",
        ("+1, 3 pm works", "yes, still Thursday"),
    ),
    SpeechAct.REMINDER: Definition(
        "reminds people of a value already decided",
        "restate the existing state; never opens a new one",
        ("reminder: review tomorrow at 3", "don't forget the checklist before the review"),
    ),
    SpeechAct.QUESTION: Definition(
        "asks something",
        "context; its answer, often the next message from someone else, carries the value",
        ("when is the review?", "who owns the release notes?"),
    ),
    SpeechAct.CHATTER: Definition(
        "everything else: greetings, opinions, jokes, file shares, joins, bot lines",
        "context; two values weighed against each other ('3 weeks vs 10 is a no brainer') "
        "decide neither",
        ("lol nice", "uploaded a file: screenshot.png", "joined the channel"),
    ),
}

QUESTION_KINDS: dict[QuestionKind, Definition] = {
    QuestionKind.CURRENT: Definition(
        "the value in force now",
        "answer with the latest value of the chain; a value settled in the turns right "
        "after it without naming its subject again (a change said, or a short reply to a "
        "change asked for about it) is newer still; a turn about another thing, a "
        "hypothetical, someone's own plans or part of the value said again ('5:30 is "
        "better for me' after 'now Tue 20 Oct, 5:30pm') is not; a later message naming "
        "nothing of the question is about something else; a request nobody took up ('can "
        "we get teal?') replaces nothing; a time asked for a weekday ('on saturdays') is "
        "not another weekday's; a colour asked is answered by the colour, who a team buys "
        "or books from ('who are we getting our logs from?') by the business's name; a "
        "bare 'yessss' takes a suggestion's value up",
        ("when is the design review?", "where is the offsite?"),
    ),
    QuestionKind.PREVIOUS: Definition(
        "the value just before the latest change",
        "answer with the value the latest revision replaced; when that message says what it "
        "replaced ('£20 pp not 15'), that value",
        ("what was the review time before it slipped?", "what did it used to be?"),
    ),
    QuestionKind.ORIGINAL: Definition(
        "the first value of the chain", "answer with the chain's first value",
        ("what was originally planned?", "what was the first date?"),
    ),
    QuestionKind.WHO: Definition(
        "who decided, changed, suggested or owns something",
        "answer with the person (the speaker of the deciding message, or the owner named); "
        "who decided or signed off on a proposal is whoever approved it, not who proposed "
        "it; who is doing a task someone asked to be taken is whoever took it on in a reply "
        "(the one asked saying yes, a volunteer naming it, someone taking over an offer: "
        "'ill order' -> 'i'll do it'), not who asked; who suggested a value is who first "
        "said that value, even when the thing it is for was named in the turn before; a "
        "person the question names ('who is sitting in on Joel's interview') is not the "
        "answer; a person the message gives the role to answers even if they never speak "
        "in the chat ('judge is my mate carol'), and 'priya and me' names both, as does "
        "'Hal Brodsky playing'",
        ("who moved the release date?", "who suggested Taqueria Luna?"),
    ),
    QuestionKind.WHEN: Definition(
        "the date or time something happens or happened",
        "answer with the date or time, resolved to a calendar date where it is relative; a "
        "plan's day with the time held beside it ('<plan> time')",
        ("when is the launch?", "when was the budget cut?"),
    ),
    QuestionKind.WHY: Definition(
        "the reason given for a decision or change",
        "answer with the reason stated in or beside the revising message: the message "
        "saying the question's own words first, a clause beside the change without a "
        "reason word counting ('moved to thurs, their ceo is flying out fri'); what stays "
        "the same ('same time same headcount') is no reason, nor a value worked out before "
        "'so' ('first wednesday from march, so wed 4th'), nor a request ('can you tell "
        "them'); the reply to a 'why?' asked right after a change (in its thread too) is "
        "its reason",
        ("why did the release slip?", "why are we switching regions?"),
    ),
    QuestionKind.LIST: Definition(
        "several items", "answer with every item found, each cited",
        ("what did we decide this week?", "which venues were considered?"),
    ),
    QuestionKind.FACT: Definition(
        "any other fact stated in chat", "answer with the answering phrase",
        ("what is the wifi password?", "what does Nate call Joanna?"),
    ),
}

ABSTAIN_RULE = (
    "Answer only when the evidence you were given covers what the question is about: its "
    "named things and its subject, the thing a 'what/which X' question asks (a size, a "
    "hotel, a brand) and the owner it names ('gina's number'). A thing the chat writes as "
    "a name ('Durham Open') is not answered by a message naming another one ('Maiden Cup "
    "sign-ups … £2'), and a question asking an amount ('how much', 'how many') is not "
    "answered by a line holding none ('on it'). Otherwise abstain: say "
    "that the memory (within what the "
    "asker may read) holds no answer. Never answer with a different subject's value, and never "
    "hint whether an answer exists somewhere the asker cannot read."
)


def render_speech_acts() -> str:
    """The speech-act definitions as prompt text, one line each with examples."""
    return "\n".join(
        f"- {act.value}: {d.meaning} -> {d.effect}. e.g. "
        + "; ".join(f'"{e}"' for e in d.examples)
        for act, d in SPEECH_ACTS.items()
    )


def render_question_kinds() -> str:
    """The question kinds as prompt text, one line each with examples."""
    return "\n".join(
        f"- {kind.value}: {d.meaning} -> {d.effect}. e.g. "
        + "; ".join(f'"{e}"' for e in d.examples)
        for kind, d in QUESTION_KINDS.items()
    )


#: What the state holding a plan's time of day is called beside the plan's own ("team
#: dinner time"): written when a time is agreed for a plan that holds only a day, read
#: back when the plan's day is asked.
TIME_FACET = "time"
