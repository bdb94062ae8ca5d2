"""The web view's pages, rendered to HTML strings.

Every piece of chat content (values, quotes, names, topics, questions) passes through
:func:`h` (``html.escape``) before it reaches the page, and only ``http(s)`` permalinks are
ever turned into links. Pages are plain HTML styled by ``web.css``; there is no script.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from string import Template
from urllib.parse import urlencode, urlsplit

from memory.errors import UserFacingError
from memory.models import Answer, Citation, State, Verdict
from memory.ports import WebView
from memory.timeline import TimelineEntry, build_timeline

logger = logging.getLogger(__name__)

MAX_QUESTION_CHARS = 500


@dataclass(frozen=True)
class Page:
    """A rendered page body plus what the layout needs around it."""

    status: int
    title: str
    body: str
    q: str = ""
    space: str = ""
    channel: str = ""
    channel_label: str = ""


def h(text: object) -> str:
    """HTML-escape anything for text or a double/single-quoted attribute."""
    return html.escape(str(text), quote=True)


def url(path: str, **params: str) -> str:
    """A same-site URL with the non-empty ``params`` query-encoded (escape with :func:`h`)."""
    clean = {k: v for k, v in params.items() if v}
    return f"{path}?{urlencode(clean)}" if clean else path


def safe_href(link: str | None) -> str | None:
    """The link if it is an absolute http(s) URL; anything else (``javascript:``, relative,
    data) is never made clickable."""
    if not link:
        return None
    parts = urlsplit(link.strip())
    return link.strip() if parts.scheme in ("http", "https") and parts.netloc else None


def fmt_time(dt: datetime, *, short: bool = False) -> str:
    """``Mon Nov 4, 2024 09:01 UTC`` (``short``: ``Nov 4, 2024 09:01``) in a <time>."""
    text = f"{dt:%b} {dt.day}, {dt:%Y %H:%M}" if short else (
        f"{dt:%a %b} {dt.day}, {dt:%Y %H:%M} UTC")
    return f'<time datetime="{h(dt.isoformat())}">{text}</time>'


def _layout() -> Template:
    text = resources.files("adapters.web").joinpath("layout.html").read_text(encoding="utf-8")
    return Template(text)


def stylesheet() -> bytes:
    return resources.files("adapters.web").joinpath("web.css").read_bytes()


def render(page: Page) -> str:
    """The full HTML document for ``page``; the top ask box stays scoped to its channel."""
    fields = ""
    placeholder = "Ask about any decision…"
    if page.space:
        fields += f'<input type="hidden" name="space" value="{h(page.space)}">'
    if page.channel:
        fields += f'<input type="hidden" name="channel" value="{h(page.channel)}">'
        placeholder = f"Ask about {page.channel_label or page.channel}…"
    return _layout().substitute(
        title=h(page.title), body=page.body, q=h(page.q), scope_fields=fields,
        placeholder=h(placeholder),
    )


def _channel_link(space: str, channel: str, label: str) -> str:
    return f'<a href="{h(url("/channel", space=space, channel=channel))}">{h(label)}</a>'


# ---- pages --------------------------------------------------------------------------------

def index_page(eg: WebView) -> Page:
    spaces = eg.list_channels()
    parts = ["<h1>Spaces and channels</h1>",
             '<p class="meta">Pick a channel to see the decisions its members made and how '
             "each one changed.</p>"]
    if not spaces:
        parts.append('<p class="empty">The memory is empty: ingest a chat export or start '
                     "the bot.</p>")
    for (platform, space), chans in spaces.items():
        parts.append(f'<h2 class="space">{h(space)} <span class="meta">{h(platform)}</span></h2>')
        parts.append('<table class="channels"><thead><tr><th>Channel</th>'
                     '<th class="num">States</th><th class="num">Revised</th></tr></thead><tbody>')
        for c in chans:
            lock = '<span class="private">private</span>' if c.is_private else ""
            parts.append(
                f'<tr><td>{_channel_link(space, c.channel, c.label)}{lock}'
                f' <span class="meta">{h(c.channel)}</span></td>'
                f'<td class="num states">{c.states}</td><td class="num">{c.revised}</td></tr>')
        parts.append("</tbody></table>")
    return Page(status=200, title="Channels", body="\n".join(parts))


def channel_page(eg: WebView, params: Mapping[str, str]) -> Page:
    space, channel = params.get("space", ""), params.get("channel", "")
    info = eg.channel_info(space=space, channel=channel) if space and channel else None
    if info is None:
        return not_found("No such channel in this memory.")
    q = params.get("q", "")
    states, total = eg.channel_states(space=space, channel=channel, q=q)
    parts = [
        f'<p class="crumbs"><a href="/">{h(space)}</a> ›</p>',
        f"<h1>{h(info.label)}"
        + ('<span class="private">private</span>' if info.is_private else "") + "</h1>",
        f'<p class="meta">{h(info.platform)} · {h(space)} · {h(channel)} · '
        f"{info.states} states, {info.revised} revised</p>",
        '<form class="filter" action="/channel" method="get" role="search">'
        f'<input type="hidden" name="space" value="{h(space)}">'
        f'<input type="hidden" name="channel" value="{h(channel)}">'
        f'<input type="search" name="q" value="{h(q)}" placeholder="Filter states…" '
        'aria-label="Filter states"><button type="submit">Filter</button></form>',
    ]
    if q:
        parts.append(f'<p class="meta">{total} of {info.states} states match '
                     f"“{h(q)}” · {_channel_link(space, channel, 'show all')}</p>")
    if not states:
        parts.append('<p class="empty">No states here'
                     + (" match that filter." if q else " yet.") + "</p>")
    else:
        parts.append('<table class="states"><thead><tr><th>Topic</th><th>Current value</th>'
                     '<th class="num">Revisions</th><th class="when">Updated (UTC)</th>'
                     "</tr></thead><tbody>")
        for s in states:
            parts.append(
                f'<tr><td><a href="{h(url("/state", id=s.state_id))}">{h(s.topic)}</a></td>'
                f'<td class="value-cell">{h(s.value)}</td>'
                f'<td class="num revisions">{s.revision_count}</td>'
                f'<td class="when">{fmt_time(s.updated_at, short=True)}</td></tr>')
        parts.append("</tbody></table>")
        if total > len(states):
            parts.append(f'<p class="meta">Showing the {len(states)} most recently changed of '
                         f"{total}; filter to narrow.</p>")
    return Page(status=200, title=info.label, body="\n".join(parts), space=space,
                channel=channel, channel_label=info.label)


def timeline_html(state: State, *, compact: bool = False) -> str:
    """The chain as a vertical list, oldest first; superseded values struck through."""
    items = [_entry_html(e) for e in build_timeline(state)]
    cls = ' class="compact"' if compact else ""
    return f'<div{cls}><ol class="timeline">{"".join(items)}</ol></div>'


def _entry_html(e: TimelineEntry) -> str:
    if e.current:
        cls, value = "current", f'<span class="value">{h(e.value)}</span>'
        badge = '<span class="badge current">current</span>'
    elif e.superseded:
        cls, value = "superseded", f'<del class="value">{h(e.value)}</del>'
        badge = '<span class="badge superseded">superseded</span>'
    else:
        cls, value, badge = "entry", f'<span class="value">{h(e.value)}</span>', ""
    href = safe_href(e.permalink)
    link = (f' · <a class="permalink" href="{h(href)}" rel="noopener noreferrer">'
            "view message</a>") if href else ""
    how = "set" if e.verdict is Verdict.ESTABLISH else "changed"
    return (f'<li class="{cls}">{value}{badge}'
            f'<div class="who">{how} by <span class="speaker">{h(e.speaker)}</span> · '
            f"{fmt_time(e.time)}{link}</div>"
            f'<blockquote class="quote">{h(e.quote)}</blockquote></li>')


def state_page(eg: WebView, params: Mapping[str, str]) -> Page:
    state_id = params.get("id", "")
    state = eg.load_state(state_id) if state_id else None
    if state is None:
        return not_found("No such state: it may have been forgotten.")
    info = eg.channel_info(space=state.space, channel=state.channel)
    label = info.label if info is not None else state.channel
    revisions = len(state.chain) - 1 if state.chain else state.revision_count
    body = [
        f'<p class="crumbs"><a href="/">{h(state.space)}</a> › '
        f"{_channel_link(state.space, state.channel, label)} ›</p>",
        f'<h1 class="topic">{h(state.topic)}</h1>',
        f'<p class="now">Now: <strong class="current-value">{h(state.value)}</strong></p>',
        f'<p class="meta">{revisions} revision{"s" if revisions != 1 else ""} · last changed '
        f"{fmt_time(state.updated_at)} · id <code>{h(state.state_id)}</code></p>",
        timeline_html(state),
    ]
    return Page(status=200, title=state.topic or state.state_id, body="\n".join(body),
                space=state.space, channel=state.channel, channel_label=label)


def _citation_html(c: Citation) -> str:
    where = f"#{c.channel_name}" if c.channel_name else c.channel
    href = safe_href(c.permalink)
    link = (f' · <a class="permalink" href="{h(href)}" rel="noopener noreferrer">'
            "view message</a>") if href else ""
    return (f'<li class="citation"><div class="who"><span class="speaker">{h(c.speaker)}</span>'
            f" in {h(where)} · {fmt_time(c.ts)}{link}</div>"
            f'<blockquote class="quote">{h(c.quote)}</blockquote></li>')


def answer_html(a: Answer) -> str:
    """The answer, the messages it cites, then the decisions (with timelines) it consulted."""
    cls = "answer abstained" if a.abstained else "answer"
    parts = [f'<div class="{cls}" id="answer">{h(a.answer)}</div>', "<h2>Citations</h2>"]
    if a.citations:
        parts.append('<ol class="citations">'
                     + "".join(_citation_html(c) for c in a.citations) + "</ol>")
    else:
        parts.append('<p class="empty">No message supports an answer.</p>')
    if a.states:
        parts.append("<h2>Decisions consulted</h2>")
        for s in a.states:
            parts.append(f'<h3><a href="{h(url("/state", id=s.state_id))}">{h(s.topic)}</a>'
                         f' <span class="meta">now {h(s.value)}</span></h3>')
            parts.append(timeline_html(s, compact=True))
    return "\n".join(parts)


def ask_page(eg: WebView, params: Mapping[str, str]) -> Page:
    q = params.get("q", "").strip()[:MAX_QUESTION_CHARS]
    space, channel = params.get("space", ""), params.get("channel", "")
    label = ""
    if channel and space:
        info = eg.channel_info(space=space, channel=channel)
        label = info.label if info is not None else channel
    if channel:
        where = (f"Answered from {_channel_link(space, channel, label or channel)} only "
                 f'(<a href="{h(url("/ask", q=q))}">ask everywhere</a>)')
    elif space:
        where = f"Answered from every channel of space {h(space)}, private ones included"
    else:
        where = "Answered from every channel the memory holds, private ones included"
    parts = ["<h1>Ask</h1>", f'<p class="meta">{where}. Operator view: no member\'s '
             "permissions apply.</p>"]
    if not q:
        parts.append('<p class="empty">Type a question in the box above, e.g. “when is the '
                     "design review?”</p>")
        return Page(status=200, title="Ask", body="\n".join(parts), space=space,
                    channel=channel, channel_label=label)
    parts.append(f'<p class="question">Q: <q>{h(q)}</q></p>')
    status = 200
    try:
        answer = eg.ask(q, platform=params.get("platform", ""), space=space, user=None,
                        channel=channel or None)
        parts.append(answer_html(answer))
    except UserFacingError as exc:
        status = 503
        logger.warning("web ask failed: %s", type(exc).__name__)
        parts.append(f'<div class="answer abstained">The question could not be answered: '
                     f"{h(exc)}</div>")
    return Page(status=status, title=f"Ask: {q[:60]}", body="\n".join(parts), q=q,
                space=space, channel=channel, channel_label=label)


def not_found(message: str) -> Page:
    return Page(status=404, title="Not found",
                body=f'<h1>Not found</h1><p class="empty">{h(message)}</p>'
                     '<p><a href="/">All channels</a></p>')


def error_page(status: int, title: str, message: str) -> Page:
    return Page(status=status, title=title,
                body=f"<h1>{h(title)}</h1><p>{h(message)}</p>")
