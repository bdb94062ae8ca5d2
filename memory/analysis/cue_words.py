"""The analyzer's words, as data: cue words for changes, proposals, rejections, corrections,
cancellations, reminders and reasons; system lines and bot speakers; owner and hand-over
verbs, role and count nouns, calendar words. Extend freely.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from types import MappingProxyType

#: The change strength of a value settled without a change word ("monday it is", "switching
#: to X" weighs more): a choice decided, though no change is named.
SETTLED_CHANGE = 0.45

#: The change strength of "<thing> now <day or time>" ("service now thurs 19th"): a new value
#: said without a change word.
THING_NOW_CHANGE = 0.55

#: How strongly a clause must say a change for its value to be the one its message changes
#: to, over a value only reported beside it.
SAID_CHANGE = 0.5

#: Words closing a clause right after its value that settle it ("ok thursday 7pm then",
#: "friday 10am works", "monday 11am, final answer").
SETTLING_PHRASES: tuple[str, ...] = (
    "then", "it is then", "it's then", "works", "works for me", "works for us",
    "works for everyone", "suits me", "suits us", "final answer",
)

#: Words that say the value replaces an earlier one, with how strongly they say it.
CHANGE_CUES: Mapping[str, float] = MappingProxyType({
    "instead": 1.0, "instead of": 1.0, "rather than": 0.8, "correction": 1.0,
    "scratch that": 0.9, "change of plan": 0.9, "change of plans": 0.9, "no longer": 0.8,
    "not anymore": 0.8, "moved to": 0.9, "move to": 0.6, "moves to": 0.9, "moving to": 0.7,
    "moved": 0.8, "moves": 0.8, "moving": 0.6, "move": 0.5, "pushed": 0.85,
    "pushing": 0.75, "push": 0.5, "pushed back": 0.9, "pushed out": 0.9, "postponed": 0.9,
    "postponing": 0.8, "postpone": 0.6, "slips": 0.9, "slipped": 0.9, "slipping": 0.8,
    "slip": 0.6, "delayed": 0.85, "delaying": 0.75, "delay": 0.5, "bumped": 0.85,
    "bumping": 0.8, "bump": 0.5, "shifted": 0.8, "shifting": 0.7, "shift": 0.5,
    "rescheduled": 0.9,
    "rescheduling": 0.8, "reschedule": 0.6, "changed": 0.8, "changing": 0.7, "change": 0.5,
    "switch to": 0.9, "switching to": 0.9, "switched to": 0.9, "switching": 0.7,
    "swapped": 0.8, "swapping": 0.7, "replaced": 0.8, "replacing": 0.8, "renamed": 0.8,
    "calling it": 0.7, "revised": 0.8, "revising": 0.8, "revise": 0.6,
    "updated": 0.5, "update": 0.4, "brought forward": 0.9,
    "pulled in": 0.8, "pulled forward": 0.9, "moved up": 0.9, "extended": 0.7,
    "raised": 0.6, "raising": 0.6, "lowered": 0.6, "lowering": 0.6, "increased": 0.6,
    "increasing": 0.6, "reduced": 0.6, "reducing": 0.6, "cut": 0.5, "cutting": 0.5,
    "trimmed": 0.6, "now": 0.4, "again": 0.35, "new time": 0.8, "new date": 0.8,
    "new plan": 0.8, "new slot": 0.8, "actually": 0.5, "going with": 0.5, "goes to": 0.5,
    "→": 0.8, "->": 0.8, "=>": 0.8, "takes over": 0.9, "take over": 0.7, "taking over": 0.9,
    "took over": 0.9, "handing": 0.8, "handed": 0.8, "hand over": 0.7, "handover": 0.7,
    "reassigned": 0.9, "reassigning": 0.9, "passing": 0.5, "renewed": 0.6, "new one": 0.5,
    "make it": 0.6, "make that": 0.6,
    # someone's mind changed: theirs or the speaker's ("Mrs Okonkwo changed her mind on
    # colour", "library changed their mind again")
    **{f"{verb} {whose} {mind}": weight
       for verb, weight in (("changed", 0.9), ("change", 0.8), ("changing", 0.8))
       for whose in ("my", "her", "his", "their", "our", "your")
       for mind in ("mind", "minds")},
    "change of heart": 0.9, "had a rethink": 0.8,
    "on second thought": 0.9, "second thoughts": 0.7, "rethink": 0.5, "rethinking": 0.6,
    "drops to": 0.8, "dropped to": 0.8, "dropping to": 0.8, "goes up to": 0.8,
    "went up to": 0.8, "going up to": 0.7, "goes down to": 0.8, "went down to": 0.8,
    "rises to": 0.8, "rose to": 0.8, "falls to": 0.8, "fell to": 0.8, "climbs to": 0.8,
    "bumped up to": 0.9, "extending": 0.7, "lifted": 0.6, "lifting": 0.6, "upped": 0.7,
    # a retraction of what was just said: the value after it replaces it
    "scrap that": 0.9, "ignore that": 0.9, "forget that": 0.8, "disregard that": 0.9,
    "strike that": 0.9, "wait no": 0.8,
    # a return to an earlier value ("going back to Green Valley from the 23rd")
    "going back to": 0.8, "went back to": 0.8, "go back to": 0.6, "reverting to": 0.9,
    "reverted to": 0.9, "revert to": 0.6, "now back to": 0.9, "back to the original": 0.9,
    # booked or placed again: somewhere or some time else ("rebooked: premier inn …")
    "rebooked": 0.8, "re-booked": 0.8, "rebooking": 0.6, "relocated": 0.8,
    "relocating": 0.7, "rearranged": 0.8, "re-arranged": 0.8,
})


#: Verbs that move a value ("pushing the review to", "bumping the alert from X to Y"): their
#: object is what the clause is about.
CHANGE_VERBS: frozenset[str] = frozenset("""
move moved moves moving push pushed pushes pushing postpone postponed postpones postponing
slip slips slipped slipping delay delayed delays delaying bump bumped bumps bumping shift
shifted shifts shifting reschedule rescheduled reschedules rescheduling change changed changes
changing switch switched switches switching swap swapped swapping replace replaced replacing
rename renamed renaming raise raised raising lower lowered lowering increase increased
increasing reduce reduced reducing cut cutting trim trimmed extend extended extending bring
brought pull pulled update updated updating revise revised revises revising set drops dropped
dropping rises nudge nudged nudges nudging
rose rising climbs climbed falls fell lift lifted lifting upped upping boost boosted hike
hiked double doubled halve halved""".split())


#: A clause that only asks or suggests ("could we move standup to 10?").
PROPOSAL_CUES: tuple[str, ...] = (
    "could we", "can we", "should we", "shall we", "could you", "can you", "would you",
    "how about", "what about", "what if", "maybe", "perhaps", "proposing", "i propose",
    "propose", "proposal", "i suggest", "i'd suggest", "suggest", "suggesting", "suggestion",
    "any chance", "is it ok if", "is it okay if", "would it work", "would that work",
    "does that work", "thoughts on", "wdyt", "what do you think", "how does", "i'd vote for",
    "i vote for", "vote for", "why not", "or maybe", "alternatively", "idea:", "option:",
    "we could", "you could", "why don't we", "why dont we", "let's consider", "open to",
    "might be", "ideally", "we can",
    "we might", "could also", "can someone", "could someone", "can anyone", "could anyone",
    "would anyone", "anyone want", "who wants", "who can", "who could", "any volunteers",
    "need volunteers", "volunteers?", "volunteers needed", "i'd like to", "i'd like",
    "i would like", "i'd prefer", "i'd rather", "i could", "i'm happy to", "i'd be happy to",
    "i can do", "i could do", "i can take",
    "i'd actually like", "i'd really like", "i'd actually prefer", "i'd really prefer",
    "i'd love", "id like", "i'd rather we", "i'd suggest we",
    # put forward tentatively: "also thinking we bump the fee to $30", "i'd go to $60"
    "thinking we", "thinking of", "i'm thinking", "im thinking", "was thinking we",
    "thought we could", "i'd go", "id go",
)


#: Words that open a question.
QUESTION_STARTS: frozenset[str] = frozenset("""
who whom whose what what's whats when when's whens where where's which why how how's is are
am was were do does did can could will would should shall has have had isn't aren't doesn't
don't didn't won't wouldn't anyone anybody someone somebody""".split())


#: Words that turn a proposed change down ("no, keeping 9:30").
REJECTION_OPENERS: tuple[str, ...] = (
    "no", "nah", "nope", "negative", "not really", "let's not", "lets not", "don't", "dont",
    "rather not", "i'd rather not", "no way", "not happening", "not going to happen",
)


KEEP_CUES: tuple[str, ...] = (
    "keep", "keeping", "kept", "stick with", "sticking with", "stick to", "sticking to",
    "stay", "stays", "staying", "stay on", "stay with", "remain", "remains", "still on",
    "as planned", "as is", "unchanged", "no change", "no changes", "holding", "hold at",
    "leave it", "leaving it", "we're keeping", "is staying",
)


CORRECTION_CUES: tuple[str, ...] = (
    "correction", "corrected", "i meant", "sorry, i meant", "meant to say", "typo", "my bad",
    "to be clear", "to clarify", "clarification", "scratch that", "should have said",
    "should've said", "wrong date", "wrong time", "small fix", "erratum",
    # a retraction of what was just said, the new value after it
    "scrap that", "ignore that", "ignore the above", "forget that", "disregard that",
    "strike that", "wait no",
)


#: Verbs that hand a task or role to someone ("handing X over to Y", "Y takes over X").
HANDOVER_VERBS: frozenset[str] = frozenset("""
hand hands handing handed pass passes passing passed reassign reassigns reassigning reassigned
assign assigns assigning assigned transfer transfers transferring transferred give gives
giving gave delegate delegating delegated""".split())


#: Verbs whose subject owns or does the task named after them ("björn will drive the cutover").
OWNER_VERBS: frozenset[str] = frozenset("""
own owns owning drive drives driving run runs running lead leads leading handle handles
handling take takes taking cover covers covering present presents presenting host hosts
hosting chair chairs chairing manage manages managing organize organizes organizing organise
coordinate coordinates coordinating do doing does make makes making write writes writing
implement implements implementing draft drafts drafting prepare prepares preparing prep
preps prepping organises organising arrange arranges arranging sort sorts sorting update
updates updating""".split())


#: Third-person forms: after a name they make it the doer ("Raj owns the section"), where a
#: base form after a capitalised word is usually a compound noun ("Harbor review").
OWNER_VERBS_S: frozenset[str] = frozenset(
    w for w in OWNER_VERBS if w.endswith("s") and not w.endswith("ss"))


#: Verbs of saying before a value: "supplier says £28 now", "head said £350 max" (who said
#: it is not what the value is about). The relaying verbs of a reason ("emailed", "rang")
#: are reason_words.REPORT_VERBS.
SAYING_VERBS: frozenset[str] = frozenset("""
says said reckons reckon thinks think suggests suggested tells told claims claimed
""".split())


#: Verbs of getting in touch closing a header that only says who did ("inspector's office
#: called:", "kai emailed:"): what follows is about a thing of its own, not about them.
CONTACT_VERBS: frozenset[str] = frozenset("""
called emailed e-mailed texted rang phoned messaged replied wrote says said pinged
""".split())
#: Someone answering, said with "back" ("FAA came back:", "dunmore rang back"): who got in
#: touch, no subject of what they said.
GOT_BACK: tuple[list[str], ...] = (["came", "back"], ["got", "back"], ["come", "back"],
                                   ["wrote", "back"], ["called", "back"], ["rang", "back"])


#: Modal verbs that end a subject before "be" ("the AGM will be held on …").
MODAL_VERBS: frozenset[str] = frozenset("""
will would shall should can could must might won't wont can't cant shouldn't""".split())


