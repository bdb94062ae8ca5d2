"""Question-analyzer data about the nouns a question is headed by: which openers ask a
named choice and what makes that choice a team's, what follows "how much", and which head
nouns a chat drops. Data only; :mod:`memory.analysis.question_lexicon` gathers it."""

from __future__ import annotations

__all__ = ["CHOICE_OPENERS", "CHOOSING_VERBS", "LIGHT_HEADS", "MODIFIED_NOUN_CUES",
           "MONEY_WORDS", "NOUN_CUES", "QUALIFIER_PREPOSITIONS", "TEAM_WORDS", "VERB_OBJECTS"]

# Head nouns a chat drops ("the postmortem *meeting*" is "the postmortem"): a light head
# the scope never holds, after a word it does, is not asked for itself.
LIGHT_HEADS = frozenset({"meeting", "meetings", "call", "calls", "session", "sessions",
                         "sync", "catchup", "event", "events", "thing", "things", "stuff",
                         "night", "nights", "evening", "day", "days"})
# Words after "how much" that keep it asking money; any other noun there asks an amount of
# that thing ("how much *compost*").
MONEY_WORDS = frozenset({"money", "cash", "funding", "funds", "dollars", "euros", "pounds",
                         "more", "extra", "less", "over", "under", "per", "each"})
# Openers that, followed by a noun naming no kind of value, ask which named thing was
# chosen ("*which* roofer did we pick", "*what* engine are we on").
CHOICE_OPENERS = frozenset({"which", "what"})
# Words that make a named choice the team's ("which roofer did *we* pick").
TEAM_WORDS = frozenset({"we", "us", "our", "ours", "team"})
# Verbs of choosing for the team beside the decider's ("which hotel did Dana *book*").
CHOOSING_VERBS = ("book*", "hire*", "hiring", "order*", "buy", "buying", "bought",
                  "select*", "opt", "opted", "opting", "vote*", "go with", "going with",
                  "went with")
# Words that, right after what's first word, are its object: that word is then a verb
# ("what motivated *her*", "what closes *the* set"), not the noun of a choice.
VERB_OBJECTS = frozenset({"the", "a", "an", "this", "that", "these", "those", "my", "your",
                          "his", "her", "their", "its", "our", "me", "you", "him", "them",
                          "it", "us"})
# Cues that are nouns too: ending their phrase they name a thing ("the cup final"), not
# the value in force ("the final venue").
NOUN_CUES = frozenset({"final", "status"})
# Prepositions opening a qualifier: a value noun after them says which occasion ("what are
# we eating for lunch *on training day*"), not the kind of value asked.
QUALIFIER_PREPOSITIONS = frozenset({"on", "at", "for", "during", "until", "till"})
# Cues that name a thing after a word modifying them: "the dental *list*", "the guest
# *list*" are what is asked about, not a request for a list.
MODIFIED_NOUN_CUES = frozenset({"list"})
