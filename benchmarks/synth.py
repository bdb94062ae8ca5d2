"""A deterministic synthetic team-chat corpus for the scale benchmarks.

``generate(n, seed=...)`` returns the same channels, events and ground-truth facts for the
same arguments on every machine (``random.Random(seed)`` only; no clock, no hashing of
objects). The chat resembles a product team's workspace:

* several spaces (workspaces), each with public and private channels whose traffic is
  Zipf-skewed, so a few channels are busy and most are quiet;
* about a third of messages are thread replies to a recent root of the same channel;
* per channel, *facts* (a release date, a budget, a region, a meeting time, an owner...) are
  stated with a decision cue and later revised ("change of plan: ... moves to ..."), so the
  writer builds supersession chains;
* the rest is status updates, questions, tickets, PR numbers, agreement and noise;
* in the ``live`` mix (the default) ~1% of messages are later edited and ~0.3% deleted
  (as :class:`Edit` / :class:`Delete` events in arrival order); the ``export`` mix has none,
  like a Slack or Discord export, which carries each message's final text.

``questions(corpus, n)`` samples fact questions whose answer is a known message (for a
sanity hit rate of the search, not a quality evaluation: that is ``egmem eval``'s job).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from memory.models import Channel, Delete, Edit, Message, Scope

PLATFORM = "slack"
START = datetime(2024, 1, 8, 8, 0, tzinfo=UTC)

PROJECTS = (
    "Atlas", "Borealis", "Cobalt", "Dune", "Ember", "Fjord", "Granite", "Helix", "Ion",
    "Juniper", "Kestrel", "Lumen", "Monsoon", "Nimbus", "Onyx", "Pylon", "Quartz", "Raven",
    "Sierra", "Tundra",
)
COMPONENTS = (
    "sync engine", "billing service", "export pipeline", "search indexer", "auth gateway",
    "mobile client", "web dashboard", "notification worker", "rate limiter", "audit log",
    "data warehouse loader", "feature flag service", "onboarding flow", "admin console",
    "payments webhook", "image resizer", "cache layer", "scheduler", "CLI", "SDK",
)
PEOPLE = (
    "Alice", "Bob", "Carmen", "Dev", "Erin", "Farid", "Grace", "Hugo", "Imani", "Jonas",
    "Keiko", "Liam", "Mina", "Nadia", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tariq",
    "Uma", "Victor", "Wen", "Xavier", "Yara", "Zoe", "Amara", "Bruno", "Chloe", "Diego",
    "Elif", "Felix", "Gita", "Hiro", "Ines", "Jamal", "Kira", "Lars", "Maya", "Nils",
)
CHANNEL_STEMS = (
    "dev", "design", "general", "ops-oncall", "leadership", "release", "infra", "frontend",
    "backend", "mobile", "data", "security", "support", "sales-eng", "random", "hiring",
    "qa", "docs", "growth", "platform", "billing", "search", "perf", "incidents",
)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
REGIONS = ("us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-2",
           "ap-northeast-1", "ca-central-1", "sa-east-1")
ROOMS = ("Orca", "Falcon", "Heron", "Otter", "Lynx", "Puffin", "Walrus", "Ibis")
VENUES = ("Pho Saigon", "Taqueria Luna", "Green Bowl", "Trattoria Sole", "Ramen Ichi",
          "Curry House", "Falafel King", "Dim Sum Palace")
NOISE = ("👍", "+1", "sounds good", "thanks!", "lol", "🎉", "ack", "nice", "on it",
         "makes sense", "🙏", "ok", "agreed", "ty", "👀", "haha", "cool", "will do")
ISSUES = ("flaky", "slow", "timing out", "leaking memory", "returning 500s", "stuck",
          "double-charging", "dropping events", "OOM-killed", "throttled")


# Edit and delete rates of each event mix.
MIXES: dict[str, tuple[float, float]] = {"live": (0.01, 0.003), "export": (0.0, 0.0)}


@dataclass(frozen=True)
class Fact:
    """A stated (and maybe revised) value: ``message_id`` holds its latest value."""

    platform: str
    space: str
    channel: str
    kind: str
    subject: str
    value: str
    message_id: str
    revisions: int


@dataclass
class Corpus:
    channels: list[Channel]
    events: list[Message | Edit | Delete]
    facts: list[Fact]
    seed: int
    #: Every fact statement and revision, by message id (``facts`` keeps only the latest).
    fact_log: dict[str, Fact] = field(default_factory=dict)
    messages: int = 0
    edits: int = 0
    deletes: int = 0
    replies: int = 0
    revisions: int = 0

    def messages_only(self) -> Iterator[Message]:
        return (e for e in self.events if isinstance(e, Message))

    def spaces(self) -> list[str]:
        return sorted({c.space for c in self.channels})


@dataclass(frozen=True)
class Question:
    text: str
    scope: Scope
    answer_message_id: str


@dataclass
class _Chan:
    channel: Channel
    members: list[str]
    roots: list[str] = field(default_factory=list)
    facts: dict[tuple[str, str], Fact] = field(default_factory=dict)


def _date(rng: random.Random) -> str:
    return f"{rng.choice(WEEKDAYS)} {rng.choice(MONTHS)} {rng.randint(1, 28)}"


def _time(rng: random.Random) -> str:
    h = rng.randint(8, 17)
    return f"{h}:{rng.choice(('00', '15', '30', '45'))}"


_FACT_KINDS: dict[str, tuple[str, ...]] = {
    # kind: (subject pattern, statement, revision, question)
    "cut": ("{p} release branch cut",
            "Decision: the {s} is {v}. Please land risky changes before then.",
            "Change of plan: the {s} moves to {v}, QA needs more soak time.",
            "when is the {s}?"),
    "launch": ("{p} launch",
               "We agreed the {s} date is {v}, blog post and customer email the same morning.",
               "Update: {s} is postponed to {v} because of the {c} regression.",
               "what date is the {s}?"),
    "budget": ("{p} cloud budget alert",
               "Setting the {s} at {v} for this month.",
               "Bumping the {s} to {v}, the new cluster costs more than planned.",
               "what is the {s} set to?"),
    "region": ("{p} staging region",
               "The {s} will be {v}, mirrors where the first customer tenant lives.",
               "Switch to {v} for the {s} instead, data residency requirement.",
               "which region is the {s} in?"),
    "meeting": ("{p} weekly sync",
                "The {s} is {d} at {v} in room {r}, 30 min max.",
                "Heads up: the {s} is rescheduled to {v}, same room.",
                "what time is the {s}?"),
    "owner": ("{p} {c} owner",
              "{v} will own the {c} for {p} going forward.",
              "Actually {v} is taking over the {c} for {p}, handing over this week.",
              "who owns the {c} for {p}?"),
    "version": ("{p} next version",
                "The {s} will be {v}: {c} changes plus dark-mode fixes.",
                "Naming: we are calling the {s} {v} instead, the {c} changes the format.",
                "what is the {s} called?"),
    "lunch": ("{p} team lunch",
              "Decided: the {s} is at {v} next Friday at 12:30.",
              "Poll changed, the {s} is going with {v} instead.",
              "where is the {s}?"),
}


def _value(kind: str, rng: random.Random, chan: _Chan) -> str:
    if kind in ("cut", "launch"):
        return _date(rng)
    if kind == "budget":
        return f"${rng.randint(4, 60) * 500:,}"
    if kind == "region":
        return rng.choice(REGIONS)
    if kind == "meeting":
        return _time(rng)
    if kind == "owner":
        return rng.choice(chan.members)
    if kind == "version":
        return f"{rng.randint(1, 9)}.{rng.randint(0, 20)}"
    return rng.choice(VENUES)


def _chatter(rng: random.Random, chan: _Chan) -> str:
    p, c = rng.choice(PROJECTS), rng.choice(COMPONENTS)
    n = rng.randint(100, 9999)
    who = rng.choice(chan.members)
    roll = rng.random()
    if roll < 0.18:
        return rng.choice(NOISE)
    if roll < 0.32:
        return (f"anyone else seeing the {c} {rng.choice(ISSUES)} on {p} CI? "
                f"test_{c.split()[0]}_{n % 97} failed {rng.randint(2, 9)} times today")
    if roll < 0.45:
        return (f"PR #{n} for the {p} {c} is up, {who} can you review? "
                f"mostly {rng.choice(ISSUES)} fixes")
    if roll < 0.56:
        return (f"Filed {p[:3].upper()}-{n} for the {c}: it is {rng.choice(ISSUES)} after the "
                f"last deploy, repro steps in the ticket")
    if roll < 0.66:
        return (f"{p} {c} p95 latency is {rng.randint(80, 2400)}ms since yesterday, "
                f"{rng.choice(('looking into it', 'probably the cache', 'rolling back'))}")
    if roll < 0.75:
        return f"{who}, do we have docs for the {p} {c}? customer asked about limits"
    if roll < 0.83:
        return (f"merged the {c} refactor into {p} main, {rng.randint(3, 40)} files touched. "
                f"ping me if something breaks")
    if roll < 0.91:
        return (f"reminder: {p} demo for the {c} on {_date(rng)}, {who} is presenting, "
                f"slides in the shared drive")
    return (f"on-call handoff: {rng.randint(0, 6)} pages this week, mostly the {c} "
            f"{rng.choice(ISSUES)}. runbook updated")


def generate(
    n_messages: int,
    *,
    seed: int = 7,
    spaces: int = 2,
    channels_per_space: int = 12,
    fact_rate: float = 0.06,
    revision_rate: float = 0.4,
    reply_rate: float = 0.35,
    mix: str = "live",
) -> Corpus:
    """``n_messages`` messages (plus the ``mix``'s edits/deletes) in arrival order, fully
    determined by the arguments."""
    edit_rate, delete_rate = MIXES[mix]
    rng = random.Random(seed)
    chans: list[_Chan] = []
    for s in range(spaces):
        space = f"T{s:02d}SYNTH"
        staff = rng.sample(PEOPLE, k=min(len(PEOPLE), 24))
        for c in range(channels_per_space):
            stem = CHANNEL_STEMS[(s * channels_per_space + c) % len(CHANNEL_STEMS)]
            private = c % 5 == 4
            members = sorted(rng.sample(staff, k=4 if private else rng.randint(8, 20)))
            ch = Channel(platform=PLATFORM, space=space, id=f"C{s:02d}{c:03d}{stem.upper()[:6]}",
                         name=stem, is_private=private, members=tuple(f"U_{m}" for m in members))
            chans.append(_Chan(channel=ch, members=members))
    weights = [1.0 / (i + 1) ** 0.8 for i in range(len(chans))]
    rng.shuffle(weights)

    corpus = Corpus(channels=[c.channel for c in chans], events=[], facts=[], seed=seed)
    pending_edits: list[tuple[float, Message]] = []
    ts = START
    for i in range(n_messages):
        ts += timedelta(seconds=rng.randint(5, 240))
        chan = rng.choices(chans, weights=weights, k=1)[0]
        ch = chan.channel
        mid = f"{int(ts.timestamp())}.{i:07d}"
        speaker = rng.choice(chan.members)
        text, fact = _text(rng, chan, mid, fact_rate, revision_rate, corpus)
        thread_id = reply_to = None
        if chan.roots and rng.random() < reply_rate:
            thread_id = reply_to = rng.choice(chan.roots[-8:])
        else:
            chan.roots.append(mid)
            if len(chan.roots) > 64:
                del chan.roots[:32]
        msg = Message(
            platform=PLATFORM, space=ch.space, channel=ch.id, id=mid, user=f"U_{speaker}",
            user_name=speaker, ts=ts, text=text, thread_id=thread_id, reply_to=reply_to,
            channel_name=ch.name,
            permalink=f"https://synth.slack.com/archives/{ch.id}/p{mid.replace('.', '')}",
        )
        corpus.events.append(msg)
        corpus.messages += 1
        corpus.replies += thread_id is not None
        if fact is not None:
            chan.facts[(fact.kind, fact.subject)] = fact
            corpus.fact_log[mid] = fact
        # Edits and deletes arrive later, interleaved with newer messages.
        r = rng.random()
        if r < edit_rate and fact is None:
            pending_edits.append((i + rng.randint(3, 200), msg))
        elif r < edit_rate + delete_rate and fact is None:
            pending_edits.append((-(i + rng.randint(3, 200)), msg))
        due = [p for p in pending_edits if abs(p[0]) <= i]
        for p in due:
            pending_edits.remove(p)
            m = p[1]
            if p[0] >= 0:
                corpus.events.append(Edit(platform=m.platform, space=m.space, channel=m.channel,
                                          id=m.id, text=m.text + " (edited: typo)", ts=ts))
                corpus.edits += 1
            else:
                corpus.events.append(Delete(platform=m.platform, space=m.space,
                                            channel=m.channel, id=m.id, ts=ts))
                corpus.deletes += 1
    corpus.facts = [f for c in chans for f in c.facts.values()]
    return corpus


def _text(
    rng: random.Random, chan: _Chan, mid: str, fact_rate: float, revision_rate: float,
    corpus: Corpus,
) -> tuple[str, Fact | None]:
    if rng.random() >= fact_rate:
        return _chatter(rng, chan), None
    ch = chan.channel
    if chan.facts and rng.random() < revision_rate:
        old = chan.facts[rng.choice(sorted(chan.facts))]
        kind = old.kind
        _, _, revision, _ = _FACT_KINDS[kind]
        value = _value(kind, rng, chan)
        c = rng.choice(COMPONENTS)
        text = revision.format(s=old.subject, v=value, c=c, p=old.subject.split()[0])
        corpus.revisions += 1
        return text, Fact(platform=ch.platform, space=ch.space, channel=ch.id, kind=kind,
                          subject=old.subject, value=value, message_id=mid,
                          revisions=old.revisions + 1)
    kind = rng.choice(sorted(_FACT_KINDS))
    subject_t, statement, _, _ = _FACT_KINDS[kind]
    p, c = rng.choice(PROJECTS), rng.choice(COMPONENTS)
    subject = subject_t.format(p=p, c=c)
    value = _value(kind, rng, chan)
    text = statement.format(s=subject, v=value, c=c, p=p, d=rng.choice(WEEKDAYS),
                            r=rng.choice(ROOMS))
    return text, Fact(platform=ch.platform, space=ch.space, channel=ch.id, kind=kind,
                      subject=subject, value=value, message_id=mid, revisions=0)


def questions(corpus: Corpus, n: int, *, seed: int = 11) -> list[Question]:
    """``n`` fact questions scoped like a member asking in the fact's space: every public
    channel of the space plus the fact's own channel."""
    rng = random.Random(seed)
    deleted = {e.id for e in corpus.events if isinstance(e, Delete)}
    facts = [f for f in corpus.facts if f.message_id not in deleted]
    if not facts:
        return []
    public: dict[str, list[str]] = {}
    for c in corpus.channels:
        if not c.is_private:
            public.setdefault(c.space, []).append(c.id)
    out: list[Question] = []
    for f in rng.sample(facts, k=min(n, len(facts))):
        q = _FACT_KINDS[f.kind][3]
        words = f.subject.split()
        text = q.format(s=f.subject, p=words[0], c=" ".join(words[1:-1]) or f.subject)
        chans = tuple(sorted({*public.get(f.space, []), f.channel}))
        out.append(Question(text=text, scope=Scope(platform=f.platform, space=f.space,
                                                    channels=chans),
                            answer_message_id=f.message_id))
    return out