#: Who reports a value besides the agent nouns: "supplier says £28 now", "the head said
#: £350 max".
REPORTERS: frozenset[str] = frozenset("""
supplier suppliers head boss landlord council caterer venue printer printers agent
contractor builder builders courier carrier school office manager organiser organizer
""".split())


#: Role nouns: "primary kwame", "owner: Lena", "Sofia is secondary".
ROLE_NOUNS: frozenset[str] = frozenset("""
owner owners driver lead dri assignee primary secondary presenter host chair
backup point reviewer approver captain facilitator organizer organiser coordinator
responsible""".split())


#: What a person does in a role or at an event ("Sofia presenting", "Hal Brodsky playing",
#: "who's teaching thursdays"): the doing names the role, not the thing.
DOING_VERBS: frozenset[str] = frozenset("""
driving leading running handling covering presenting hosting taking owning doing managing
chairing playing moderating compering emceeing mcing djing teaching coaching refereeing
umpiring judging organising organizing coordinating supervising editing recording
photographing filming cooking bartending catering building helping""".split())

#: Words that open a noun phrase naming a thing ("the new hire", "our van", "no one").
NOUN_DETERMINERS: frozenset[str] = frozenset({
    "the", "a", "an", "our", "my", "their", "your", "his", "her", "its", "this", "that",
    "these", "those", "some", "any", "no"})

