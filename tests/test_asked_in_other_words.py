"""A question asked in other words than the chat's: the verb after its subject ("do the
sunday rides *leave*", "did imogen *take over*"), the verb of a *who* question ("who
*thought* it should be £75"), "first" of an original value, a weekday naming a series ("the
sunday rides") and a month named bare ("from april") are found in what the chat said; a
month naming which instance ("the May comp") rules out another month's.

Real write path (offline proposer, HashingEmbedder) and the offline reader."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memory.analysis.question import analyze_question
from memory.analysis.value_types import Kind
from memory.models import Scope
from tests.support.chat_reader import ChannelChat, channel_chat, chat_author, written_reader
from tests.support.claims import claims_of

DAY = 60 * 24
START = datetime(2024, 5, 7, 9, 0, tzinfo=UTC)  # a Tuesday


def _rides(tmp_path: Path) -> ChannelChat:
    return channel_chat(tmp_path, [
        (0, "sol", "Sunday social ride this week: meet 9am outside the shop, 40km loop to "
                   "Hatton with a cafe stop"),
        (DAY, "greta", "can someone take the bins out tonight, I'm off early"),
        (7 * DAY, "sol", "With this heat, sunday rides start at 8:30am from this week, not 9. "
                         "Same place."),
        (30 * DAY, "sol", "Handing the sunday rides over to Imogen from 16 June, I'm picking "
                          "up weekend shifts in the workshop"),
        (31 * DAY, "ravi", "I'll take the Saturday shift on the 15th if that helps"),
    ], start=START, asked=datetime(2024, 7, 2, 12, 0, tzinfo=UTC))


def test_a_weekday_before_a_series_names_it_and_its_verb_is_said_in_other_words(
        tmp_path: Path) -> None:
    assert analyze_question("What time do the Sunday rides leave?").verbs == ("leave",)
    chat = channel_chat(tmp_path, [
        (0, "sol", "Sunday social ride this week: meet 9am outside the shop, 40km loop to "
                   "Hatton with a cafe stop"),
        (DAY, "greta", "can someone take the bins out tonight, I'm off early"),
        (7 * DAY, "sol", "With this heat, sunday rides start at 8:30am from this week, not 9. "
                         "Same place."),
    ], start=START, asked=datetime(2024, 7, 2, 12, 0, tzinfo=UTC))
    answer = chat.answer("What time do the Sunday rides leave?")
    first = answer.answer.splitlines()[0]
    assert not answer.abstained and "8:30" in first and "june" not in first.lower()


def test_a_verb_the_chat_says_only_of_other_things_is_said_in_other_words(
        tmp_path: Path) -> None:
    # "take" is said of the bins and a shift, never of the rides: the handover says it
    chat = _rides(tmp_path)
    answer = chat.answer("When did Imogen take over the Sunday rides?")
    # the 16 June nearest when it was said, not the one a year before
    assert not answer.abstained and "16 june 2024" in answer.answer.splitlines()[0].lower()


def test_a_month_naming_which_instance_rules_out_another_months(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "mara", "April theme is Reflections. Up to 2 entries each, deadline Sunday 28 "
                    "April midnight"),
        (20 * DAY, "mara", "April comp closed with 27 entries. Results at club night Tuesday "
                           "30 April, Kim judging live."),
    ], start=datetime(2024, 4, 2, 9, 0, tzinfo=UTC),
        asked=datetime(2024, 5, 20, 12, 0, tzinfo=UTC))
    assert chat.answer("Who's judging the May comp?").abstained
    assert "kim" in chat.first("Who's judging the April comp?").lower()
    # the next comp, whose entries close in April, may be May's: not ruled out
    nxt = channel_chat(tmp_path / "next", [
        (0, "mara", "Kim's judging the next comp (theme: Water), entries close 30 April"),
    ], start=datetime(2024, 4, 10, 9, 0, tzinfo=UTC),
        asked=datetime(2024, 4, 20, 12, 0, tzinfo=UTC))
    assert "kim" in nxt.first("Who's judging the May comp?").lower()


def test_a_month_said_bare_is_the_month_asked(tmp_path: Path) -> None:
    chat = channel_chat(tmp_path, [
        (0, "dee", "monthly dues update: ok so 475/month starting april, up from 450. it's "
                   "the insurance bump"),
        (DAY, "rob", "fine by me"),
    ], start=datetime(2025, 2, 10, 9, 0, tzinfo=UTC),
        asked=datetime(2025, 5, 20, 12, 0, tzinfo=UTC))
    answer = chat.answer("what are the monthly dues gonna be from april")
    assert not answer.abstained and "475" in answer.answer.splitlines()[0]
    # "May need to …" names no month
    rota = channel_chat(tmp_path / "rota", [
        (0, "dee", "May need to push the rota back, 3 people off sick"),
        (60, "rob", "rota for june: dee mon, rob tue"),
    ], start=datetime(2024, 4, 10, 9, 0, tzinfo=UTC),
        asked=datetime(2024, 4, 20, 12, 0, tzinfo=UTC))
    assert "may need" not in rota.first("what's the rota from may").lower()


def test_who_thought_a_value_right_is_who_put_it_forward(tmp_path: Path) -> None:
    # an opinion of what should be asks who put it forward; one of how it is does not
    assert analyze_question("who thought the kit was too expensive?").role != "proposer"
    chat = channel_chat(tmp_path, [
        (0, "alex", "Service prices going up from 1 June: standard service £65 → £70, full "
                    "strip-down £140 → £150."),
        (20, "finn", "Should standard be £75? Halfords is 75 now"),
        (30, "alex", "No, £70. We're not Halfords and the regulars will notice. £70 it is."),
    ], start=START, asked=datetime(2024, 6, 20, 12, 0, tzinfo=UTC))
    first = chat.first("Who thought the standard service should be £75?")
    assert "finn" in first.lower() and "alex" not in first.lower()


def test_each_old_to_new_pair_of_a_list_is_said_of_its_own_thing() -> None:
    claims = claims_of("Service prices going up from 1 June: standard service £65 → £70, "
                       "full strip-down £140 → £150. E-bike service stays at £85.")
    money = [(s, v) for s, v, k in claims if k is Kind.MONEY]
    assert ("standard service", "£70") in money
    assert ("full strip-down", "£150") in money
    # a value of another kind after "to" replaces nothing: "till 6:30 to open the bar"
    assert ("blow dry", "£45") in [(s, v) for s, v, _ in claims_of(
        "blow dry £42 -> £45, gents £18 -> £20")]
    assert ("gents", "£20") in [(s, v) for s, v, _ in claims_of(
        "blow dry £42 -> £45, gents £18 -> £20")]


def test_first_of_an_original_value_is_no_word_to_find() -> None:
    for question in ("which pub did we first pick for the xmas do",
                     "which caterer did we have lined up first",
                     "what was early bird first gonna be"):
        assert "first" not in analyze_question(question).terms, question
    # "the first weigh in", "first prize" name a thing
    assert "first" in analyze_question("what did the bot weigh at the first weigh in").terms
    assert "first" in analyze_question("what was first prize originally").terms


def test_a_name_called_on_after_a_sentence_is_no_value_of_it() -> None:
    people = ["Tom Reilly", "Priya Shah"]
    claims = claims_of("So setup at the barn is 9:30 now. Tom, ok with that?",
                       speaker="Priya Shah", people=people)
    assert [v for _, v, k in claims if k is Kind.PERSON] == []
    assert ("setup at the barn", "9:30") in [(s, v) for s, v, _ in claims]
    # a name told after a pause is said: "the new captain is... Tom, congrats!"
    assert "Tom" in [v for _, v, k in claims_of("And the new captain is... Tom, congrats mate!",
                                                people=people) if k is Kind.PERSON]
    # a name told what to do after the decision still takes the task
    assert "chloe" in [v for _, v, k in claims_of(
        "ok, 4th july it is. chloe hold the posters!", people=["chloe"]) if k is Kind.PERSON]


def test_why_not_a_value_put_forward_is_the_reply_pushing_back(tmp_path: Path) -> None:
    say = chat_author(space="T1", channel="C1", channel_name="exhibition",
                      start=datetime(2024, 4, 26, 11, 0, tzinfo=UTC))
    view = say(0, "kasia", "Private view is Friday 7 June, 7pm at the Print Works, after "
                           "hanging")
    ask = say(30, "rhys", "could it start at 6? more people could come straight from work")
    ask = ask.model_copy(update={"reply_to": view.id})
    back = say(60, "kasia", "The Print Works staff aren't in till 6:30 to open the bar, so "
                            "it'll stay at 7")
    back = back.model_copy(update={"reply_to": ask.id})
    chat = ChannelChat(written_reader(tmp_path, [view, ask, back]),
                       Scope(platform="slack", space="T1", channels=("C1",)),
                       datetime(2024, 5, 20, 12, 0, tzinfo=UTC))
    first = chat.first("Why can't the private view start at 6?")
    assert "staff" in first.lower() and "after hanging" not in first.lower()
    # a number merely said of another thing was put forward by nobody
    nets = channel_chat(tmp_path / "nets", [
        (0, "jo", "Tuesday nets are 6pm at the rec, bring your own pads"),
        (60, "jo", "june social is at the Fox, 14th, 7pm. I'll sort the buffet"),
        (90, "mia", "I can't make tuesday, got to pick up my kid from school"),
    ], start=datetime(2024, 5, 6, 9, 0, tzinfo=UTC),
        asked=datetime(2024, 5, 20, 12, 0, tzinfo=UTC))
    assert "pick up my kid" not in nets.first("why can't nets be at 7?")
