"""Block Kit rendering: content, escaping and Slack's size limits."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from adapters.slack.audit import audit_blocks, audit_text
from adapters.slack.blocks import (
    MAX_BLOCKS,
    MAX_CITATIONS,
    MAX_CONTEXT_TEXT,
    MAX_SECTION_TEXT,
    ShareOffer,
    answer_blocks,
    answer_text,
    chain_line,
    fit,
    link,
    timeline_blocks,
    timeline_text,
)
from memory.models import (
    Answer,
    ChainEntry,
    Citation,
    EvidenceNode,
    Outcome,
    Proposal,
    State,
    Verdict,
    Verification,
)

T0 = datetime(2024, 11, 2, 15, 0, tzinfo=UTC)


def entry(value: str, speaker: str, ts: datetime, n: int, permalink: str | None = None
          ) -> ChainEntry:
    return ChainEntry(node_id=f"n{n}", message_id=str(n), value=value, speaker=speaker, ts=ts,
                      quote=f"standup at {value}", verdict=Verdict.REVISE if n else
                      Verdict.ESTABLISH, permalink=permalink)


def state(*values: str, topic: str = "standup time") -> State:
    chain = [entry(v, "Alice", T0 + timedelta(days=i), i,
                   permalink=f"https://acme.slack.com/archives/C1/p17000000{i:02d}000100")
             for i, v in enumerate(values)]
    return State(state_id="s1", platform="slack", space="T1", channel="C1", topic=topic,
                 value=values[-1], active_node_id=chain[-1].node_id,
                 revision_count=len(values) - 1, updated_at=chain[-1].ts, chain=chain)


def cite(n: int, quote: str = "standup moves to 4 pm", speaker: str = "Alice",
         permalink: str | None = "https://acme.slack.com/archives/C1/p1712000002000100"
         ) -> Citation:
    return Citation(node_id=f"n{n}", message_id=str(n), channel="C1", channel_name="general",
                    speaker=speaker, ts=T0, quote=quote, permalink=permalink)


def texts(blocks: list[dict[str, object]]) -> str:
    return json.dumps(blocks, ensure_ascii=False)


def test_answer_first_then_the_chain_then_evidence_then_buttons() -> None:
    answer = Answer(answer="Standup is at 4 pm.", citations=[cite(1)],
                    states=[state("3 pm", "4 pm")])
    blocks = answer_blocks(answer, question="when is standup?",
                           share=ShareOffer(value="token"), feedback="fb")
    out = texts(blocks)
    assert blocks[0]["text"]["text"] == "Standup is at 4 pm."  # the first block answers
    assert blocks[1]["type"] == "context" and "when is standup?" in out
    # the chain, current value first: "now *4 pm* (Alice, <date>) · was *3 pm* (Alice)"
    line = chain_line(state("3 pm", "4 pm"))
    assert re.fullmatch(r"now \*4 pm\* \(Alice, <!date\^\d+\^\{date_short_pretty\}\^"
                        r"https://acme\.slack\.com/archives/C1/p1700000001000100\|Nov 3, "
                        r"2024>\) · was \*3 pm\* \(Alice\)", line)
    assert blocks[2]["text"]["text"] == "*Standup time*\n" + line
    assert "> standup moves to 4 pm" in out
    assert ("— *Alice* in <#C1> · <!date^1730559600^{date_short_pretty} {time}^"
            "https://acme.slack.com/archives/C1/p1712000002000100|Nov 2, 2024 15:00 UTC>") in out
    assert "s1" not in out and "n1" not in out  # no internal ids
    assert blocks[-1]["type"] == "actions"
    assert [e["action_id"] for e in blocks[-1]["elements"]] == [
        "egmem_feedback_up", "egmem_feedback_down", "egmem_share"]
    assert answer_text(answer) == "Standup is at 4 pm."


def test_a_reader_line_about_a_revised_decision_becomes_its_current_value() -> None:
    answer = Answer(answer="standup time: 4 pm (was 3 pm, revised by Alice on Nov 3)",
                    states=[state("3 pm", "4 pm")])
    blocks = answer_blocks(answer)
    assert blocks[0]["text"]["text"] == "*Standup time*: *4 pm*"  # no UTC date string
    assert blocks[1]["text"]["text"].startswith("now *4 pm* (Alice, <!date^")


def test_a_share_that_would_withhold_says_so_instead_of_a_button() -> None:
    blocks = answer_blocks(Answer(answer="a", citations=[cite(1)]),
                           share=ShareOffer(withheld=("G0SECRET",)), feedback="fb")
    out = texts(blocks)
    assert "egmem_share" not in out
    assert "Not shareable here: it quotes <#G0SECRET>" in out


def test_single_entry_state_shows_no_chain_and_abstention_is_marked() -> None:
    blocks = answer_blocks(Answer(answer="", abstained=True, states=[state("3 pm")]))
    out = texts(blocks)
    assert "couldn't find" in out
    assert "No supporting evidence in the channels this answer may read" in out
    assert "was *" not in out and not any(b["type"] == "actions" for b in blocks)


def test_user_text_is_escaped_everywhere() -> None:
    evil = "<!channel> & <https://evil.example|click> <@U123>"
    answer = Answer(answer=evil, citations=[cite(1, quote=evil, speaker="<b>Mallory</b>")],
                    states=[state("<!here>", "a & b")])
    out = texts(answer_blocks(answer, question=evil))
    assert "<!channel>" not in out and "<!here>" not in out and "<https://evil" not in out
    assert "<@U123>" not in out and "<b>" not in out
    assert "&lt;!channel&gt; &amp; &lt;https://evil.example|click&gt;" in out
    tl = texts(timeline_blocks([state("<!here>", "a & b")], topic="<!everyone>"))
    assert "<!here>" not in tl and "&amp;" in tl


def test_unsafe_permalinks_are_not_linked() -> None:
    assert link("javascript:alert(1)", "open") == ""
    assert link("https://x.slack.com/a|b>", "open") == ""
    assert link(None, "open") == ""
    out = texts(answer_blocks(Answer(answer="a", citations=[cite(1, permalink="ftp://x")])))
    assert "ftp://" not in out


def test_limits_long_text_and_many_citations() -> None:
    answer = Answer(answer="x" * 10_000 + " <&>", citations=[cite(i, quote="q" * 5000)
                                                              for i in range(80)],
                    states=[state("1", "2", "3", "4", "5", topic=f"t{i}") for i in range(60)])
    blocks = answer_blocks(answer, share=ShareOffer(value="v"))
    assert len(blocks) <= MAX_BLOCKS
    assert blocks[-1]["type"] == "actions"  # the button survives trimming
    for b in blocks:
        t = b.get("text")
        if isinstance(t, dict):
            assert len(t["text"]) <= MAX_SECTION_TEXT
    # revised states are capped, so the evidence still fits

    def quoted(bs: list[dict[str, object]]) -> int:
        return sum(1 for b in bs if b["type"] == "section"
                   and str(b["text"]["text"]).startswith("> "))  # type: ignore[index]

    assert quoted(blocks) == MAX_CITATIONS
    few = answer_blocks(Answer(answer="a", citations=[cite(i) for i in range(80)]))
    assert quoted(few) == MAX_CITATIONS
    assert f"top {MAX_CITATIONS} of 80" in texts(few)
    assert len(answer_blocks(Answer(answer="a"), share=ShareOffer(value="v" * 2001))) == 1


def test_timeline_strikes_superseded_values_and_bolds_the_current_one() -> None:
    blocks = timeline_blocks([state("3 pm", "4 pm", "4:30 pm")], topic="standup")
    out = texts(blocks)
    assert blocks[0]["type"] == "header"
    assert "~3 pm~" in out and "~4 pm~" in out and "*4:30 pm*" in out
    assert "~4:30 pm~" not in out
    assert "now *4:30 pm* · 2 revisions" in out and "in <#C1>" in out
    assert out.count("^https://acme.slack.com/archives/C1/p17000000") == 3  # dates link
    assert "s1" not in out  # no internal ids


def test_timeline_caps_states_and_handles_none() -> None:
    many = [state("a", "b", topic=f"topic {i}") for i in range(40)]
    blocks = timeline_blocks(many, topic="everything")
    assert len(blocks) <= MAX_BLOCKS
    assert "more not shown" in texts(blocks)
    empty = timeline_blocks([], topic="nothing")
    assert "No decisions" in texts(empty)


def test_strike_marker_inside_a_value_cannot_break_formatting() -> None:
    out = texts(timeline_blocks([state("~old~", "*new*")], topic="t"))
    assert "~∼old∼~" in out and "*∗new∗*" in out


@given(st.text(alphabet=st.sampled_from("ab&<> \n"), max_size=400), st.integers(5, 300))
def test_fit_never_exceeds_the_limit_or_splits_an_entity(raw: str, limit: int) -> None:
    out = fit(raw, limit)
    assert len(out) <= limit
    body = out.removesuffix("…")
    assert re.sub(r"&(amp|lt|gt);", "", body).count("&") == 0
    assert "<" not in out and ">" not in out


# --- shared timeline model ---------------------------------------------------------------


def test_current_value_follows_the_active_node_not_the_last_entry() -> None:
    # memory.timeline decides what is current: here the middle entry is the active node
    s = state("3 pm", "4 pm", "4:30 pm").model_copy(update={"active_node_id": "n1"})
    line = chain_line(s)
    assert line.startswith("now *4 pm* (Alice")
    assert "was *3 pm*" in line and "4:30 pm" not in line
    out = texts(timeline_blocks([s], topic="standup"))
    assert "~3 pm~" in out and "*4 pm*" in out
    assert "~4:30 pm~" not in out and "*4:30 pm*" not in out and "4:30 pm" in out


def test_timeline_fallback_text_summarises_each_chain_escaped() -> None:
    text = timeline_text([state("3 pm", "<!here> 4 pm")], topic="standup")
    assert text.splitlines()[0] == "History of standup: 1 decision(s)"
    assert text.splitlines()[1] == "standup time: &lt;!here&gt; 4 pm — Alice, Nov 3 · " \
                                   "was 3 pm — Alice, Nov 2"


def test_timeline_shows_no_internal_ids() -> None:
    out = texts(timeline_blocks([state("3 pm", "4 pm")], topic="standup"))
    assert "`s1`" not in out and '"s1"' not in out


# --- audits ------------------------------------------------------------------------------


def node(n: int, text: str, *, outcome: Outcome = Outcome.DOWNGRADED,
         reasons: tuple[str, ...] = ("value quote '5 pm' is not grounded in the message",),
         **extra: object) -> EvidenceNode:
    fields: dict[str, object] = {
        "node_id": f"n_{n:020x}", "platform": "slack", "space": "T1", "channel": "C1",
        "channel_name": "general", "message_id": f"17120000{n:02d}.000100",
        "speaker_id": "U1", "speaker": "Alice", "ts": T0 + timedelta(hours=n), "text": text,
        "permalink": f"https://acme.slack.com/archives/C1/p17120000{n:02d}000100",
        "state_id": "s_00000000000000000001", "verdict": Verdict.ESTABLISH, "value": "4 pm",
        "proposal": Proposal(message_id=str(n), topic="standup time", verdict=Verdict.REVISE,
                             source_quote="5 pm", prior_state_id="s_00000000000000000001"),
        "verification": Verification(outcome=outcome, verdict=Verdict.ESTABLISH,
                                     reasons=list(reasons)),
    }
    fields.update(extra)
    return EvidenceNode.model_validate(fields)


def test_audit_shows_proposal_verification_with_reasons_and_evidence() -> None:
    blocks = audit_blocks([node(1, "standup moves to 4 pm")], ident="s_00000000000000000001")
    out = texts(blocks)
    assert blocks[0]["type"] == "header"
    assert "> standup moves to 4 pm" in out
    assert "<https://acme.slack.com/archives/C1/p1712000001000100|open>" in out
    assert "*Proposed* by offline: revise · topic _standup time_ · quote “5 pm” · prior " \
           "`s_00000000000000000001`" in out
    assert "*Verified:* downgraded as establish — value quote '5 pm' is not grounded in the " \
           "message" in out
    assert "*Committed:* establish in `s_00000000000000000001` · value *4 pm*" in out
    assert audit_text([node(1, "x")], ident="s_1") == "Audit of s_1: 1 message"


def test_audit_escapes_chat_text_and_respects_limits() -> None:
    evil = "<!channel> moved `standup` & <https://evil.example|here>"
    nodes = [node(i % 60, evil * 40, reasons=(evil,), value=evil, rewrite=evil * 3)
             for i in range(60)]
    blocks = audit_blocks(nodes, ident="<!everyone>")
    out = texts(blocks)
    assert "<!channel>" not in out and "<!everyone>" not in out and "<https://evil" not in out
    assert len(blocks) <= MAX_BLOCKS and "more messages not shown" in out
    for b in blocks:
        t = b.get("text")
        if isinstance(t, dict):
            assert len(t["text"]) <= MAX_SECTION_TEXT
        for el in b.get("elements", []):
            assert len(el["text"]) <= MAX_CONTEXT_TEXT


def test_audit_of_nothing_readable_says_so_without_details() -> None:
    out = texts(audit_blocks([], ident="https://acme.slack.com/archives/C9/p1712000001000100"))
    assert "no record of that in the channels you can read" in out
    assert audit_text([], ident="x") == "I have no record of that in the channels you can read."