#: What someone is "on" that is no task of theirs ("on leave", "on nights", "on site"): "Lena's
#: on minutes" puts Lena on a task, "Sam's on holiday" does not.
ON_NOT_A_TASK: frozenset[str] = frozenset("""
leave holiday holidays hols vacation break nights days lates earlies sick call mat paternity
maternity furlough annual site board it track time way fire mute pto jury parental bereavement
sabbatical secondment lunch strike placement shift shifts""".split())


#: Doing a task said of someone only after "is"/"'s" ("Ciara's collecting", "Rory is sorting
#: it"; not "Mrs Cooper collecting at 5:30", who is the one collected for).
TASK_GERUNDS: frozenset[str] = frozenset("""
collecting chasing sorting""".split())


#: A value ends here when the message says nothing else: the plan is off.
CANCEL_CUES: tuple[str, ...] = (
    "cancelled", "canceled", "cancelling", "canceling", "called off", "calling off",
    "call off", "scrapped", "scrapping", "postponed indefinitely", "on hold", "shelved",
    "axed", "not happening", "no longer happening", "won't happen", "will not happen",
    "is off", "are off", "'s off", "’s off", "'s off the table", "’s off the table",
    "is dead", "killed", "dropped", "nixed",
    "off the table",
    "not going ahead", "won't go ahead", "is cancelled", "indefinitely",
    "pulled the plug", "withdrawn", "withdrew", "discontinued", "ditched", "ditching",
    # a plan dropped by those who made it ("let's drop the cleaner and …")
    "let's drop", "lets drop", "let's cancel", "lets cancel", "let's ditch", "lets ditch",
    "let's scrap", "lets scrap", "we're dropping", "we are dropping", "we're cancelling",
    "we're canceling",
    # ... or said as what they will do ("We'll drop Otter at the end of the billing month")
    *(f"{who} {verb}" for who in ("we'll", "we will", "we're gonna", "we're going to",
                                  "we are going to", "gonna")
      for verb in ("drop", "cancel", "scrap", "ditch", "axe", "stop using")),
)


