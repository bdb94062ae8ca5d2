"""One long message cannot freeze the process: text work is bounded, by count, not by time.

Before, the name-detection pattern was quadratic on a long unbroken word (a 40,000
character Slack message held the interpreter lock for 33 s and the next event's ack took
30 s). Three checks, none of which measures time:

* **Every pattern's span is bounded.** For every regular expression over text in
  ``memory``, ``adapters`` and ``bot`` (module constants and literal patterns passed to
  ``re`` functions), the parser's maximum match width is finite: one match attempt reads at
  most that many characters past its start (lookarounds included), so a scan of n characters
  does at most n × width steps. The few patterns with an unbounded repeat are listed below
  with the reason they are linear anyway (a run nothing after it can fail, an anchored
  single attempt, an input bounded at its one call site).
* **The write path analyses at most ``ANALYSIS_CHARS`` of a message.** Every pattern the
  analysing modules use is wrapped by a counter; a property test (hypothesis) drives long
  and adversarial messages (unbroken words, capitals, repeated punctuation, digit runs,
  whitespace runs, at 40,000 and 200,000 characters) through a real writer and asserts no
  pattern call is handed more than the budget, and that a message four times as long costs
  exactly as many characters of analysis. The whole text is still stored and searchable.
* **The bounded patterns find what the old ones found** on ordinary text (hypothesis).
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import json
import pkgutil
import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from re import _parser as sre_parse  # type: ignore[attr-defined]
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import adapters
import bot
import memory
import memory.text as text_module
from bot.app import build
from bot.settings import Settings
from memory.budget import ANALYSIS_CHARS
from memory.models import Message, Scope
from memory.service import Egmem

MAXREPEAT = sre_parse.MAXREPEAT

# Patterns with an unbounded repeat that are linear all the same, and why. A new entry needs
# the same kind of argument; a stale one fails the test.
LINEAR_UNBOUNDED: dict[str, str] = {
    "memory.text._WORD": "every attempt succeeds (the one-character alternative) and the "
                         "match consumes the run it read",
    "memory.embeddings._WORD": r"\w+ with nothing after it: never backtracks, consumes",
    "memory.llm.results._FENCE": "anchored at both ends (one attempt); each step of the lazy "
                                "body checks a bounded suffix",
    "memory.reader.features._WHEN": r"anchored (^): one attempt per question",
    "memory.reader.answer._WHO_SAID": r"anchored (^): one attempt per question",
    "memory.reader.answer._SENTENCE": r"\s+ only after sentence punctuation (an attempt "
                                      r"inside a run fails the lookbehind at once); \n+ "
                                      "always succeeds and consumes",
    "memory.reader.answer._ABSOLUTE": r"[a-z]* after a month prefix at a word boundary, "
                                      r"closed by \b: one word per attempt",
    "memory.reader.answer._CAPITALISED": "a run with nothing after it: never backtracks",
    "memory.dates.resolve._LEADING_PREPOSITION": "anchored (^): one attempt",
    "memory.dates.resolve:(\\w+)\\s+$": "its one call site searches at most 40 characters",
    "memory.reader.tools._FAMILY_CUES[0][1]": r"\w* closed by \b: ends where the word ends",
    "memory.dates.spoken._FUTURE": r"\w* after a word start, closed by \b or ' to': one word",
    "adapters.slack.normalize._TOKENS": "each attempt stops at the next fence, '<' or '>', "
                                        "which the next attempt starts from",
    "adapters.discord.normalize._TOKENS": "each attempt stops at the next fence or '>'",
    "adapters.slack.blocks._SAFE_URL": "a run with nothing after it: never backtracks",
    "adapters.discord.embeds._SAFE_URL": "fullmatch (one attempt) over one link",
    "adapters.slack.recall._LINK_PATH": "starts only at '/archives/' and reads one id",
    "adapters.exports._DAY_FILE": "anchored at both ends; over archive member names",
    "adapters.jsonl._NUMERIC": "fullmatch (one attempt) of digit runs split by literals",
    "memory.dates.resolve._RULES[*]": "each rule's attempt starts at a word start with a date "
                                     "word or a number; its unbounded parts are the spaces "
                                     "between its words, read once per such start",
    "memory.dates.resolve:\\(\\?P<\\w+>": "over the module's own pattern sources, not text",
    "memory.dates.resolve:\\d{4}\\s*$": "over one date expression an earlier rule matched",
    "memory.reader.answer:\\b[A-Z][\\w'’&-]*(?:\\s+[A-Z][\\w'’&-]*)*": "reads one run of "
        "capitalised words and cannot fail after it",
    "adapters.slack.blocks._SLACK_ID": "fullmatch (one attempt) over a channel id",
    "adapters.slack.audit:[A-Z0-9]+": "fullmatch (one attempt) over a channel id",
    "adapters.slack.recall._SINCE": r"only an attempt at 'since' reads the \s+ run after it; "
                                    "every other attempt fails at its first character",
    "memory.llm.endpoint._LIMIT[*]": "over an endpoint's error text: each attempt starts at a "
                                     "literal phrase and reads one digit run",
    "memory.llm.endpoint._REQUESTED[*]": "over an endpoint's error text: each attempt starts at "
                                         "a literal phrase and reads one digit run",
    "memory.llm.endpoint._QUOTED_PARAM": "each attempt starts at a quote or a literal phrase "
                                         "and reads one word run",
    "memory.reader.llm_reader._SPLIT_IDS": "a separator run with nothing after it: every "
                                           "attempt consumes what it reads",
}


def _explained(name: str) -> str | None:
    """The reason ``name`` is listed in LINEAR_UNBOUNDED (entries ending in ``[*]`` cover
    every member of a collection)."""
    if name in LINEAR_UNBOUNDED:
        return LINEAR_UNBOUNDED[name]
    return next((why for key, why in LINEAR_UNBOUNDED.items()
                 if key.endswith("[*]") and name.startswith(key[:-3] + "[")), None)


# ---- every pattern's span is bounded -------------------------------------------------------


def _modules() -> Iterator[ModuleType]:
    for pkg in (memory, adapters, bot):
        for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            # Benchmark dataset readers parse files the operator downloads, not chat text.
            if not info.name.startswith("memory.eval"):
                yield importlib.import_module(info.name)


def _module_patterns(mod: ModuleType) -> Iterator[tuple[str, re.Pattern[str]]]:
    def walk(name: str, value: object, depth: int = 0) -> Iterator[tuple[str, re.Pattern[str]]]:
        if isinstance(value, re.Pattern):
            yield name, value
        elif depth < 2 and isinstance(value, list | tuple):
            for i, x in enumerate(value):
                yield from walk(f"{name}[{i}]", x, depth + 1)
        elif depth < 2 and isinstance(value, dict):
            for k, x in value.items():
                yield from walk(f"{name}[{k!r}]", x, depth + 1)
        elif depth < 2 and dataclasses.is_dataclass(value) and not isinstance(value, type):
            label = getattr(value, "name", None)
            for f in dataclasses.fields(value):
                yield from walk(f"{name}[{label!r}].{f.name}" if label else f"{name}.{f.name}",
                                getattr(value, f.name), depth + 1)

    for attr, value in vars(mod).items():
        owner = getattr(value, "__module__", mod.__name__)
        if isinstance(value, re.Pattern) or owner == mod.__name__:
            yield from walk(f"{mod.__name__}.{attr}", value)


def _literal_patterns(mod: ModuleType) -> Iterator[tuple[str, re.Pattern[str]]]:
    """Literal patterns passed to ``re.search(...)`` and friends inside functions."""
    try:
        tree = ast.parse(inspect.getsource(mod))
    except (OSError, TypeError):
        return
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"
                and node.func.attr in {"search", "match", "fullmatch", "findall", "finditer",
                                       "sub", "subn", "split"}
                and node.args and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)):
            pattern = node.args[0].value
            flags = 0
            for kw in node.keywords:
                if kw.arg == "flags":
                    flags = re.IGNORECASE
            yield f"{mod.__name__}:{pattern}", re.compile(pattern, flags)


def _unbounded(pattern: re.Pattern[str]) -> bool:
    """Whether one match attempt may read unboundedly far (lookarounds included)."""
    parsed = sre_parse.parse(pattern.pattern, pattern.flags)

    def walk(item: object) -> bool:
        if isinstance(item, sre_parse.SubPattern):
            if item.getwidth()[1] >= MAXREPEAT:
                return True
            return any(walk(x) for x in item.data)
        if isinstance(item, list | tuple):
            return any(walk(x) for x in item)
        return False

    return walk(parsed)


def _all_patterns() -> dict[str, re.Pattern[str]]:
    found: dict[str, re.Pattern[str]] = {}
    for mod in _modules():
        found.update(_module_patterns(mod))
        found.update(_literal_patterns(mod))
    return found


def test_every_pattern_over_text_reads_a_bounded_span() -> None:
    patterns = _all_patterns()
    assert len(patterns) > 60, "the scan must see the packages' patterns"
    assert "memory.text._SLOT_PATTERNS[0][1]" in patterns  # the name pattern of the incident
    unbounded = sorted(name for name, p in patterns.items() if _unbounded(p))
    unexplained = [n for n in unbounded if _explained(n) is None]
    assert not unexplained, (
        "patterns whose match attempt can read unboundedly far (bound the repeat, bound the "
        f"input, or explain in LINEAR_UNBOUNDED why it is linear): {unexplained}")
    used = {key for key in LINEAR_UNBOUNDED for n in unbounded
            if n == key or (key.endswith("[*]") and n.startswith(key[:-3] + "["))}
    stale = sorted(set(LINEAR_UNBOUNDED) - used)
    assert not stale, f"LINEAR_UNBOUNDED lists patterns that are bounded or gone: {stale}"


# ---- the write path analyses at most the budget ----------------------------------------------

# Modules that analyse a message's text on the write path.
ANALYSING = ("memory.text", "memory.proposer", "memory.rewrite", "memory.dates",
             "memory.decisions", "memory.state_match", "memory.verify", "memory.gate",
             "memory.writer", "memory.analysis", "memory.repair", "memory.write_support")


class _Counter:
    """Characters handed to pattern calls, per call."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    def seen(self, name: str, string: object, pos: int = 0) -> None:
        if isinstance(string, str):
            self.calls.append((name, max(0, len(string) - pos)))

    @property
    def largest(self) -> tuple[str, int]:
        return max(self.calls, key=lambda c: c[1], default=("", 0))

    @property
    def total(self) -> int:
        return sum(n for _, n in self.calls)


