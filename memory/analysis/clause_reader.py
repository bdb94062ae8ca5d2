"""How the message analyzer reads one clause: its values, the choice or status it states,
its subject, the claims it makes and its speech act (a base of
:class:`~memory.analysis.message.MessageAnalyzer`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from memory.analysis.bare_counts import label_count, raised_count, raises_team_number
from memory.analysis.claims import Claim, Clause
from memory.analysis.clause_acts import ClauseActs
from memory.analysis.clause_choice import ClauseChoice, now_thing
from memory.analysis.clause_parts import (
    _ANNOUNCES,
    _IT_IS,
    _THEN_CLOSES,
    _affair,
    _alone_in_parentheses,
    _claim_before,
    _counted_subject,
    _in_parentheses,
    _join_new_when,
    _modifiers,
    _named_as_old,
    _old_numbers,
    _states,
    _strip_possessive,
    _unjoin_moved,
    _verb_after,
    clashing,
    moved_on,
    narrated,
    ruled_out,
    said_after,
)
from memory.analysis.compared import compared
from memory.analysis.cue_words import BRACKET_ASIDES, EFFECTIVE_OPENERS, _alternation
from memory.analysis.definitions import SpeechAct
from memory.analysis.lexicon import (
    AMBIGUOUS_REASON,
    CHANGE_VERBS,
    CLAUSE_VERBS,
    DISCOURSE,
    FACET_NOUNS,
    OWNER_VERBS,
    OWNER_VERBS_S,
    ROLE_NOUNS,
    SETTLED_CHANGE,
    THING_NOW_CHANGE,
    Lexicon,
)
from memory.analysis.message_patterns import (
    _CONDITIONAL,
    _DETERMINERS,
    _NEGATED,
    _PERIOD,
    _PERSONAL,
    _PRONOUNS,
    _QUARTER,
    _content,
    _in_choice,
    _in_value,
    tokenize_at,
)
from memory.analysis.old_names import from_before, not_after, swapped_from
from memory.analysis.reason_sentences import notice_only
from memory.analysis.requested import requested_change
from memory.analysis.speaker_moves import moves_a_thing, without_addressee
from memory.analysis.subject_phrases import (
    _TIME_WORD,
    _change_object,
    _clean_subject,
    _combine,
    _event_noun,
    _for_phrase,
    _has_verb,
    _head,
    _label_subject,
    _local_words,
    _new_predicate,
    _relative_head,
    _render,
    _role_after,
    _value_noun,
    announces_a_change,
    replaced_by,
)
from memory.analysis.subjects import (
    _QUESTION_OPENERS,
    _agent_verb,
    _before_predicate,
    _handover_object,
    _object_of,
    _owner_object,
    _pronoun_verb,
    _skip_proposal,
    _skip_reason,
    _strip_openers,
    _strip_question,
    _verb_at_start,
    after_report,
    event_verb,
    skip_effective_day,
    strip_change_of_mind,
    topic_opened,
)
from memory.analysis.value_types import tokenize
from memory.analysis.values import Kind, Token, Value
from memory.text import STOPWORDS, content_terms, has_time_of_day, is_calendar_word

# A question reported rather than asked: "guest asking if …", "wondering whether …".
_ASKED_IF = re.compile(r"\b(?:asking|asks|asked|wondering|wonders|wants to know|checking)"
                       r"\s{0,3}$", re.IGNORECASE)
_IF_OPEN = re.compile(r"\s{0,3}(?:if|whether)\b", re.IGNORECASE)


def _acts_on_value(doer: Sequence[Token], values: Sequence[Value]) -> bool:
    """Whether the thing a doer acted on is itself a value (past its determiner)."""
    first = next((t for t in doer if t.low not in _DETERMINERS), None)
    return first is not None and _in_value(first, tuple(values)) is not None


class ClauseReader(ClauseChoice, ClauseActs):
    """The clause-level half of the message analyzer; it reads with ``lexicon``."""

    lexicon: Lexicon

    # ---- clauses ----------------------------------------------------------------------
    def _clause(self, start: int, end: int, values: tuple[Value, ...], *,
                label: tuple[int, int] | None, masked: str,
                all_values: tuple[Value, ...] = (),
                heading: tuple[int, int] | None = None,
                people: frozenset[str] = frozenset()) -> Clause:
        lex = self.lexicon
        part = masked[start:end]
        label_text = masked[label[0]:label[1]] if label else ""
        toks = tokenize_at(masked, start, end)
        change = lex.change_strength(lex.before_reason(part))
        if any(_IT_IS.match(masked, v.end) or _THEN_CLOSES.match(masked[:end], v.end)
               for v in values):
            change = max(change, SETTLED_CHANGE)  # "monday it is": decided, no change named
        if any(_THING_NOW.search(masked[start:v.start]) for v in values
               if v.start > start and v.kind in _MOMENTS):
            change = max(change, THING_NOW_CHANGE)  # "service now thurs 19th": a new day
        label_change = lex.change_strength(label_text) if label_text else 0.0
        if label_text and _ANNOUNCES.search(label_text):
            label_change = max(label_change, 0.6)  # "Official: Thu Feb 25, 6:30pm"
        values, old, new, modifiers = self._separate(values, masked, start, end, toks,
                                                     label_text, change, all_values)
        lab = _label_subject(masked, label, all_values) if label and not notice_only(
            label_text.lower().split()) else []  # "Notice:" names nothing of what follows
        head_lab = _label_subject(masked, heading, all_values) if heading and not notice_only(
            masked[heading[0]:heading[1]].lower().split()) else []
        if not lab and heading != label:
            lab = head_lab
        shown = tuple(v for v in tuple(values) + tuple(new) + old
                      if v not in modifiers and not v.is_year)
        asking = part.rstrip().endswith("?") or (
            bool(toks) and toks[0].low in _QUESTION_OPENERS
            and toks[0].low not in {"any", "know"} and not _in_choice(toks[0], all_values))
        base, pointer = self._subject(toks, shown, lab, masked, asking=asking, people=people,
                                      heading=bool(lab) and not label)
        header = masked[end:end + 1] == ":"
        if header and announces_a_change(toks):
            base = ""  # "Slight change: BSAC put the fee up": the header names no subject
        claims = self._claims(toks, new, shown, base, lab, masked)
        # (whom a person stands in for is no subject: "Maria had to cancel, Hemi Walker is
        # stepping in" names who gives the talk, not a thing of Maria's)
        claims = tuple(replace(c, subject="", terms=frozenset())
                       if c.value.kind is Kind.PERSON and _a_name(c.subject, part) else c
                       for c in claims)
        claims = self._before_reason(claims, part, start, (*values, *new, *old))
        if header:
            # "group meeting this week: Thursday 2pm, room 4.12": the header's period only
            # frames the value that follows it
            claims = tuple(c for c in claims if not _PERIOD.fullmatch(c.value.text))
        act = self._act(part, toks, new, old, change, label=label_text, header=header)
        if _ASKED_IF.search(masked[max(0, start - 40):start]) and _IF_OPEN.match(part):
            act = SpeechAct.QUESTION  # "guest asking if the £12 a night is per car or per room"
        else:
            act, new, claims = self._for_the_team(part, act, new, claims)
        # A clause about a value ("room B is booked all day friday", "Nov 5 is election day")
        # says something about it; it decides nothing.
        # The value must open the clause: in "scrims vs leeds are wed 7pm" the place only
        # names which scrims.
        about_value = any(v.family not in ("version",) and not v.is_year
                          and not _QUARTER.fullmatch(v.text) and _opens(masked[start:v.start])
                          for v in modifiers if v.start < (new[0].start if new else end))
        negated = bool(new) and bool(_NEGATED.search(
            masked[max(start, said_after(masked, old, start)):new[0].start]))
        if negated:
            claims = ()  # "then we can't use the 12th": not a value anyone decided
        strong = change >= 0.5 or label_change >= 0.5 or bool(label) or bool(
            lex.decision.search(part))
        stated = bool(new) and not about_value and not negated and (
            strong or _states(part, new[0], start))
        claims = tuple(
            replace(c, stated=not about_value and not negated and (
                strong or c.subject == ABSENCE_SUBJECT
                or _states(part, c.value, start, prior=_claim_before(claims, c))))
            for c in claims)
        claims = _owned_and_headed(claims, values, new, part, masked, head_lab)
        claims = _effective_from(claims, part, start)
        claims = _effective_day_yields(claims, part, start)
        claims = tuple(c for c in claims if not narrated(part, c.value, start)
                       and not clashing(part, c.value, start)
                       and not compared(part, c.value, start, shown))
        return Clause(start=start, end=end, text=part, label=label_text, subject=base,
                      terms=frozenset(content_terms(base)), claims=claims, old=old, act=act,
                      change=max(change, label_change), pointer=pointer, stated=stated)

    def _before_reason(self, claims: tuple[Claim, ...], part: str, start: int,
                       values: Sequence[Value]) -> tuple[Claim, ...]:
        """The claims a clause decides, without the values of the reason it gives after
        them ("moving it to 4pm because the room is booked at 3" decides no 3; "bumping the
        goal to $3,500 since the hotel block needs 8 rooms" no rooms). A reason that says a
        change itself ("… cuz we now expect 75 ppl") keeps its values, under their own
        subject ("we now expect", never "cuz we now expect")."""
        cut = self._reason_start(part, start, values)
        if cut < 0:
            return claims
        reason = part[cut:]
        if self.lexicon.change_strength(reason) >= 0.5 or _NOW.search(reason):
            return tuple(_without_opener(c, self.lexicon.reason_open)
                         if c.value.start >= start + cut else c for c in claims)
        kept = tuple(c for c in claims if c.value.start < start + cut)
        return kept if kept else claims

    def _reason_start(self, part: str, start: int, values: Sequence[Value]) -> int:
        """Where a reason opens after the start of ``part`` (-1 when none): an opener
        that only gives a reason ("because", "due to"), or "since" / "given" followed by a
        verb and no time ("since the hotel is now 8 rooms", not "since Monday"). Without a
        verb, words holding a value are no reason ("due to marketing friday" is a
        deadline); "BC" in capitals names a place."""
        for m in self.lexicon.reason_open.finditer(part):
            word = m.group(0).lower()
            if m.start() == 0 or not part[:m.start()].strip() or word in ("as", "after"):
                continue
            if m.group(0).isupper():
                continue  # "Whistler BC"
            rest = part[m.end():].strip(" ,:")
            holds_value = any(v.start >= start + m.end() for v in values)
            if not _has_verb(rest) and (word in AMBIGUOUS_REASON or (
                    holds_value and not _NOUN_PHRASE.match(rest))):
                continue
            if word in AMBIGUOUS_REASON and _TIME_WORD.match(rest):
                continue
            return m.start()
        return -1

    def _for_the_team(self, part: str, act: SpeechAct, new: list[Value],
                      claims: tuple[Claim, ...]
                      ) -> tuple[SpeechAct, list[Value], tuple[Claim, ...]]:
        """A condition ("if the engine lands this week") or the speaker's own affairs ("I
        have a dentist appointment at 2") decides nothing for the team; a role's period
        ("i'm primary this week") scopes the role, it is not a plan."""
        personal = (bool(_PERSONAL.match(part)) and act in (SpeechAct.DECISION,
                                                             SpeechAct.CHATTER,
                                                             SpeechAct.CANCELLATION)
                    and not any(v.kind is Kind.PERSON for v in new)
                    and not self.lexicon.decision.search(part)
                    and not raises_team_number(part)
                    # "I have arranged for Brook Stables to deliver instead": the team's
                    and not (self.lexicon.change_strength(part) >= 0.8
                             and any(v.kind is Kind.CHOICE for v in new))
                    # "I'm booking ArtMove": the speaker books the team's choice
                    and not (_BOOKS.search(part) and any(v.kind is Kind.CHOICE for v in new))
                    # "I'm moving ours to Sunday 21 June": the speaker moves a thing
                    and not moves_a_thing(tokenize(part))
                    # "my assessment's moved to tues 14th": the speaker's booking, changed, is
                    # the team's to know as much as who moved it
                    and not _OWN_THING_MOVED.search(part))
        if personal and _OWN_ABSENCE.match(part):
            # "i'm away 20 feb - 2 mar (skiing)": when the speaker is away is the team's
            # to know; the message analyzer names it after them
            away = [v for v in new if v.family == "when"]
            if away:
                return SpeechAct.DECISION, away, tuple(
                    Claim(v, ABSENCE_SUBJECT, frozenset()) for v in away)
        if _CONDITIONAL.match(part) or personal:
            return SpeechAct.CHATTER, [], ()
        if any(c.value.kind is Kind.PERSON for c in claims):
            claims = tuple(c for c in claims if c.value.family != "when"
                           or not _PERIOD.fullmatch(c.value.text))
        return act, new, claims

    def _separate(self, values: tuple[Value, ...], masked: str, start: int, end: int,
                  toks: Sequence[Token], label_text: str, change: float,
                  all_values: tuple[Value, ...] = ()
                  ) -> tuple[tuple[Value, ...], tuple[Value, ...], list[Value], set[Value]]:
        """A clause's values sorted out: those named as replaced (old), the new ones it
        states (with a choice or status it names), and those that only modify its subject
        ("room B is booked all day *friday*")."""
        part = masked[start:end]
        if change >= 0.5:
            values = _unjoin_moved(values, masked, start)
        old = tuple(v for v in values
                    if _named_as_old(masked, v, start, moved=change >= 0.5)) + _old_numbers(
            masked, start, end, values)
        old += tuple(v for v in moved_on(masked, values) if v not in old)
        old += tuple(v for v in ruled_out(masked, values, all_values) if v not in old)
        # ("community center says the heating is broken": who reports is no value)
        # (only opening the clause: "standup moving to Studio 2 says Jo" keeps Studio 2)
        opening = start + len(part) - len(part.lstrip())
        reporters = {v for v in values if v.kind in (Kind.PLACE, Kind.CHOICE)
                     and v.start <= opening + 4 and _REPORTING.match(masked, v.end)}
        new = [v for v in values if v not in old and v not in reporters and not v.is_year
               and not _in_parentheses(masked, v, start)]
        modifiers = _modifiers(toks, new, masked)
        new = [v for v in new if v not in modifiers]
        counted = (label_count(part, start, values, label_text)
                   or raised_count(part, start, values))
        if counted is not None:
            read = [v for v in values if v.start <= counted.start < v.end]
            values = (*(v for v in values if v not in read), counted)
            new = [*(v for v in new if v not in read), counted]
        # what is replaced, or who opens the clause as its doer ("Jordan got us the gym
        # instead of room B"), is no choice already found
        agent = start + len(part) - len(part.lstrip())
        choice = self._choice(part, start, tuple(
            v for v in values if v not in modifiers and v not in old and v not in reporters
            and not (v.kind is Kind.PERSON and v.start == agent)), label_text)
        if choice is not None:
            new.append(choice)
        skipped = self._skipped(part, start, values, change)
        if skipped is not None:
            # the day is the one meeting that is off, no day the thing is said to be on
            old = tuple(v for v in old if v.family != "when")
            new = [v for v in values if v.family not in ("when", "status") and v in new]
            new.append(skipped)
        status = None if skipped is not None else self._status(part, start, new)
        if status is not None:
            modifiers |= {v for v in new if v.family == "when"}
            new = [status, *(v for v in new if v.family not in ("when", "status"))]
        # "library car park, not the SU steps": the place turned down after a place stated
        spans = {(o.start, o.end) for o in old}
        old += tuple(o for v in new if v.kind in (Kind.PLACE, Kind.CHOICE)
                     and (o := not_after(masked, v)) is not None
                     and (o.start, o.end) not in spans)
        # "switching from Pett Level to Winchelsea Beach": the name the place or choice
        # goes from, though no pattern knows it
        old += tuple(o for v in new if v.kind in (Kind.PLACE, Kind.CHOICE)
                     and (o := from_before(masked, v, start, values)) is not None)
        old += tuple(o for v in new if v.kind in (Kind.PLACE, Kind.CHOICE)
                     and (o := swapped_from(masked, v, start, values)) is not None)
        return values, old, _join_new_when(new, masked), modifiers

    def _strip_retraction(self, toks: list[Token]) -> list[Token]:
        """Drop a leading correction ("scrap that, make it £350", "my bad: thursday"): its
        words name what is corrected, never the subject."""
        said = ""
        for i, t in enumerate(toks[:5]):
            said = f"{said} {t.low}".strip()
            m = self.lexicon.correction.match(said)
            if m is not None and m.end() == len(said) and i + 1 < len(toks):
                return _strip_openers(toks[i + 1:])
        return toks

    def _subject(self, toks: Sequence[Token], values: tuple[Value, ...], lab: list[Token],
                 masked: str, *, asking: bool = False,
                 people: frozenset[str] = frozenset(),
                 heading: bool = False) -> tuple[str, bool]:
        """The clause's subject phrase and whether it only points back ("it")."""
        words = after_report(_skip_proposal(self._strip_retraction(skip_effective_day(
            _strip_openers(_skip_reason(strip_change_of_mind(_outside_asides(toks, masked)))),
            values)), self.lexicon), values)
        words = without_addressee(words, people)
        if asking:
            words = _strip_question(words)
        handover = _handover_object(words, values)
        doer = _pronoun_verb(list(toks))
        if doer is None:
            doer = _agent_verb(words)  # "IPC confirmed [the audit] for tue 24 june"
        # ("re" is also an opener the words above drop: "re GM pay, I'd like to go …")
        topic = topic_opened(words, masked) or topic_opened(list(toks), masked)
        if topic is not None:
            phrase = topic  # "Regarding the manure, I propose we order from Hillside Farm"
        elif handover is not None:
            phrase = handover
        elif (requested := requested_change(words, values, masked)) is not None:
            phrase = requested  # "wattle st tenant asked to move the inspection, …"
        elif words and _verb_at_start(words, values):
            phrase = _object_of(words[1:], values)
        elif doer is not None and _content(_object_of(doer, values)):
            phrase = _object_of(doer, values)  # "I'll draft [the regression plan] today"
        elif doer is not None and _acts_on_value(doer, values):
            phrase = []  # "Jordan got us [the gym] instead of room B": the value is the thing
        else:
            phrase = _before_predicate(words, values, self.lexicon, masked)
            if not _content(phrase):
                phrase = _owner_object(words, values, masked=masked) or phrase
        if doer is not None and len(phrase) == 1 and (
                phrase[0].low in OWNER_VERBS or phrase[0].low in CHANGE_VERBS):
            phrase = []  # "I'll take sat": the verb names no subject
        kept = _clean_subject(phrase, values)
        if doer is not None and len(kept) == 1 and _verb_of(toks, kept[0], doer, values):
            phrase = kept = []  # "we'll use the library instead": nor does any verb of a pronoun
        if not kept:
            moved = _change_object(words, values)
            trailing = moved or _for_phrase(words, values)
            if trailing:
                phrase = trailing
        first_new = next((v for v in values if v.start >= (phrase[-1].end if phrase else 0)),
                         None)
        event = (_event_noun(words, phrase) if first_new is not None
                 and first_new.family == "when" else "") or _value_noun(words, phrase, values)
        own = _clean_subject(phrase, values)
        if len(own) == 1 and own[0].low in CHANGE_VERBS:
            # "£10 isnt cutting it, upping to £12": the verb names no subject; what it
            # changes is the one spoken of before ("i'd propose cutting it to £3")
            own, phrase = [], []
        if len(own) == 1 and own[0].low.removesuffix("'s").removesuffix("’s") in people:
            # "Callum is off on paternity leave from 1 Nov": the person's own affair
            affair = _affair(toks, own[0], values)
            if affair:
                return f"{_strip_possessive(own[0].text)}'s {affair}", False
        pointer = not own and (not phrase or phrase[-1].low in _PRONOUNS)
        if own and event and event.split()[0] not in {t.low for t in own}:
            return _render(own, masked) + " " + event, False
        if own:
            # A generic subject under a header that names a thing ("Fjord: first market is
            # Sweden", "Garnet: target is 15 Oct") is that thing's.
            generic = all(t.low in FACET_NOUNS for t in _content(own)) or (
                not heading and len(_content(own)) <= 1)
            if generic and lab and not {t.low for t in own} & {t.low for t in lab}:
                return _combine(_render(lab, masked), _render(own, masked), own), False
            return _render(own, masked), False
        if lab:
            return _render(lab, masked), pointer
        timed = event_verb(toks, values)
        if timed:
            return timed, False
        return "", pointer

    def _claims(self, toks: Sequence[Token], new: Sequence[Value],
                values: tuple[Value, ...], base: str, lab: list[Token],
                masked: str) -> tuple[Claim, ...]:
        """Each new value with its own subject: the words just before it when they name
        something else than the clause's subject ("failover test + engine bump to 7.1"), the
        task of an owner verb for a person, else the clause's subject."""
        out: list[Claim] = []
        everything = tuple(sorted(set(values) | set(new), key=lambda v: v.start))
        # the words before the first value: the first item's name in a list of peers
        led = {t.low for t in toks if t.end <= replaced_by(everything, new[0], masked).start
               } - STOPWORDS if new else set()
        for i, v in enumerate(new):
            subject = base
            if v.kind is Kind.PERSON:
                words = _strip_openers(list(toks))
                role = _role_after(toks, v, masked)
                task = [role] if role is not None else _handover_object(words, everything)
                if task is None:
                    task = _owner_object(toks, everything, person=v, masked=masked)
                local = _clean_subject(task or [], everything) if task is not None else []
                if task and all(t.low in _OBJECT_PRONOUNS for t in task) and not any(
                        t.start < v.start and t.low not in STOPWORDS for t in toks):
                    # "I'll do them, I've got the files already": the task is the one
                    # the talk is about, whatever the words after it name
                    out.append(Claim(v, "", frozenset()))
                    continue
                if not local:
                    local = _local_words(toks, everything, v, masked)
            else:
                # "$35 full plot, $20 half plot": in a list of items led by their values,
                # the first item names its own thing too
                leads = i == 0 and len(new) > 1 and bool(toks) and v.start <= toks[0].start
                local = (_local_words(toks, everything, v, masked)
                         if i > 0 or not base or leads else [])
                relative = _relative_head(toks, everything, v, masked) if i > 0 and \
                    not local else []
                if relative:  # "…, which drops to £130": said of the words before "which"
                    out.append(_claim_of(v, _render(relative, masked)))
                    continue
                if i > 0 and not local and _new_predicate(toks, everything, v):
                    subject = ""  # "..., they're holding back 15%": about something else
                    out.append(Claim(v, subject, frozenset()))
                    continue
            if local:
                head = [t for t in (lab or _head(base, masked, toks)) if t.low not in ROLE_NOUNS]
                if v.kind is Kind.PERSON and local[0].low not in ROLE_NOUNS and not lab:
                    head = []  # "I'll do budget": the task is the subject
                # "the prize pool goes up to $2,500 and entry drops to $20": a word with its
                # own verb is its own subject, not a part of the clause's
                own_verb = not lab and _verb_after(toks, local) and not all(
                    t.low in FACET_NOUNS for t in _content(local))
                # "sourdough $7, baguette $3.50, croissant $4": the clause's subject is its
                # first item, and the items after it are its peers, not its parts
                peer = not lab and i > 0 and bool(led) and led <= {t.low for t in head}
                if (len(_content(local)) <= 1 or local[0].low in ROLE_NOUNS) and head and not {
                        t.low for t in local} & {t.low for t in head} and not own_verb \
                        and not peer:
                    subject = _combine(_render(head, masked), _render(local, masked), local)
                else:
                    subject = _render(local, masked)
            if v.kind is Kind.PERSON and subject and all(
                    w.lower() in OWNER_VERBS or w.lower() in OWNER_VERBS_S
                    or w.lower() in CLAUSE_VERBS for w in subject.split()):
                subject = base  # "QA signoff for 2.4, Jo owns it"
            label = _BRACKET_LABEL.match(masked, v.end)
            named = label.group(1).split() if label is not None else []
            if label is not None and named and v.kind is not Kind.PERSON \
                    and named[0] not in BRACKET_ASIDES \
                    and not set(named) <= set(subject.lower().split()) and not any(
                    label.start() <= w.start < label.end() for w in everything):
                # "£12 (adults) and £6 for under-16s": the bracket names what it is of
                subject = f"{subject} {' '.join(named)}".strip()
            subject = now_thing(masked, v) or subject
            out.append(_claim_of(v, _counted_subject(v, subject)))
        return tuple(out)


def _owned_and_headed(claims: tuple[Claim, ...], values: tuple[Value, ...], new: list[Value],
                      part: str, masked: str, head_lab: list[Token]) -> tuple[Claim, ...]:
    """``claims`` with the owner a clause names in brackets ("Atlas go-live Mon 28 Oct
    (Callum)") and the header it sits under."""
    owners = [v for v in values if v.kind is Kind.PERSON and _alone_in_parentheses(masked, v)]
    if owners and claims and not _CONDITIONAL.match(part):
        # "Atlas go-live Mon 28 Oct (Callum)": the person in brackets owns the item.
        first = claims[0]
        owned = f"{first.subject} owner" if first.subject else ""
        claims = claims + tuple(Claim(v, owned, frozenset(content_terms(owned)),
                                      stated=first.stated)
                                for v in owners if v not in new)
    if head_lab:
        scope = frozenset(content_terms(_render(head_lab, masked)))
        name = " ".join(t.text for t in head_lab) if head_lab[0].text[:1].isupper() else ""
        claims = tuple(replace(c, scope=scope, heading=name) for c in claims)
    return claims


def _effective_from(claims: tuple[Claim, ...], part: str, start: int) -> tuple[Claim, ...]:
    """A day opening its clause after "from"/"as of"/"starting" is when the change that
    follows takes effect: it is said of the thing that changes ("from next monday hygiene
    recalls go to 40 min": the monday is the recalls', no other thing's new day). Not a
    hand-over's day ("handing the ordering over to priya from next week"), nor across a
    joined statement ("from thursday the canteen is closed so team lunch moves to fri")."""
    if any(c.value.kind is Kind.PERSON for c in claims):
        return claims
    owners = {c.subject for c in claims if c.subject}
    if len(owners) != 1 or _JOINED.search(part):
        return claims
    owner = owners.pop()
    return tuple(
        _claim_of(c.value, owner) if not c.subject and c.value.family == "when"
        and _EFFECTIVE_FROM.fullmatch(part[:c.value.start - start]) else c
        for c in claims)


def _effective_day_yields(claims: tuple[Claim, ...], part: str, start: int
                          ) -> tuple[Claim, ...]:
    """Without the day a change takes effect when the clause names the thing's new day or
    time too ("from may club night moves … wednesdays from 7pm", "it's THURSDAYS at the
    royal oak from may": the weekday is the club night's, may only when it starts)."""
    def effective(c: Claim) -> bool:
        at = c.value.start - start
        # (a day, not a time: "load-in from 6:30am" is when it starts)
        return (c.value.kind is Kind.DATE and not has_time_of_day(c.value.text)
                and 0 <= at <= len(part)
                and _EFFECTIVE_BEFORE.search(part[max(0, at - 24):at]) is not None
                and _RANGE_GOES_ON.match(part, at + len(c.value.text)) is None)

    return tuple(c for c in claims if not (effective(c) and any(
        d.value.family == "when" and d is not c and not effective(d) for d in claims)))


def _a_name(subject: str, part: str) -> bool:
    """Whether ``subject`` is one word ``part`` writes as the name of someone dropping out
    ("Maria had to cancel", "Jo's off sick")."""
    word = subject.strip().removesuffix("'s").removesuffix("’s")
    if not word.isalpha() or word.lower() in STOPWORDS or is_calendar_word(word):
        return False
    name = re.escape(word[:1].upper() + word[1:].lower())
    return re.search(rf"\b{name}(?:['’]s)?\s{{1,2}}{_DROPPING_OUT}", part) is not None


# Someone dropping out of what they held ("had to cancel", "'s off sick", "can't make it").
_DROPPING_OUT = (r"(?:had\sto\s(?:cancel|pull\sout|drop\sout)|can'?t|cannot|"
                 r"is\s(?:off|out|sick|ill|injured|away)|off\s(?:sick|ill)|pulled\sout|"
                 r"dropped\sout|is\sno\slonger)")


# A verb of reporting right after a name: the name is who says it.
# (not "confirmed" nor "said they'd love to": a venue confirming is the one chosen)
_REPORTING = re.compile(r"\s{1,2}(?:says|emailed|e-mailed|told\sus|rang|called|wrote|"
                        r"messaged|texted|got\sback)\b", re.IGNORECASE)


# "… from may", "as of the 3rd", "starting monday" (not "from 9 to 10": a value replaced)
_EFFECTIVE = r"(?:" + _alternation(EFFECTIVE_OPENERS) + r")"
_EFFECTIVE_BEFORE = re.compile(r"\b" + _EFFECTIVE + r"\s{1,3}$", re.IGNORECASE)
_RANGE_GOES_ON = re.compile(r"\s{0,3}(?:to|until|till|til|through|thru|-|–|→|->)\s",
                            re.IGNORECASE)


def _outside_asides(toks: Sequence[Token], masked: str) -> list[Token]:
    """``toks`` without the words of an aside in brackets ("because of the Vestland delay
    (their conservator's off sick) we're moving the opening"): an aside of three words or
    more names no subject (a word or two may name the thing: "rescheduled (Ortho)")."""
    spans = [m.span() for m in _ASIDE.finditer(masked)]
    if not spans:
        return list(toks)
    kept = [t for t in toks if not any(a <= t.start < b for a, b in spans)]
    return kept if kept else list(toks)


# A word or two in brackets right after a value, naming what it is of ("£12 (adults)").
# (people in the plural: "(members)", "(under-16s)"; not "(tbc)", "(approx)" nor an owner)
_BRACKET_LABEL = re.compile(r"\s{0,2}\(((?:[a-z][a-z'-]{1,20}\s)?[a-z][a-z'-]{1,20}[a-rt-z]s)\)")
# Booking a named choice ("I'm booking ArtMove"): done for the team.
_OWN_THING_MOVED = re.compile(
    # (not the speaker's own errands: "my dentist appointment's moved", "my flight's pushed")
    r"\bmy\s(?!(?:dentist|doctor|doctor's|gp|physio|hair|haircut|nails|flight|train|bus|car|"
    r"mot|appointment|appt|shift|lesson|class|holiday|leave|trip|operation|op|scan)\b)"
    r"(?:[\w-]{1,24}\s){0,2}?[\w-]{2,24}(?:['’]s|\s(?:is|has|was|got))\s(?:been\s|now\s)?"
    r"(?:moved|pushed|rescheduled|changed|shifted|bumped|put\sback|brought\sforward)\b",
    re.IGNORECASE)
_BOOKS = re.compile(r"\b(?:booking|booked|book|hiring|hired|hire|ordering|ordered|order)\s[A-Z]")
# An aside in brackets of three words or more.
_ASIDE = re.compile(r"\((?=[^()]{0,200}?\w\s{1,5}\w[^()]{0,200}?\w\s{1,5}\w)[^()]{1,200}\)")
# A clause joining two statements ("from thursday the canteen is closed so team lunch
# moves to fri"): its day may be the first one's.
_JOINED = re.compile(r"\b(?:so|but|because|since|and then|which means)\b", re.IGNORECASE)
_EFFECTIVE_FROM = re.compile(r"\W{0,3}" + _EFFECTIVE + r"\s{1,3}", re.IGNORECASE)


#: The subject of the speaker's own absence, named after them by the message analyzer.
ABSENCE_SUBJECT = "away"
# The speaker saying they are away ("heads up i'm on leave 16-27 march", "i'll be off
# mon-wed", "im ooo from the 3rd").
_OWN_ABSENCE = re.compile(r"^\W{0,3}(?:(?:heads\s?up|fyi|btw|so|also|reminder)\W{1,3}){0,2}"
                          r"(?:(?:i'm|i’m|im|i\sam|i'll\sbe|i’ll\sbe|i\swill\sbe)\s(?:away|off|"
                          r"out|ooo|on\s(?:leave|holiday|vacation|hols|annual\sleave|paternity\s"
                          r"leave|maternity\sleave)|out\sof\s(?:office|town))|i\swon['’]?t\sbe\s"
                          r"in)\b", re.IGNORECASE)


def _claim_of(value: Value, subject: str) -> Claim:
    return Claim(value, subject, frozenset(content_terms(subject)))


def _opens(lead: str) -> bool:
    """Whether a clause whose words before a value are ``lead`` opens with that value
    ("ok the 18th is taken"): only function and discourse words before it."""
    return all(w.lower() in STOPWORDS or w.lower() in DISCOURSE
               for w in re.findall(r"[\w'’-]{1,200}", lead))


# Objects that stand for the task the talk is about ("I'll do *them*", "I'll take *it*").
_OBJECT_PRONOUNS = frozenset({"it", "them", "that", "this", "those", "these"})


_NOW = re.compile(r"\bnow\b", re.IGNORECASE)
# A thing named, then "now", then its value ("parts on backorder, service now thurs 19th"):
# the value the thing has from here on (not "I'm now at the office", nor "and now 10").
_THING_NOW = re.compile(r"(?<![\w'’])(?!(?:i'm|im|we're|it's|its|and|but|just|right|until|till|"
                        r"from|for|are|was|were|has|have|had|been|that's|thats|what's)\s)"
                        r"[a-z][\w'’-]{2,30}\snow\s$", re.IGNORECASE)
# The kinds of value a day or time is said in.
_MOMENTS = frozenset({Kind.DATE, Kind.TIME, Kind.RANGE})
# What a reason opens on ("due to *the* rain", "due to *Tony's* closing"), as against a
# deadline's addressee ("due to marketing friday").
_NOUN_PHRASE = re.compile(r"(?:the|a|an|his|her|their|our|my|its|this|that|\w{1,40}['’]s)\b",
                          re.IGNORECASE)


def _without_opener(claim: Claim, opener: re.Pattern[str]) -> Claim:
    """``claim`` without a reason word opening its subject ("cuz we now expect")."""
    m = opener.match(claim.subject)
    if m is None:
        return claim
    subject = re.sub(r"^(?:the|a|an)\s", "", claim.subject[m.end():].strip(" ,:"),
                     flags=re.IGNORECASE)
    return replace(claim, subject=subject, terms=frozenset(content_terms(subject)))


def _verb_of(toks: Sequence[Token], word: Token, rest: Sequence[Token],
             values: Sequence[Value]) -> bool:
    """Whether ``word`` is the verb right before ``rest`` (what a pronoun and its verb are
    followed by) and takes a value as its object ("use the library"; not "drop it at
    yours tonight")."""
    obj = next((t for t in rest if t.low not in _DETERMINERS), None)
    if obj is None or _in_value(obj, values) is None:
        return False
    at = next((i for i, t in enumerate(toks) if t.start == word.start), -1)
    return 0 <= at < len(toks) - 1 and toks[at + 1].start == rest[0].start