#: Things whose being "off" means wrong, not called off ("the timing's off", "mic's off",
#: "the numbers are off by 2k"): "X's off" of them ends no plan.
OFF_MEANS_WRONG: frozenset[str] = frozenset("""
timing time times number numbers count math maths figure figures estimate total totals sum
price prices sound mic audio volume colour color balance alignment measurement reading
calculation tone vibe fit spacing font kerning focus ratio scale formatting""".split())
#: Words after "X is off" that keep it a plan called off ("off for now", "off again"); any
#: other word makes it someone away ("Callum is off on leave", "lou's off to ikea").
OFF_STILL_ENDS: frozenset[str] = frozenset({"for", "again", "now", "this", "too"})


def off_calls_off(thing: str, rest: str) -> bool:
    """Whether "``thing`` is off``rest``" calls a plan off: not of a thing whose being off
    means wrong ("the timing's off"), nor when a word other than :data:`OFF_STILL_ENDS`
    follows ("Callum is off on paternity leave")."""
    if thing.lower().removesuffix("'s").removesuffix("’s") in OFF_MEANS_WRONG:
        return False
    nxt = re.match(r"\s{0,2}([a-z0-9]{1,20})", rest, re.IGNORECASE)
    return nxt is None or nxt.group(1).lower() in OFF_STILL_ENDS


#: Short replies that agree with what they answer.
ACK_CUES: tuple[str, ...] = (
    "+1", "👍", "👌", "✅", "💯", "🙌", "sounds good", "sounds great", "works for me",
    "that works", "agreed", "agree", "same", "lgtm", "ok", "okay", "k", "kk", "yes", "yep",
    "yup", "yeah", "ya", "sure", "sure thing", "fine by me", "fine", "good idea",
    "great idea", "perfect", "done", "ack", "makes sense", "love it", "do it", "ship it",
    "fair", "fair enough", "noted", "got it", "will do", "on it", "deal", "let's do that",
    "lets do that", "let's do it", "lets do it", "go for it", "confirmed", "confirm",
    "correct", "right", "exactly", "absolutely", "definitely", "of course", "np",
    "no problem", "sgtm", "cool", "great", "nice", "thanks", "thank you", "thx", "ty",
    "roger", "copy", "understood", "alright", "all right", "works", "yes please",
    "approved", "approve", "looks good", "good to go", "go ahead", "happy to", "glad to",
    "can do", "with pleasure",
    # praise for the turn before ("good spot", "nice catch"): no subject of its own
    "good call", "good catch", "good spot", "good point", "nice catch", "nice one",
    "well spotted", "fair point",
)


#: Replies that take a proposal on and so carry its value ("ok let's do that"); support
#: alone ("+1", "same", "agreed", "works for me") does not decide.
ACCEPT_CUES: tuple[str, ...] = (
    "let's do that", "lets do that", "let's do it", "lets do it", "go for it", "do it",
    "sounds good", "that works", "deal", "sure", "yes", "yep", "yup", "ok", "okay",
    "sgtm", "done", "approved", "ship it", "good idea", "great idea", "perfect",
    "moving it", "changing it", "fine, let's", "alright", "all right", "let's go with",
    "happy to", "glad to", "can do", "with pleasure",
)


# Words reporting a thing as carried out ("tesco 9pm done", "day 1 finished"): the values
# before them say when it happened, not a new plan.
# ("sorted" and "wrapped" say a plan is agreed as often: "booked for sat 7pm, all sorted")
COMPLETION_CUES: tuple[str, ...] = (
    "done", "finished", "completed", "complete",
)
# Words anywhere before a completion word that make it a plan, an obligation or a booking
# instead ("needs to be done by fri", "I'll get the 5pm slides done", "booked for sat 7pm,
# done").
COMPLETION_PLANNED: tuple[str, ...] = (
    "be", "been", "get", "gets", "getting", "got to", "to", "will", "'ll", "’ll", "must",
    "should", "need", "needs", "have", "has", "had", "want", "wants", "by", "until", "till",
    "gonna", "going to", "can", "could", "would", "let's", "lets", "booked", "booking",
    "book", "moved", "moving", "move", "pushed", "changed", "switched", "it is", "it's",
)


# Words in brackets after an amount that say something of it rather than name whom or what
# it is for ("£20 (thanks)", "£30 (inc fees)", "£8 (both ways)").
BRACKET_ASIDES: frozenset[str] = frozenset("""thanks cheers thx ta plus inc incl including
excl excluding ex no both each approx ish roughly yes yikes oops lol""".split())


