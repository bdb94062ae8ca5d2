"""Answer and timeline embeds: content, Discord's size limits, chains, escaping."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import discord

from adapters.discord.embeds import (
    DESCRIPTION_LIMIT,
    FIELD_COUNT_LIMIT,
    FIELD_NAME_LIMIT,
    FIELD_VALUE_LIMIT,
    TITLE_LIMIT,
    TOTAL_LIMIT,
    answer_embed,
    clip,
    fit_lines,
    timeline_embed,
)
from memory.models import Answer, ChainEntry, Citation, State, Verdict

T0 = datetime(2024, 4, 5, 19, 0, tzinfo=UTC)
GUILD, GENERAL = "1042338871355334656", "1042338871967703080"


def link(mid: str) -> str:
    return f"https://discord.com/channels/{GUILD}/{GENERAL}/{mid}"


def cite(i: int, quote: str = "Deploy window is Thursday 14:00 UTC", *,
         speaker: str = "Nelly", channel_name: str = "general") -> Citation:
    return Citation(node_id=f"n{i}", message_id=str(1000 + i), channel=GENERAL,
                    channel_name=channel_name, speaker=speaker,
                    ts=T0 + timedelta(minutes=i), quote=quote, permalink=link(str(1000 + i)))


def entry(i: int, value: str, speaker: str = "Ann K") -> ChainEntry:
    return ChainEntry(node_id=f"n{i}", message_id=str(1000 + i), value=value, speaker=speaker,
                      ts=T0 + timedelta(days=i), quote=value,
                      verdict=Verdict.ESTABLISH if i == 0 else Verdict.REVISE,
                      permalink=link(str(1000 + i)))


def state(values: list[str], topic: str = "deploy window") -> State:
    chain = [entry(i, v) for i, v in enumerate(values)]
    return State(state_id="s1", platform="discord", space=GUILD, channel=GENERAL, topic=topic,
                 value=values[-1] if values else "", active_node_id=chain[-1].node_id if chain
                 else "n0", revision_count=max(len(values) - 1, 0),
                 updated_at=T0 + timedelta(days=len(values)), chain=chain)


def within_limits(embed: discord.Embed) -> None:
    data = embed.to_dict()
    json.dumps(data)  # serializable as sent
    assert len(data.get("title", "")) <= TITLE_LIMIT
    assert len(data.get("description", "")) <= DESCRIPTION_LIMIT
    fields = data.get("fields", [])
    assert len(fields) <= FIELD_COUNT_LIMIT
    for f in fields:
        assert 0 < len(f["name"]) <= FIELD_NAME_LIMIT
        assert 0 < len(f["value"]) <= FIELD_VALUE_LIMIT
    assert len(embed) <= TOTAL_LIMIT


def test_answer_embed_carries_answer_and_citations() -> None:
    answer = Answer(answer="Friday 10:00 UTC.", citations=[cite(1), cite(2, "moved to Friday",
                                                                           speaker="Ann K")])
    embed = answer_embed(answer, question="when is the deploy window?")
    within_limits(embed)
    assert embed.title == "when is the deploy window?"
    assert embed.description == "Friday 10:00 UTC."
    assert embed.colour == discord.Colour.blurple()
    first, second = embed.fields
    assert first.name == "[1] Nelly"
    ts = int((T0 + timedelta(minutes=1)).timestamp())
    assert first.value == (f"<#{GENERAL}> · <t:{ts}:f> · [jump]({link('1001')})\n"
                           "> Deploy window is Thursday 14:00 UTC")
    assert second.name == "[2] Ann K"
    assert embed.footer.text == "2 sources"


def test_an_abstention_looks_different_and_says_why() -> None:
    embed = answer_embed(Answer(answer="I don't know.", abstained=True))
    assert embed.colour == discord.Colour.greyple()
    assert embed.fields == []
    assert embed.footer.text == "No supporting messages found in channels you can read."


def test_citations_without_names_or_links_still_render() -> None:
    bare = Citation(node_id="n", message_id="1", channel=GENERAL, speaker="U1", ts=T0, quote="")
    (field,) = answer_embed(Answer(answer="x", citations=[bare])).fields
    assert field.name == "[1] U1"
    assert field.value == f"<#{GENERAL}> · <t:{int(T0.timestamp())}:f>"


def test_revised_states_lead_with_their_chain_current_value_first() -> None:
    answer = Answer(answer="deploy window: Friday 11:00 (was Friday 10:00, revised by Ann K on "
                           "Apr 7)", citations=[cite(1)], states=[
        state(["Thursday 14:00", "Friday 10:00", "Friday 11:00"]),
        state(["only one value"], topic="unrevised"),
    ])
    embed = answer_embed(answer)
    # the answer first, as the decision's current value; no UTC date string
    assert embed.description == "**Deploy window**: **Friday 11:00**"
    chain, cite_field = embed.fields  # a lone value has no story; the chain before sources
    assert chain.name == "Deploy window" and cite_field.name == "[1] Nelly"
    ts = int((T0 + timedelta(days=2)).timestamp())
    assert chain.value == (f"now **Friday 11:00** (Ann K, <t:{ts}:d>) · was **Friday 10:00** "
                           f"(Ann K) · was **Thursday 14:00** (Ann K) [↗]({link('1002')})")


def test_huge_answers_are_cut_to_discords_limits() -> None:
    answer = Answer(
        answer="word " * 3000,
        citations=[cite(i, "q" * 2000, speaker="S" * 300, channel_name="c" * 300)
                   for i in range(40)],
        states=[state([f"value {i} " + "v" * 400 for i in range(30)])],
    )
    embed = answer_embed(answer, question="why? " * 100, max_citations=40)
    within_limits(embed)
    assert (embed.description or "").endswith("…")
    assert (embed.title or "").endswith("…")
    shown = len([f for f in embed.fields if (f.name or "").startswith("[")])
    assert shown < 40
    assert embed.footer.text == f"40 sources ({40 - shown} not shown)"


def test_max_citations_caps_the_fields() -> None:
    embed = answer_embed(Answer(answer="a", citations=[cite(i) for i in range(12)]),
                         max_citations=5)
    assert len(embed.fields) == 5
    assert embed.footer.text == "12 sources (7 not shown)"


def test_a_long_chain_keeps_the_newest_entries_and_counts_the_rest() -> None:
    values = [f"window {i} " + "x" * 60 for i in range(100)]
    embed = answer_embed(Answer(answer="a", states=[state(values)]))
    within_limits(embed)
    (field,) = embed.fields
    value = field.value or ""
    assert value.startswith("now **window 99 ") and "was **window 98 " in value
    assert "+97 earlier" in value


def test_fit_lines_keeps_at_least_the_newest_line() -> None:
    assert fit_lines(["old", "new" * 50], 20) == clip("… 1 earlier\n" + "new" * 50, 20)
    assert fit_lines(["a", "b"], 100, head="h") == "h\na\nb"


def test_chat_text_cannot_break_the_markdown_or_ping() -> None:
    sneaky = "**bold** ~~x~~ `code` @everyone [click](https://evil.example)\nsecond line"
    answer = Answer(answer="a", citations=[cite(1, sneaky, speaker="*star*")],
                    states=[state(["~~old~~", sneaky])])
    embed = answer_embed(answer)
    chain_field, cite_field = embed.fields
    assert cite_field.name == r"[1] \*star\*"
    quote = (cite_field.value or "").split("\n> ", 1)[1]
    assert "\n" not in quote  # one quoted line
    assert r"\*\*bold\*\*" in quote and r"\~\~x\~\~" in quote and r"\`code\`" in quote
    assert "@everyone" not in quote  # neutralised (a zero-width space follows the @)
    assert r"\[click](https://evil.example)" in quote  # not a masked link
    assert r"was **\~\~old\~\~** (Ann K)" in (chain_field.value or "")


def test_the_answer_text_itself_is_escaped() -> None:
    sneaky = "Deploy is [Friday](https://evil.example) **now** @everyone <@&123> <#456>"
    embed = answer_embed(Answer(answer=sneaky, citations=[cite(1)]))
    description = embed.description or ""
    assert r"\[Friday](https://evil.example)" in description  # shown, not a masked link
    assert r"\*\*now\*\*" in description and "@everyone" not in description
    assert r"\<@&123>" in description and r"\<#456>" in description


def test_timeline_embed_lists_states_with_their_chains() -> None:
    states = [state(["Thursday", "Friday"]), state(["Postgres 15", "Postgres 16"], topic="db")]
    embed = timeline_embed(states, topic="deploy window")
    within_limits(embed)
    assert embed.title == "History: deploy window"
    first, second = embed.fields
    assert first.name == "Deploy window" and second.name == "Db"
    head, old, new = (first.value or "").splitlines()
    assert head.startswith(f"in <#{GENERAL}> · 1 revision · updated <t:")
    assert old.startswith("~~Thursday~~") and new.startswith("**Friday**")
    assert embed.footer.text == "2 decisions"


def test_timeline_embed_without_states_says_so() -> None:
    embed = timeline_embed([], topic="lunch")
    assert embed.fields == []
    assert embed.description == "Nothing recorded about “lunch” in channels you can read."


def test_a_state_without_a_chain_shows_its_value() -> None:
    bare = State(state_id="s", platform="discord", space=GUILD, channel=GENERAL, topic="t",
                 value="current", active_node_id="n", updated_at=T0)
    (field,) = timeline_embed([bare], topic="t").fields
    assert (field.value or "").splitlines()[-1] == "**current**"


def test_many_large_states_fit_in_one_timeline() -> None:
    states = [state([f"v{j} " + "y" * 500 for j in range(4)], topic=f"topic {i}")
              for i in range(40)]
    embed = timeline_embed(states, topic="everything " * 40)
    within_limits(embed)
    shown = len(embed.fields)
    assert embed.footer.text == f"40 decisions ({40 - shown} not shown)"


def test_chains_follow_the_shared_timeline_model() -> None:
    # memory.timeline decides what is current: the active node, not the last entry
    s = state(["Thursday", "Friday", "Saturday"]).model_copy(update={"active_node_id": "n1"})
    (field,) = answer_embed(Answer(answer="a", states=[s])).fields
    value = field.value or ""
    assert value.startswith("now **Friday** (Ann K") and "was **Thursday** (Ann K)" in value
    assert "Saturday" not in value  # neither superseded nor current
    (tl,) = timeline_embed([s], topic="deploy window").fields
    assert (tl.value or "").splitlines()[2].startswith("**Friday**")