class _CountingPattern:
    """A compiled pattern that tells ``counter`` how much text each call is handed."""

    def __init__(self, name: str, pattern: re.Pattern[str], counter: _Counter) -> None:
        self._name, self._p, self._c = name, pattern, counter

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._p, attr)

    def _call(self, method: str) -> Callable[..., Any]:
        def run(string: str, *args: Any, **kw: Any) -> Any:
            pos = args[0] if args and method in {"search", "match", "fullmatch", "finditer",
                                                  "findall"} else kw.get("pos", 0)
            self._c.seen(self._name, string, pos if isinstance(pos, int) else 0)
            return getattr(self._p, method)(string, *args, **kw)
        return run

    def search(self, *a: Any, **k: Any) -> Any:
        return self._call("search")(*a, **k)

    def match(self, *a: Any, **k: Any) -> Any:
        return self._call("match")(*a, **k)

    def fullmatch(self, *a: Any, **k: Any) -> Any:
        return self._call("fullmatch")(*a, **k)

    def finditer(self, *a: Any, **k: Any) -> Any:
        return self._call("finditer")(*a, **k)

    def findall(self, *a: Any, **k: Any) -> Any:
        return self._call("findall")(*a, **k)

    def split(self, *a: Any, **k: Any) -> Any:
        return self._call("split")(*a, **k)

    def sub(self, repl: Any, string: str, *a: Any, **k: Any) -> Any:
        self._c.seen(self._name, string)
        return self._p.sub(repl, string, *a, **k)

    def subn(self, repl: Any, string: str, *a: Any, **k: Any) -> Any:
        self._c.seen(self._name, string)
        return self._p.subn(repl, string, *a, **k)