REMINDER_CUES: tuple[str, ...] = (
    "reminder", "friendly reminder", "gentle reminder", "remind", "reminding",
    "don't forget", "dont forget", "do not forget", "remember to", "last call",
    "as a reminder", "just a reminder", "reminder that",
)


#: Words that mark a statement of what is decided or planned.
DECISION_CUES: tuple[str, ...] = (
    "decided", "decision", "we decided", "agreed", "final", "finalized", "finalised",
    "confirmed", "locked", "locked in", "locking in", "locking it in", "set for", "scheduled",
    "booked", "going with", "we're going with", "settled on", "settled", "picked", "chose",
    "chosen", "it is",
    "it's official", "officially", "the plan is", "plan is", "will be", "we'll", "we will",
    "let's", "lets", "approved", "is on", "are on", "target is", "target", "due", "deadline",
    "set to", "goes live", "ships", "will ship", "launches", "starts", "kicks off",
    "is at", "are at", "happens", "takes place", "winner", "wins", "it's", "is now",
)


#: Words that introduce the reason for a change.
REASON_OPENERS: tuple[str, ...] = (
    "because of", "because", "cause", "'cause", "cuz", "coz", "bc", "b/c", "since", "due to",
    "owing to", "thanks to", "given that", "given", "so that", "in order to", "the reason",
    "reason being", "reason:", "why:", "as", "after", "what with",
)


#: Reason words that also mean time ("since Monday", "after lunch"): they only open a reason
#: when a verb follows within the clause.
AMBIGUOUS_REASON: frozenset[str] = frozenset({"since", "after", "as", "given"})


#: "over" gives a reason only right after a change ("slipped a week over the crash").
REASON_AFTER_CHANGE: tuple[str, ...] = ("over", "for", "to allow", "to give")


#: Verbs and auxiliaries that make a word sequence a clause (for the ambiguous openers).
CLAUSE_VERBS: frozenset[str] = frozenset("""
is are was were be been being has have had got gets get getting do does did can could will
would should shall may might must need needs needed wants wanted want isn't aren't wasn't
doesn't didn't won't can't couldn't shouldn't requires required require clashed clashes
broke broken failed fails bounced ran runs run found came comes went goes hit gone forgot
forgotten forget missed realised realized noticed""".split())


#: First-person words: a value claimed with them is the speaker.
FIRST_PERSON: frozenset[str] = frozenset(
    "i i'll i'm i've i'd im ill ive me mine my myself".split())


#: Openers a subject never includes.
DISCOURSE: frozenset[str] = frozenset("""
ok okay k kk so sure yes yeah yep yup no nah nope alright right well also and but btw fyi fair
psa re hey hi hmm hm ah oh ugh welp update updates correction heads up quick note unrelated
ffs argh urgh omg lmao yikes whoops damn dammit sigh meh phew woohoo wow ahh uh um erm eek jeez
geez blimey wtf
separately anyway anyways actually agreed great good bad news thanks thx ty then now again
reminder final finally officially the a an our my your their his her its this that these
those we we're we'll we've i i'm i'll it it's they they're you you're let's lets please pls
just guys folks all everyone morning afternoon evening wait hold on fine cool nice
apparently looks like seems confirmed stale correct true wrong exactly indeed sorry oops
ouch yay woo whoa lol haha tbh imo imho honestly basically realistically frankly hopefully
unfortunately fortunately personally ideally luckily sadly obviously clearly seriously
literally probably surely anyway point catch idea call question worries worry sí si
prob ya yah yea lmao omg
ha hah heh hehe hahaha brilliant brill lovely awesome amazing excellent fab fantastic
wonderful superb splendid legend cheers ta perfect phew whew yikes argh meh bummer damn dang
wow aw aww woohoo hooray ooh oof erm um uh eh huh thinking reckon""".split())


#: Words that describe the act of deciding or announcing, never a topic ("Poll's closed").
PROCEDURAL: frozenset[str] = frozenset("""
poll polls vote votes voting voted ballot survey tally count result results outcome update
updates final finally answer decision decide decided verdict summary recap tldr tl;dr
conclusion consensus close closed closing done settle settled winner won call official
officially confirm confirmed announcement status note correction edit resolution resolved
plan plans planning news good bad great quick alright agreed deal lock locked locking booked
booking thought
wrap loop bottom line follow-up followup reminder drumroll heads draft proposal proposing
propose suggestion idea option options change changes changed moved moving roll-up rollup
round-up roundup digest
move new again instead now actually sorry fyi psa btw please pls thoughts question questions
issue issues problem problems thing things stuff update: regarding re about info typo typos
mistake mistakes oops erratum clarification approved""".split())


#: Heads of a meeting's name ("sales *call*", "status *call*"): after a word naming what the
#: meeting is for, the head is part of the subject though "call" alone is procedural.
MEETING_HEADS: frozenset[str] = frozenset(
    "call calls meeting meetings sync review check-in catch-up session huddle".split())
