"""The message analyzer's own patterns, word sets and token tests: how a message splits into
clauses, the words around a subject (copulas, determiners, pronouns, value prepositions), and
whether a token is part of a value or a content word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from memory.analysis.cue_words import EMOJI_CHARS
from memory.analysis.lexicon import EVENT_BASE_FORMS, EVENT_NOUNS
from memory.analysis.values import Kind, Token, Value, tokenize
from memory.text import STOPWORDS

#: A stop that ends a title, not a sentence ("Mr. Vos is fine with Friday").
AFTER_TITLE = (r"(?<!\bMr\.)(?<!\bMs\.)(?<!\bDr\.)(?<!\bSt\.)(?<!\bMrs\.)(?<!\bProf\.)"
               r"(?<!\bRev\.)(?<!\bCapt\.)")

# Not right after a word of talk ("cool so this week's goes today then" goes on agreeing).
_AFTER_TALK = "".join(rf"(?<!\b{w})" for w in ("ok", "okay", "cool", "right", "yeah", "yep", "oh",
                                               "and"))

# How a planned thing's time goes: "opens", "starts", "kicks off".
_SCHEDULE_VERBS = (r"opens|starts|begins|ends|closes|finishes|shuts|kicks|runs|shifts|slides|"
                   r"slips|moves|moved|gets\smoved|gets\spushed|is\smoving|is\snow")

# Clause boundaries: sentence ends, new lines, semicolons, "label:", spaced dashes, emoji
# between words, and ", so" / ", but" (a consequence or a contrast starts a new clause).
_SPLIT = re.compile(
    AFTER_TITLE + r"(?<=[.!?])\s{1,8}|\n{1,8}|;\s{1,8}|(?P<colon>:)\s{1,8}|\s{1,4}[—–-]\s{1,4}|"
    # the numbers of a list written on one line: "notes: 1) hours change … 2) PawBook …"
    r"\s{0,4}(?<![\w.(-])\(?\d{1,2}\)\s{1,4}|"
    r"\s{1,4}[" + EMOJI_CHARS + r"]{1,8}(?:\s{1,4}|$)|"
    r",\s(?=(?:so|but|and|any chance|can we|could we|should we|how about|what about|pls|"
    r"please|plz)\b)|"
    # ", we keep 3.0 for the redesign": a new sentence joined by a comma
    r",\s(?=(?:we|they)\s(?:keep|will|can|should|need|have|are|were|stay|move|push|go|use|"
    r"do|did|got|get|want|save|hold)\b|(?:we|they)['’](?:ll|re)\s)|"
    r"\s(?=so\s(?:i|we|you|they|it|that)\b)|"
    # "gareth's off sick so my assessment's moved to …": a consequence with its own subject
    + _AFTER_TALK +
    r"\s(?=so\s(?:the|my|our|your|his|her|their|this|these)\s[\w'’-]{1,24}\s"
    r"(?:[\w'’-]{1,24}\s){0,3}?(?:is|are|was|were|has|have|had|gets?|got|moved|moves|goes|"
    + _SCHEDULE_VERBS + r")\b)|"
    # "23 entries already so check-in opens an hour earlier": a thing named without an
    # article, then how its schedule goes
    + _AFTER_TALK +
    r"\s(?=so\s(?!(?:much|many|far|long|good|bad|glad|happy|sad|sorry|excited|tired|busy|"
    r"close|late|early|nice|cool|great|keen|sure|yeah|yes|no|ok|okay|well|that|what|then|"
    r"it|its|it's|we|i|you|they|he|she)\b)[\w'’-]{2,24}(?:\s[\w'’-]{2,24})?\s"
    r"(?:" + _SCHEDULE_VERBS + r")\b)|"
    + _AFTER_TALK +
    r"\s(?=so\s(?:(?:the|my|our|your|his|her|their|this|these)\s)?[\w-]{2,24}['’]s\s"
    r"(?!(?:fine|ok|okay|good|great|done|not|all|why|what|how)\b)[\w-]{1,24}\s)|"
    r"(?<!what)\s(?=(?:if|unless|once|as long as)\s)|"
    r"\s(?=but\s(?:i|i'm|im|we|we're|they|they're|you|it|it's|that)\b)",
    re.IGNORECASE,
)


# A value under a negation is not what was decided ("cleansing won't be finished before the
# 8th"); "not X" right before the value marks a replaced value instead (handled apart).
_NEGATED = re.compile(r"\b(?:won't|wont|isn't|isnt|aren't|can't|cannot|couldn't|doesn't|don't|"
                      r"not\s(?:be|going|ready|finished|done|happening))\b", re.IGNORECASE)


# The speaker's own affairs: "I have a dentist appointment at 2", "I'm flying to Austin".
_PERSONAL = re.compile(r"^\W{0,3}(?:[\w']{1,12},?\s){0,3}?(?:i\s(?:have|had|am|was|got|need|"
                       r"might|may|won't|can't|cannot)|i've|i'm|im|i'd|my|"
                       # "i'll be there after evensong, about 6:30": where the speaker is
                       # (not an absence, which is a reason: "i'll be away, so …")
                       r"i(?:'ll|’ll|\swill)\sbe\s(?:there|here|around|back|over|home|in)\b|"
                       # "a bunch of us will be down in Oregon": where some of the people are
                       r"(?:a\sbunch|most|half|some|a\sfew|a\scouple|lots|loads|several|many)"
                       r"\sof\sus\s(?:will\sbe|are|were|'ll\sbe|’ll\sbe)\b)",
                       re.IGNORECASE)


_PERIOD = re.compile(r"(?:this|next|last)\s(?:week|month|sprint|shift|rotation)|today|"
                     r"tomorrow|tonight", re.IGNORECASE)


# A clause opened by these is a condition: its values are not decided.
_CONDITIONAL = re.compile(r"^\s{0,3}(?:if|unless|once|as long as|in case)\b", re.IGNORECASE)


_COPULAS = frozenset({"is", "are", "was", "were", "be", "will", "'ll", "ll", "=", "goes",
                      "go", "stays", "remains", "becomes", "gets", "it's", "its", "now",
                      "should", "would", "has", "have", "had", "moves", "shall", "isn't",
                      "aren't", "won't", "can't", "needs", "need", "'s"})


_VALUE_PREPS = frozenset({"on", "at", "for", "in", "to", "until", "till", "til", "by",
                          "from", "into", "around", "→", "->", "@", "of", "before", "after"})


_DETERMINERS = frozenset({"the", "a", "an", "our", "my", "your", "their", "his", "her",
                          "its", "this", "that", "these", "those", "some", "any", "same",
                          "whole", "all"})


_PRONOUNS = frozenset({"it", "that", "this", "they", "them", "these", "those", "we", "you",
                       "he", "she", "i", "me", "one", "everything", "things", "stuff",
                       "which", "what", "who", "who's", "what's", "where", "when", "that'll",
                       "it'll", "that's", "it's", "there's", "this'll", "we'll", "they'll",
                       "they're", "we're", "you're", "i'll", "i'm", "here's", "im", "ive",
                       "ill", "id", "u", "ur", "us", "him", "her", "myself",
                       "yourself", "ourselves", "somebody", "someone", "anyone", "anybody",
                       "nobody", "everybody", "everyone"})


_STOP_WORDS = frozenset({"decided", "confirmed", "locked", "set", "scheduled", "booked",
                         "approved", "planned", "cancelled", "canceled", "postponed", "mine",
                         "yours", "done", "keep", "keeping", "stays", "staying", "stay",
                         "stick", "sticking", "remain", "remains", "says", "said",
                         "expires", "due", "mind", "usual", "always", "normal"})


_MAX_SUBJECT_WORDS = 6


_OLD_BEFORE = ("instead of", "rather than", "not", "no longer", "replacing", "used to be",
               "(not", "and not", "scratch", "scrap", "forget", "ditch", "no more",
               "move off", "moved off", "moving off", "moves off",
               "not doing", "cancel", "drop", "dropping", "(was",
               # "goes up to $20 from 1 March (currently $15)": in force until then
               "(currently", "(currently at", "(atm", "(at the moment",
               "up from", "down from", "previously",
               "formerly", "originally", "can't do", "cant do", "can't make", "cant make",
               "can't use", "cant use", "can't have", "cant have", "won't do",
               # a value said to be taken is what a plan leaves ("is sold out on the 7th";
               # "double-booked" below)
               "sold out", "sold out on", "fully booked", "fully booked on",
               # a supplier backing out leaves the value it backed out of
               "bailed on", "backed out of", "pulled out of", "dropped out of")


# A value a double booking takes, whoever it was taken from: "double-booked booth 3",
# "double-booked us for the 20th" (not "fully booked for the 14th!", as often good news
# about a sign-up).
_TAKEN_BEFORE = re.compile(
    r"\bdouble[- ]?booked(?:\s(?:us|them|me|you|it))?"
    r"(?:\s(?:for|on|at|in))?$")


# A day said of a thing that does not happen then: "no meeting today, first wednesday one
# is this wed 9:30", "no class on the 5th" (not "no worries, thursday works").
NO_OCCURRENCE = re.compile(
    r"(?:^|[\s.;!(])no\s(?!(?:problem|problems|prob|probs|worries|worry|rush|biggie|idea|way|"
    r"pressure|stress|doubt|chance|need|matter|change|changes|news|reply|answer|word)\b)"
    r"[a-z][\w'’-]{1,20}(?:\s(?:on|this))?$")  # ("no ridge till thurs": it is on thursday)


# A question offering alternatives: "black or purple?", "holloway manor or ashcombe barn?".
ALTERNATIVES_ASKED = re.compile(
    r"[\w'’&-]{2,30}\sor\s[\w'’&-]{2,30}(?:\s[\w'’&-]{2,30}){0,2}\s?\?", re.IGNORECASE)


_QUESTION_FAMILIES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("who", re.compile(r"\b(?:who|whom|whose|who's)\b|\b(?:any|some)(?:one|body)\s(?:else\s)?"
                       r"(?:can|could|want|wants|free|available|able|willing|take|got)\b|"
                       r"\b(?:can|could|would)\s(?:any|some)(?:one|body)\b|\bvolunteers?\b",
                       re.IGNORECASE)),
    ("when", re.compile(r"\b(?:when|when's|what time|what day|what date|which day|how long|"
                        r"deadline|till when|until when)\b", re.IGNORECASE)),
    ("where", re.compile(r"\b(?:where|where's|which room|what room|which venue|what venue|"
                         r"which region|what region|which place)\b", re.IGNORECASE)),
    ("amount", re.compile(r"\b(?:how much|how many|what budget|what's the budget|cost|price|"
                          r"budget)\b", re.IGNORECASE)),
    ("version", re.compile(r"\b(?:which version|what version|which build|what build|"
                           r"which release)\b", re.IGNORECASE)),
    # a choice between alternatives: "black or purple?", "holloway manor or ashcombe barn?"
    ("name", ALTERNATIVES_ASKED),
)


# Where "go" goes rather than what it chooses ("let's go to the pub", "go ahead").
_GO_ELSEWHERE = r"to|ahead|home|again|then|back|over|through|team|live|out|in|on|with|w"
_CHOICE_AFTER = re.compile(
    r"\b(?:going with|go with|went with|going w/|go w/|going w|go w|went w|trying|try|"
    # "let's go foundry rooms", "lets go for thursday"; not "let's go to the pub"
    r"let'?s go for|let'?s go(?!\s(?:" + _GO_ELSEWHERE + r")\b)|"
    r"decided on|settled on|picked|locking in|"
    r"chose|choosing|"
    r"switching to|switch to|switched to|we're doing|we are doing|let's do|lets do|"
    # a choice taken again ("we're going back to navy"; not "i'm going back to bed" or "i'll
    # go back to the shop later")
    r"(?<!\bi'm )(?<!\bim )(?<!\bi am )(?<!\bi'll )(?<!\bill )(?<!\bi )"
    r"(?:going|switching|switched|switch) back to|revert(?:ing|ed)? to|"
    r"stay on|stay with|stick with|sticking with|staying with|stays with|renamed to|"
    r"calling it|winner is|how about|what about|maybe|vote for|i vote|i'd vote for|proposing|"
    r"(?:i'm|im|i am|i was|we're|we are) thinking|"
    r"propose|suggest|we do|we try|we use|we pick|book|hire|rent from|order from|"
    # "yeah go vallotti", "ok go 1200g": a go-ahead opening the clause (not "go home", "go
    # ahead", "go get the van", nor an idiom of degree: "go big", "go all out")
    r"^\W{0,3}(?:(?:yeah|yep|yes|ok|okay|fine|right|sure|so)\W{1,3})?go(?!\s(?:"
    + _GO_ELSEWHERE + r"|get|grab|see|check|and|now|there|for|up|down|away|off|first|easy|slow|"
    r"fast|quiet|bed|look|find|ask|tell|buy|fetch|pick|play|eat|sleep|help|do|make|have|pls|"
    r"please|it|us|me|you|him|her|them|big|bigger|small|hard|all|crazy|wild|nuts|mad)\b))"
    r"\s(?P<v>[^.,;!?()\n]{1,60})",
    re.IGNORECASE)


# "got smokestack bbq instead", "booking comfort inn instead": what a verb takes in place
# of something else.
_INSTEAD_CHOICE = re.compile(
    r"\b(?:got|getting|booking|booked|book|asking|asked|ordering|ordered|order|hiring|hired|"
    r"hire|using|use|taking|took|trying|doing|going to|heading to)\s(?:(?:us|me|them)\s)?"
    r"(?P<v>[^.,;!?()\n]{1,40}?)\sinstead\b", re.IGNORECASE)


# "switching wheels to andymark", "moving the whole order to patterson": the thing switched
# named before its new value, a single word that ends the clause ("switching the workshop to
# focus on testing" names a purpose, not a value).
_SWITCHED_TO = re.compile(
    r"\b(?:switch(?:ing|ed)?|mov(?:ing|ed|e)|swap(?:ping|ped)?|chang(?:ing|ed|e))\s"
    r"(?:(?:the|our)\s(?:whole\s)?)?"
    r"(?!(?:it|that|this|them|us|over|back|up|down)\b)[a-z]{3,15}(?:\s[a-z]{3,15})?\sto\s"
    # (not a purpose: "switching suppliers to keep costs down")
    r"(?!(?:keep|support|focus|celebrate|help|make|get|save|cut|avoid|reduce|free|give|let|"
    r"allow|fit|match|cover|meet|see|spend|stay|be|do|have|try|test|check|sort|fix|work|take|"
    r"bring|start|finish|handle|deal|suit|clear|open|close|boost|lower|raise)\b)"
    r"(?P<v>[a-z][\w'’&-]{2,20}(?:\s(?:\+|&|and)\s[a-z][\w'’&-]{2,20})?"
    r"(?:\s(?!(?:on|in|at|with|for|by|from|to|after|because|since|as|now|instead|then)\b)"
    r"[a-z][\w'’&-]{2,20}){0,2}?)"
    # ("switched the palette to peach + ivory after seeing the dresses")
    r"(?=\s?(?:[,.;!]|$)|\s(?:after|because|since|cos|cuz|as|now|instead|then)\b|"
    # ("swapping the finale to dax on the lure instead")
    r"\s(?:on|in|at|with|for|by|from)\s[^,.;!?\n]{1,30}?\sinstead\b)", re.IGNORECASE)


# After a change to something, a name is its new value: "Changing the venue to Manchester".
_TO_NAME = re.compile(r"\b(?:to|→|->)\s(?:the\s)?(?P<v>(?:The\s)?[A-Z][a-zA-Z'’&]{1,24}"
                      r"(?:\s[A-Z][a-zA-Z'’&]{1,24}){0,2})\b")


# A name a change or a proposal gets something from or through: "order from Hillside Farm",
# "arranged for Brook Stables to deliver instead" (two words at least: "from Dana" is a
# person).
_FROM_NAME = re.compile(r"\b(?:(?:order|ordering|buy|buying|get|getting|source|sourcing|"
                        # what is got between ("getting the cat flu vax from …")
                        r"hire|hiring)\s(?:it\s|them\s|(?:the|our)(?:\s[\w'-]{1,20}){1,3}\s)?"
                        r"from|(?:arranged|booked|contracted)\s"
                        r"for|(?:go|going|went)\s(?:with|for)|use|using)\s(?:the\s)?"
                        r"(?P<v>(?:The\s)?[A-Z][a-zA-Z'’&]{1,24}(?:\s[A-Z][a-zA-Z'’&]{1,24}){1,2})"
                        r"\b")


# "Norway goes first, not Sweden": a name replaced by another.
_NOT_NAME = re.compile(r"\b(?:not|instead of|rather than)\s(?P<v>[A-Z][a-zA-Z'’&]{1,24})\b")


# "first market is Sweden", "the winner is Honk": a name stated as the value.
_IS_NAME = re.compile(r"\b(?:is|are|was|=|:)\s(?:now\s|officially\s|finally\s|actually\s)?"
                      r"(?P<v>(?:The\s)?[A-Z][a-zA-Z'’&]{1,24}"
                      r"(?:\s(?:&\s)?[A-Z][a-zA-Z'’&]{1,24}){0,2})\s?"
                      r"(?=[.!;,)]|\s(?:now|for|from|this|next|again|instead|then)\b|$)")
# "our speaker is now TOM KESSLER of Kessler's Cichlids": a two-word name, then whose it is
# (not a title: "The Importance of Being Earnest").
_IS_NAME_OF = re.compile(r"\b(?:is|are|was)\s(?:now\s)?(?P<v>(?!The\b)[A-Z][a-zA-Z'’]{1,24}\s"
                         r"(?!(?:College|University|Museum|Bank|Hall|School|Institute|Church|"
                         r"Society|Department|House|Academy|Centre|Center)\b)"
                         r"[A-Z][a-zA-Z'’]{1,24})\sof\s(?=[A-Z])")
# "the opener is now low tide", "caterer is saffron & salt now": whatever is said to be the
# thing *now* is its new value, named or not.
_NOW_VALUE = re.compile(r"\b(?:is|are|'s)\s(?:now\s(?P<a>[^.,;!?()\n]{1,40})"
                        r"|(?P<b>[^.,;!?()\n]{1,40}?)\snow\b)", re.IGNORECASE)


_PHRASE_STOP = re.compile(
    r"\s(?:instead|because|since|for|so|and|but|as|over|from|due|until|till|to|at|on|before|"
    r"this|next|it|is|will|then|now|with|in|by)\b.{0,200}$", re.IGNORECASE)


def tokenize_at(text: str, start: int, end: int) -> list[Token]:
    """Tokens of ``text[start:end]`` with offsets into ``text``."""
    return [Token(t.text, t.start + start, t.end + start) for t in tokenize(text[start:end])]


_QUARTER = re.compile(r"[qQ][1-4]|[hH][12]")


# Words ending like verbs that head noun phrases in chat ("staging", "meeting", "offsite").
_NOUN_ING = frozenset({"staging", "meeting", "planning", "onboarding", "hiring", "morning",
                       "evening", "offboarding", "booking", "pricing", "testing", "training",
                       "wedding", "building", "shipping", "billing", "logging", "monitoring",
                       "marketing", "seed", "need", "speed", "feed", "embed", "red", "bed"})


_WH = frozenset({"what", "what's", "whats", "which", "who", "who's", "whose", "when",
                 "when's", "where", "where's", "how", "how's", "why"})


_SUBJECT_PRONOUNS = frozenset({"i", "i'll", "i'm", "i've", "i'd", "im", "ill", "we", "we'll",
                               "we're", "we've", "you", "you'll", "they", "they'll",
                               "they're", "he", "she", "u"})


def _in_value(tok: Token, values: Iterable[Value]) -> Value | None:
    return next((v for v in values if v.start <= tok.start < v.end), None)


def _in_choice(tok: Token, values: Iterable[Value]) -> bool:
    """Whether ``tok`` lies inside a named choice: a quoted name opening a clause ('title:
    "When the River Came"') asks nothing."""
    return any(v.kind is Kind.CHOICE and v.start <= tok.start < v.end for v in values)


def _event_verb(toks: Sequence[Token], i: int) -> bool:
    """Whether ``toks[i]`` is an event verb ("ships", "will launch"), not the noun ("the
    launch")."""
    low = toks[i].low
    if low not in EVENT_NOUNS:
        return False
    if low not in EVENT_BASE_FORMS:
        return True
    prev = toks[i - 1].low if i > 0 else ""
    return prev in {"will", "'ll", "to", "should", "can", "would", "must", "gonna", "won't"}


def _content(toks: Sequence[Token]) -> list[Token]:
    return [t for t in toks if t.low not in STOPWORDS and t.low not in _DETERMINERS]