def _wrap(value: object, name: str, counter: _Counter) -> object:
    if isinstance(value, re.Pattern):
        return _CountingPattern(name, value, counter)
    if isinstance(value, list):
        return [_wrap(x, f"{name}[{i}]", counter) for i, x in enumerate(value)]
    if isinstance(value, tuple):
        return tuple(_wrap(x, f"{name}[{i}]", counter) for i, x in enumerate(value))
    return value


@pytest.fixture(scope="module")
def counted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Egmem, _Counter]]:
    """A real memory whose analysing modules count what their patterns are handed."""
    counter = _Counter()
    patch = pytest.MonkeyPatch()
    for mod in list(_modules()):
        if not mod.__name__.startswith(ANALYSING):
            continue
        for attr, value in list(vars(mod).items()):
            wrapped = _wrap(value, f"{mod.__name__}.{attr}", counter)
            if wrapped is not value and isinstance(value, re.Pattern | list | tuple):
                patch.setattr(mod, attr, wrapped)
    for fn in ("search", "match", "fullmatch", "findall", "finditer", "sub", "split"):
        original = getattr(re, fn)

        def inline(*a: Any, _fn: str = fn, _orig: Any = original, **k: Any) -> Any:
            caller = inspect.currentframe()
            module = caller.f_back.f_globals.get("__name__", "") if caller and caller.f_back \
                else ""
            if module.startswith(ANALYSING):
                string = a[2] if _fn in {"sub"} and len(a) > 2 else a[1] if len(a) > 1 else ""
                counter.seen(f"{module}:re.{_fn}", string)
            return _orig(*a, **k)

        patch.setattr(re, fn, inline)
    eg = build(Settings(data=str(tmp_path_factory.mktemp("bounds")), embedder="hashing"))
    try:
        yield eg, counter
    finally:
        eg.close()
        patch.undo()


