"""Three answers as the front ends render them — a revised decision, a plain fact and an
abstention — built from the bundled sample chat's #design channel. Their Slack Block Kit
and Discord payloads are the golden files in ``tests/golden/`` (``test_golden_answers.py``)
and the pictures in ``docs/answers/`` (``docs/answers/make_pictures.py``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from adapters.discord.embeds import answer_embed
from adapters.discord.views import FeedbackCache, Rated, feedback_view
from adapters.slack.blocks import ShareOffer, answer_blocks, answer_text, feedback_value
from memory.models import Answer, ChainEntry, Citation, State, Verdict

DESIGN, GENERAL = "C02DESIGN", "C03GENERAL"
NAMES = {DESIGN: "design", GENERAL: "general", "1042338871967703080": "design"}
ASKER = "U06FARID"


def _ts(day: int, hour: int, minute: int) -> datetime:
    return datetime(2024, 11, day, hour, minute, tzinfo=UTC)


def _link(ts: datetime) -> str:
    return f"https://acme.slack.com/archives/{DESIGN}/p{int(ts.timestamp())}000100"


_REVIEW = [("Erin", _ts(4, 9, 40), "Thursday 3 pm", "Atlas design review Thursday 3 pm: new "
            "onboarding flow + bulk export screens. Carmen presenting."),
           ("Carmen", _ts(4, 9, 54), "4 pm", "Can we do 4 pm instead? I have a dentist "
            "appointment at 2 and it's across town 🦷"),
           ("Alice", _ts(6, 8, 45), "Friday 10am", "Heads up: review slips to Friday 10am. "
            "Grace wants to join and she's at the Nordhavn offsite on Thursday.")]


def revised() -> tuple[str, Answer]:
    chain = [ChainEntry(node_id=f"n_review{i}", message_id=f"17307{i}", value=value,
                        speaker=who, ts=ts, quote=text, permalink=_link(ts),
                        verdict=Verdict.REVISE if i else Verdict.ESTABLISH)
             for i, (who, ts, value, text) in enumerate(_REVIEW)]
    state = State(state_id="s_review0", platform="slack", space="T0ACME", channel=DESIGN,
                  topic="atlas design review", value="Friday 10am",
                  active_node_id=chain[-1].node_id, revision_count=2,
                  updated_at=chain[-1].ts, chain=chain)
    cites = [Citation(node_id=e.node_id, message_id=e.message_id, channel=DESIGN,
                      channel_name="design", speaker=e.speaker, ts=e.ts, quote=e.quote,
                      permalink=e.permalink) for e in reversed(chain)]
    answer = Answer(answer="atlas design review: Friday 10am (8 November 2024; was 4 pm, "
                           "Thursday 3 pm, revised by Alice on Nov 6)", short="Friday 10am",
                    citations=cites, states=[state], rounds=1)
    return "When is the Atlas design review?", answer


def fact() -> tuple[str, Answer]:
    ts = _ts(4, 10, 30)
    cite = Citation(node_id="n_sync0", message_id="1730716200.000100", channel=DESIGN,
                    channel_name="design", speaker="Carmen", ts=ts,
                    quote="Separate thing! Weekly design sync: Mondays 11:30, starting next "
                          "Monday. Short one, 20 min max ⏱️", permalink=_link(ts))
    answer = Answer(answer="Weekly design sync: Mondays 11:30, starting Monday 11 November",
                    short="Mondays 11:30", citations=[cite], rounds=1)
    return "When is the weekly design sync?", answer


def abstention() -> tuple[str, Answer]:
    return "Who is the pizza vendor for the launch party?", Answer(
        answer="I found nothing about that in the channels you can read.", abstained=True,
        rounds=1)


EXAMPLES = {"revised": revised, "fact": fact, "abstention": abstention}


def slack_payload(name: str) -> dict[str, Any]:
    """The ``/recall`` reply (ephemeral, from #design) as posted to the response URL."""
    question, answer = EXAMPLES[name]()
    share = None if answer.abstained else ShareOffer(value="share-token")
    return {"response_type": "ephemeral", "replace_original": True,
            "text": answer_text(answer),
            "blocks": answer_blocks(answer, question=question, share=share,
                                    feedback=feedback_value(answer, question=question,
                                                            asker=ASKER))}


class _FixedTokens(FeedbackCache):
    def put(self, rated: Rated) -> str:
        return "example"


def discord_payload(name: str) -> dict[str, Any]:
    """The ``@egmem`` answer in a Discord thread: the embed and the 👍/👎 buttons."""
    question, answer = EXAMPLES[name]()
    answer = answer.model_copy(update={
        "citations": [c.model_copy(update={"channel": "1042338871967703080",
                                           "permalink": None if c.permalink is None else
                                           c.permalink.replace("https://acme.slack.com/archives/"
                                                               "C02DESIGN/p",
                                                               "https://discord.com/channels/"
                                                               "1042338871355334656/"
                                                               "1042338871967703080/")})
                      for c in answer.citations],
        "states": [s.model_copy(update={"channel": "1042338871967703080"})
                   for s in answer.states]})
    view = feedback_view(_FixedTokens(), answer, question=question, asker=ASKER,
                         space="1042338871355334656", channel="1042338871967703080")
    return {"embeds": [answer_embed(answer, question=question).to_dict()],
            "components": view.to_components(), "allowed_mentions": {"parse": []}}