#: Procedural words naming a meeting's kind before a meeting head ("*status* call").
MEETING_KINDS: frozenset[str] = frozenset("status update planning wrap-up".split())


#: Words of a header that only say when or how it is reported ("Weekly roll-up:", "Morning
#: notes:"): a header made of them names no subject.
HEADING_WORDS: frozenset[str] = frozenset("""
weekly daily monthly quarterly nightly morning evening afternoon eod eow roll-up rollup
round-up roundup digest recap notes minutes agenda changelog newsletter bulletin overview
far scene snapshot housekeeping tracker today's todays this week's naming numbering save date
looking ahead coming up next
""".split())


#: Predicates that announce a thing the rest of the message is about ("FROSTBYTE CUP 2024 is
#: happening!! 3v3 LAN, Saturday August 17 at Pixel Pit").
ANNOUNCE_PREDICATES: tuple[str, ...] = (
    "is happening", "are happening", "is on", "is back", "is coming", "is official",
    "is here", "is a go", "is confirmed", "is announced", "is scheduled", "is booked",
    "is set", "is locked", "has been scheduled", "has been booked",
)


#: An exclamation that greets or thanks ("Welcome back everyone!", "thanks all!!") names
#: nothing the rest of the message is about, unlike "ok summer trip!!" ("Happy hour!" and
#: "Cake for everyone!" name events, so neither "happy" nor a closing "everyone" is here).
GREETING_OPENERS: tuple[str, ...] = (
    "welcome", "congrats", "congratulations", "thanks", "thank", "hello", "hi", "hey",
    "morning", "evening", "cheers", "well done", "great job", "good job", "nice work",
    "great work", "good luck", "good news", "great news", "bad news",
)
#: A label that announces a change without naming it ("Small change: tickets are £12",
#: "quick update:"): its words are not a subject. It names the change itself ("small:" alone
#: is a size).
CHANGE_LABELS: frozenset[str] = frozenset("""
small minor slight tiny big major quick important urgent last one more another
""".split())
CHANGE_LABEL_NOUNS: frozenset[str] = frozenset("""
change changes tweak tweaks update updates news correction fix note reminder thing
""".split())


#: Verbs that, alone, are never a subject ("Come to London", "see everyone on the field at
#: 11"): the clause says what to do, not what the value belongs to.
BARE_VERBS: frozenset[str] = frozenset("""
come go see join bring send ask tell call meet grab let get take give help try look
remember hurry wait stop start keep hold follow ping dm text email show head sign vote
listen guess imagine say think scratch forget ignore disregard trying using switching
""".split())


#: Nouns that, with a number, name one of a series of things ("round 4" is not "round 3",
#: "block 5" not "block 4"); a revision ("draft 3"), a measure ("top 16", "cone 6") or a place
#: a value is set to ("room 4", ROOM_NOUNS) is none of them.
SERIES_NOUNS: frozenset[str] = frozenset("""
round block heat race leg match game fixture week episode season series part chapter
lesson session module sprint phase wave batch cohort squad group team patrol van car bus
truck boat tank field site zone sector division volume issue level tier
""".split())


#: Doers that are never what a change is about: in "finance cut the RI budget to €36k" the
#: subject is the budget.
AGENT_NOUNS: frozenset[str] = frozenset("""
i we you they he she someone everyone finance legal
management mgmt leadership board ceo cto cfo vp customer customers client clients security
compliance it ops marketing sales product eng engineering design hr procurement vendor
team""".split())


#: Words that measure a change rather than name what changed ("pushed a week").
DURATION_WORDS: frozenset[str] = frozenset("""
week weeks day days month months hour hours minute minutes min mins bit little couple
while sprint sprints quarter year""".split())


#: What a price is counted per rather than what it buys ("$12 per person", "£8 a head"): a
#: rate's unit, not its item.
RATE_UNITS: frozenset[str] = frozenset("""
person people head pp pax guest guests member members each unit item night nights hour hr
hours day days week weeks month months year years team player seat ticket kg lb mile km
session visit class""".split())


#: Verbs a proposal or request puts before its object ("can we *start* the window at 1").
LIGHT_VERBS: frozenset[str] = frozenset("""
do have make hold keep start begin run try use get put go schedule book plan set open
close ship launch cut take""".split())


#: Openers of a request: it asks someone to act and decides nothing.
REQUEST_OPENERS: tuple[str, ...] = ("pls", "please", "plz", "pleas", "kindly")
#: Things an ordinal counts, so that it is no day of the month ("3rd floor", "2nd round",
#: "22nd-30th place"): a regex alternation.
ORDINAL_THINGS = (r"(?:place|year|line|floor|round|grade|heat|team|row|seat|tier|level|gen|"
                  r"century|quarter|period|half|set|leg|stage|division|string|"
                  # streets named by an ordinal ("inkwell print on 3rd ave")
                  r"ave|avenue|st|street|rd|road)s?")
