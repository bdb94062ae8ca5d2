""""Why not X?", "why aren't we doing X?": the reply that turned the suggestion down says
why, not the suggestion's own reasons for it.

* A suggestion is put forward with or without a question mark ("why don't we use the big
  urn, it's free").
* A reply turns it down after a word of thanks ("cheers Ali but no, …") or by keeping what
  holds ("I'd rather keep 6", "let's stick with the hall").

Real write path (offline proposer, HashingEmbedder) and the offline reader.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from memory.analysis.question_lexicon import DEFAULT_LEXICON
from memory.embeddings import HashingEmbedder
from memory.models import Message, Scope
from memory.reader.offline import OfflineReader
from memory.reader.reasons import refuses
from memory.reader.tools import offline_tools
from tests.support.memory import T0, msg, open_memory


def thread_reader(path: Path, turns: list[Message]) -> Callable[[str], str]:
    """The first answer line to a question asked a day after ``turns``."""
    store, writer = open_memory(path)
    writer.write(turns)
    reader = OfflineReader(tools=offline_tools(store, HashingEmbedder()))
    return lambda q: reader.answer(q, scope=Scope(platform="slack", space="T1"),
                                   reference=T0 + timedelta(days=1)).answer.splitlines()[0]


def test_refusals_after_thanks_or_by_keeping_what_holds() -> None:
    assert refuses("cheers Ali but no, the steel urn takes ages to boil", DEFAULT_LEXICON)
    assert refuses("I'd rather keep 6, the caretaker locks up at 9", DEFAULT_LEXICON)
    assert refuses("let's stick with the hall, the garden floods", DEFAULT_LEXICON)
    # thanks with a yes is no refusal
    assert not refuses("cheers Ali, sounds good", DEFAULT_LEXICON)
    assert not refuses("no worries, makes sense", DEFAULT_LEXICON)


def test_why_not_is_answered_by_the_turn_down(tmp_path: Path) -> None:
    ask = thread_reader(tmp_path, [
        msg(1, "ali", "for the tea stall why don't we use the big urn, the church lent it "
                      "free"),
        msg(2, "bev", "cheers Ali but no, the big urn takes forty minutes to boil",
            reply_to="1", minutes=30),
        msg(3, "ali", "fair enough", minutes=40),
    ])
    assert "forty minutes" in ask("why not the big urn?")


def test_why_arent_we_is_answered_by_keeping_what_holds(tmp_path: Path) -> None:
    ask = thread_reader(tmp_path, [
        msg(1, "cy", "could we start the quiz at 7:30 instead of 7? people come straight "
                     "from work"),
        msg(2, "di", "I'd rather keep 7, the caretaker locks up at half nine sharp",
            reply_to="1", minutes=30),
        msg(3, "cy", "ok ok", minutes=35),
    ])
    assert "caretaker" in ask("why aren't we starting the quiz at 7:30")