T0 = datetime(2024, 11, 4, 9, 0, tzinfo=UTC)
# Units repeated to the message length: what made the old patterns quadratic or worse.
ADVERSARIAL = ["a", "A", "Ab ", "AB", "A-", "1,", "1.", " ", "\n", ". ", ": ", " - ",
               "!", "?", "'", "a'", "$1,", "v1.", "http://", "next ", "Friday ", "3 pm ",
               "switching to A", "x" * 30 + " ", "(the ", "```"]
_n = iter(range(10**9))
COMPOSED = 1000


def _analyse(eg: Egmem, counter: _Counter, text: str) -> tuple[list[tuple[str, int]], str]:
    """Commit one message of ``text`` in a fresh channel; the pattern calls it cost."""
    i = next(_n)
    msg = Message(platform="slack", space="T1", channel=f"C{i}", id=f"{i}.1", user="U1",
                  user_name="mallory", ts=T0 + timedelta(minutes=i), text=text)
    counter.calls.clear()
    eg.submit([msg])
    report = eg.drain()
    assert report.committed == 1 and report.failed == 0
    return list(counter.calls), msg.key.node_id()


def _repeat(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(units=st.lists(st.sampled_from(ADVERSARIAL) | st.text(min_size=1, max_size=5),
                      min_size=1, max_size=3),
       size=st.sampled_from([40_000, 200_000]))
def test_a_long_adversarial_message_is_analysed_within_the_budget(
        counted: tuple[Egmem, _Counter], units: list[str], size: int) -> None:
    eg, counter = counted
    text = _repeat("".join(units), size)
    if not text.strip():
        text = "x" + text[1:]
    calls, node_id = _analyse(eg, counter, text)
    assert calls, "the counters saw no pattern call: the test would pass vacuously"
    name, largest = counter.largest
    # The budget, plus what is composed around the analysed part (speaker, channel, notes).
    assert largest <= ANALYSIS_CHARS + COMPOSED, f"{name} was handed {largest} characters"
    [node] = eg.store.get_nodes([node_id])
    assert len(node.text) == len(text)  # stored whole


def test_four_times_the_text_costs_the_same_analysis(counted: tuple[Egmem, _Counter]) -> None:
    eg, counter = counted
    for unit in ("A", "Ab ", "1,", " ", "switching to A", "a'"):
        # Different first words: the analyzer keeps recent analyses by text, and the two
        # analysed windows would otherwise be the same text (the second one a cache hit).
        small, _ = _analyse(eg, counter, "x " + _repeat(unit, 40_000))
        large, _ = _analyse(eg, counter, "y " + _repeat(unit, 160_000))
        assert sum(n for _, n in large) == sum(n for _, n in small), unit


def test_the_end_of_a_long_message_is_still_found(counted: tuple[Egmem, _Counter]) -> None:
    eg, counter = counted
    _, node_id = _analyse(eg, counter, _repeat("Ab ", 199_000) + " the wombatqz is here")
    hits = eg.tools.session(Scope(platform="slack", space="T1")).lookup_phrase(
        "the wombatqz is here", k=5)
    assert [n.node_id for n in hits] == [node_id]
    found = eg.tools.session(Scope(platform="slack", space="T1")).search_evidence(
        "wombatqz", k=5)
    assert node_id in {n.node_id for n in found}


# ---- the bounded patterns find what the old ones found ---------------------------------------

# The patterns of memory/text.py before they were bounded.
OLD = json.loads((Path(__file__).parent / "fixtures" / "unbounded_text_patterns.json")
                 .read_text(encoding="utf-8"))
WORDS = ["Friday", "3 pm", "10am", "the", "Taqueria", "Luna", "it is", "switching to",
         "moved to", "$4,000", "2.3.1", "v1.2-rc1", "us-east-1", "next", "Tuesday", "Nov 13",
         "13th of March", "2024", "ok", "okay", "+1", "hahaha", ":tada:", "push", "review",
         "from", "to", "instead of", "https://x.y/z", "www.a.b", "—", "-", ";", ":", ".",
         "!", "?", "\n", "Pho Saigon", "wins", "de", "la", "12,000", "5%", "30 days", "eBay",
         "Alice", "Bob Smith", "5.5k", "€300", "Q3", "end of the month", "noon", "thanks"]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(parts=st.lists(st.tuples(st.sampled_from(WORDS),
                                st.sampled_from([" ", "", ", ", ". ", "  ", " \n"])),
                      min_size=1, max_size=12))
def test_bounded_text_patterns_match_as_before_on_ordinary_text(
        parts: list[tuple[str, str]]) -> None:
    text = "".join(w + sep for w, sep in parts)
    for name, (pattern, flags) in OLD.items():
        new = eval(name, vars(text_module))  # noqa: S307 - names from our own fixture
        new = new[1] if isinstance(new, tuple) else new
        old = [(m.span(), m.group(0)) for m in re.compile(pattern, flags).finditer(text)]
        assert [(m.span(), m.group(0)) for m in new.finditer(text)] == old, (name, text)