#: Modals that, opening a question which names a new value, put that value forward ("can
#: the reset go thursday?", "should the party be on the 12th?").
SUGGESTING_MODALS: frozenset[str] = frozenset({"can", "could", "shall", "should"})
# Verbs that put a change forward when they open a question with the new value ("cut his
# probation from 3 months to 6 weeks?", "push it to friday?", "bump the fee to £8?").
SUGGESTING_CHANGES: frozenset[str] = frozenset("""move push bump shift change switch cut
drop raise lower extend shorten swap bring make""".split())


#: Words about a decision rather than the decision itself ("lunch poll", "launch draft"):
#: never a label on their own, but a subject that has one is not the subject without it.
META_WORDS: frozenset[str] = frozenset(
    "poll vote survey ballot draft notes recap summary agenda invite calendar".split())


#: Label words after which a bare phrase is the chosen value ("Venue: the Lake house",
#: "Winner: Honk Squad").
CHOICE_NOUNS: frozenset[str] = frozenset("""
venue venues location locations place places restaurant restaurants spot destination
theme name names title format winner pick choice vendor vendors tool tools framework
provider providers codename""".split())


#: Verbs of an event that name the subject's date ("3.2 now ships December 18"): the label
#: a person would say.
EVENT_NOUNS: Mapping[str, str] = MappingProxyType({
    "ships": "ship date", "ship": "ship date", "shipping": "ship date",
    "launches": "launch", "launch": "launch", "launching": "launch",
    "starts": "start", "start": "start", "starting": "start", "begins": "start",
    "kicks": "kickoff", "ends": "end", "end": "end", "lands": "landing", "land": "landing",
    "opens": "opening", "closes": "close", "expires": "expiry", "expire": "expiry",
    "due": "deadline", "happens": "date", "releases": "release", "release": "release",
    "runs": "run", "live": "go-live",
})


#: Event verbs in their bare form are nouns too ("the launch"): they name the event only
#: after an auxiliary ("will ship", "to launch").
EVENT_BASE_FORMS: frozenset[str] = frozenset(
    {"ship", "launch", "start", "end", "land", "release", "expire"})


#: Nouns that name the kind of value right after them ("will be version 2.3"): the label a
#: person would say adds them to the subject ("release version").
VALUE_NOUNS: frozenset[str] = frozenset(
    "version build region budget owner venue location price cost limit size capacity "
    "deadline room".split())


#: Names that follow "in" but are tools, not places ("notes in Confluence").
TOOL_NAMES: frozenset[str] = frozenset("""
slack jira confluence figma notion github gitlab google docs drive zoom meet teams excel sheets
python java go rust typescript javascript sql linear asana trello miro loom dropbox box
testflight xcode android ios chrome safari firefox prod staging dev qa ci cd aws gcp azure
okta salesforce hubspot stripe""".split())


#: Nouns naming a kind of value, set aside when subjects are compared ("launch date" is
#: the launch): the family of the value says it already.
KIND_NOUNS: frozenset[str] = frozenset(
    "date time day slot timing schedule version build region venue location place owner "
    "target eta deadline amount number".split())


#: Nouns that name one aspect of a thing: under a header naming the thing ("Fjord: first
#: market is Sweden", "Atlas: ... go-live moves to 11 Nov") they are that thing's.
FACET_NOUNS: frozenset[str] = frozenset("""
date time day slot timing schedule version build region venue location place owner target
eta deadline amount number go-live golive launch kickoff kick-off start end market markets
pilot lead rollout release review budget cost costs price pricing fee fees rate rent scope
headcount room address host speaker capacity size limit cap quota plan dates times window
first main primary secondary new final next second third backup lead-time ship go live
earliest latest soonest cutoff cut-off due
""".split())


#: Nouns that name an attribute of the subject that follows them ("target for the iOS
#: release is Oct 24", "ETA for the fix"): the subject is what follows.
ATTRIBUTE_NOUNS: frozenset[str] = frozenset(
    "target eta etd date time day slot timing schedule deadline".split())


WEEKDAY_WORDS: tuple[str, ...] = (
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    "mon", "tue", "tues", "wed", "weds", "thu", "thur", "thurs", "fri", "sat", "sun",
)


#: Each way of writing a weekday, to its full name ("weds" is "wednesday").
WEEKDAY_SPELLINGS: Mapping[str, str] = MappingProxyType({
    w: next(full for full in WEEKDAY_WORDS[:7] if full.startswith(w[:2]))
    for w in WEEKDAY_WORDS})


MONTH_WORDS: tuple[str, ...] = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug",
    "sep", "sept", "oct", "nov", "dec",
)


TIMEZONES: tuple[str, ...] = (
    "cet", "cest", "pt", "pst", "pdt", "et", "est", "edt", "ct", "cst", "cdt", "mt", "mst",
    "utc", "gmt", "bst", "ist", "jst", "aest", "sgt", "local",
)


#: The emoji blocks (symbols, dingbats, pictographs), as a character class body.
EMOJI_CHARS = "\u2600-\u27BF\U0001F300-\U0001FAFF"


