"""A question's short forms spelled out as the chat writes them: "FD shirts" where the
chat only ever says "field day" (nothing in scope says "FD", so the question would look
about something memory never heard of)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from memory.text import STOPWORDS

__all__ = ["spell_out"]

# A short form as people type one: two to four capitals standing alone ("FD", "AGM").
_SHORT_FORM = re.compile(r"(?<![\w'’-])[A-Z]{2,4}(?![\w'’-])")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]{0,30}")
# How many messages must spell a short form the same way before it is read as that
# phrase: once may be chance ("fixed deal" for "FD").
MIN_SPELLINGS = 2


def _spellings(short: str, texts: Iterable[str]) -> Counter[str]:
    """The phrases of ``texts`` whose words' first letters spell ``short``, each counted
    once per text."""
    letters = short.lower()
    n = len(letters)
    found: Counter[str] = Counter()
    for text in texts:
        ws = [w.lower() for w in _WORD.findall(text)]
        # (a small word inside counts: "front of house" is FOH, "maid of honour" MOH)
        seen = {" ".join(ws[i:i + n]) for i in range(len(ws) - n + 1)
                if all(w[0] == c and len(w) > 1
                       for w, c in zip(ws[i:i + n], letters, strict=True))
                and ws[i] not in STOPWORDS and ws[i + n - 1] not in STOPWORDS}
        found.update(seen)
    return found


def spell_out(question: str, texts: Iterable[str], said: Callable[[str], bool],
              more: Callable[[], Iterable[str]] | None = None) -> str:
    """``question`` with each short form that nothing in scope says (``said`` tells) read
    as the phrase the messages ``texts`` spell it with most often — or, when they spell
    none, the texts ``more`` gives (read only then); unchanged when none does."""
    shorts = [m for m in _SHORT_FORM.finditer(question) if not said(m.group().lower())]
    if not shorts:
        return question
    sources = [list(texts)]
    out = question
    for m in reversed(shorts):
        best = _best(m.group(), sources[0])
        if best is None and more is not None:
            if len(sources) == 1:
                sources.append(list(more()))
            best = _best(m.group(), sources[1])
        if best is not None:
            out = out[:m.start()] + best + out[m.end():]
    return out


def _best(short: str, texts: Sequence[str]) -> str | None:
    """The phrase ``texts`` spell ``short`` with most often, if at least
    :data:`MIN_SPELLINGS` of them do."""
    counts = _spellings(short, texts)
    best = max(counts.items(), key=lambda kv: (kv[1], kv[0]), default=None)
    return best[0] if best is not None and best[1] >= MIN_SPELLINGS else None