NUMBER_WORDS: Mapping[str, int] = MappingProxyType({
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15,
    "twenty": 20, "thirty": 30, "fifty": 50, "hundred": 100,
})


#: Nouns after a number that make it a tracked count ("3 screens", "two engineers").
COUNT_NOUNS: frozenset[str] = frozenset("""
screen screens engineer engineers hire hires people person seat seats slot slots day days
week weeks ticket tickets node nodes replica replicas server servers instance instances
user users customer customers member members req reqs headcount head heads spot spots
page pages step steps item items round rounds session sessions talk talks speaker speakers
table tables room rooms team teams sprint sprints story stories point points sre sres
designer designers devs dev contractor contractors intern interns laptop laptops license
licenses ppl pax box boxes bx cs pk pks pcs ea ct pallet pallets case cases carton
cartons""".split())


#: Verbs before a count that plan how many of a thing there will be.
QUANTITY_VERBS: frozenset[str] = frozenset("""
order ordering ordered get getting got grab grabbing grabbed need needs needed borrow
borrowing borrowed book booking booked buy buying bought rent renting rented bring bringing
hire hiring hired reserve reserving reserved print printing printed make making expect
expecting
""".split())


#: Verbs that change an amount: the bare numbers "from 6 to 4" after them are counts.
AMOUNT_VERBS: frozenset[str] = frozenset("""
cut cuts cutting reduce reduced reduces reducing raise raised raises raising increase
increased increases increasing upped upping lower lowered lowering trim trimmed trimming
drop dropped dropping double doubled halve halved grow grew shrink shrank scaled
""".split())


#: Places named by a common noun ("in the kitchen").
PLACE_NOUNS: frozenset[str] = frozenset("""
kitchen lobby cafeteria canteen office lounge rooftop roof garden park library auditorium
atrium boardroom basement patio terrace bar pub cafe restaurant hall studio warehouse
courtyard field gym gymnasium lawn playground parking lot backyard beach
school church chapel hotel inn tavern bistro diner brewery taproom cinema theatre theater
museum gallery rink pavilion clubhouse barn farm lodge station
garage yard depot salon""".split())


#: Words before the day a change takes effect on ("from may", "as of the 3rd", "starting
#: monday").
EFFECTIVE_OPENERS: tuple[str, ...] = ("from", "as of", "starting", "starting from", "beginning",
                                      "effective", "effective from")


#: Nouns that a capitalised or coded name after them makes a place ("room Vega").
ROOM_NOUNS: tuple[str, ...] = (
    "conference room", "conf room", "meeting room", "room", "hall", "floor", "building",
    "suite", "office", "studio", "auditorium", "scope", "bay", "lab", "gate", "court", "lane",
    "booth", "rack", "stage", "desk",
    # numbered places things or people are put in ("container 9", "plot 12", "pitch 2")
    "container", "unit", "pitch", "plot", "locker", "dock", "platform", "stall", "ward",
    "cabin", "tent", "bunk", "berth", "pier", "bed", "table",
    # numbered channels a radio or a stream is on ("channel 8", "ch 6")
    "channel", "ch",
)


def _alternation(words: Iterable[str]) -> str:
    """A regex alternation of literal phrases, longest first (so "moved to" wins over
    "moved"). Linear: literals only."""
    ordered = sorted(set(words), key=lambda w: (-len(w), w))
    return "|".join(re.escape(w) for w in ordered)


def _phrase_pattern(words: Iterable[str]) -> re.Pattern[str]:
    """Whole-phrase matches of ``words`` (word boundaries where the phrase has word chars;
    a phrase opening with an apostrophe, "'s off", follows the word it contracts; a phrase
    whose last word a contraction goes on, "we can't", is not "we can")."""
    words = list(words)
    bound = [w for w in words if not w.startswith(("'", "’"))]
    clitic = [w for w in words if w.startswith(("'", "’"))]
    pattern = r"(?<![\w'])(?:" + _alternation(bound) + ")" if bound else ""
    if clitic:
        # "it's off-site" is no "'s off"
        after_word = f"(?<=\\w)(?:{_alternation(clitic)})(?!-)"
        pattern = f"(?:{pattern}|{after_word})" if pattern else after_word
    # ("we can't" is no "we can": the cue's last word goes on as a contraction)
    return re.compile(pattern + r"(?![\w]|['’]t\b)", re.IGNORECASE)


#: Modifiers telling apart two things of one kind ("half plot" / "full plot", "adult ticket"
#: / "child ticket"): one word of a group each, the same head, two things. Extend freely.
CONTRASTING_MODIFIERS: tuple[frozenset[str], ...] = tuple(frozenset(g.split()) for g in (
    "half full quarter double single",
    "main mid side secondary",
    "first second third fourth final",
    "front back",
    "senior junior",
    "adult child kid kids student students member members guest guests",
    "early late",
    "morning afternoon evening night",
    "weekday weekend",
    "small medium large",
    "north south east west",
    "upstairs downstairs",
    "indoor outdoor",
    "regular premium vip standard",
    "monthly yearly annual weekly daily",
))

