"""Render Slack Block Kit and Discord embed payloads as HTML that looks like the clients,
for the pictures in ``docs/answers/`` (``docs/answers/make_pictures.py``).

Only what egmem's payloads use: Block Kit ``header``/``section``/``context``/``divider``/
``actions`` with mrkdwn (``*bold*``, ``_italic_``, ``~strike~``, `` `code` ``, ``> quote``,
``<url|label>``, ``<#C…>``, ``<@U…>``, ``<!date^…>`` tokens, ``:emoji:``), and embeds with
title, description, fields, footer and buttons in Discord markdown (``**bold**``,
``~~strike~~``, ``[label](url)``, ``<t:…>``, ``<#…>``, backslash escapes). Dates are shown
in UTC, as a reader in that time zone would see them.
"""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime
from typing import Any

import emoji

_TOKEN = re.compile(r"<([^<>]+)>")
# The page writes its content's height into its title, so a screenshot can fit it.
_SIZE_SCRIPT = ("<script>document.title = Math.ceil(document.querySelector('.message')"
                ".getBoundingClientRect().bottom);</script>")
_SLACK_INLINE = [
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"(?<![\w*])\*([^*\n]+)\*(?![\w*])"), r"<b>\1</b>"),
    (re.compile(r"(?<![\w~])~([^~\n]+)~(?![\w~])"), r"<s>\1</s>"),
    (re.compile(r"(?<![\w_])_([^_\n]+)_(?![\w_])"), r"<i>\1</i>"),
]


def _date(epoch: int, fmt: str) -> str:
    dt = datetime.fromtimestamp(epoch, UTC)
    day = f"{dt:%b} {dt.day}"
    pretty = {"date_short_pretty": f"{day}, {dt:%Y}", "date_short": f"{day}, {dt:%Y}",
              "date_pretty": f"{dt:%B} {dt.day}, {dt:%Y}", "date": f"{dt:%B} {dt.day}, {dt:%Y}",
              "time": dt.strftime("%-I:%M %p"), "date_num": f"{dt:%Y-%m-%d}"}
    return re.sub(r"\{(\w+)\}", lambda m: pretty.get(m.group(1), m.group(0)), fmt)


def _slack_token(body: str, names: dict[str, str]) -> str:
    target, _, label = body.partition("|")
    if target.startswith("#"):
        return f'<span class="mention">#{html.escape(names.get(target[1:], target[1:]))}</span>'
    if target.startswith("@"):
        return f'<span class="mention">@{html.escape(names.get(target[1:], target[1:]))}</span>'
    if target.startswith("!date^"):
        parts = target.split("^")
        text = _date(int(parts[1]), parts[2])
        if len(parts) > 3:
            return f'<a href="{html.escape(parts[3])}">{html.escape(text)}</a>'
        return html.escape(text)
    if target.startswith("!"):
        return f'<span class="mention">@{html.escape(target[1:])}</span>'
    return f'<a href="{html.escape(target)}">{label or html.escape(target)}</a>'


def mrkdwn(text: str, names: dict[str, str]) -> str:
    """Slack mrkdwn (already escaped by egmem: ``&amp;``, ``&lt;``, ``&gt;``) as HTML."""
    lines = []
    for line in text.split("\n"):
        quote = line.startswith("> ") or line.startswith("&gt; ")
        if quote:
            line = line.split(" ", 1)[1]
        out, pos = [], 0
        for m in _TOKEN.finditer(line):
            out.append(_slack_plain(line[pos:m.start()]))
            out.append(_slack_token(m.group(1), names))
            pos = m.end()
        out.append(_slack_plain(line[pos:]))
        rendered = "".join(out)
        lines.append(f'<span class="quote">{rendered}</span>' if quote else rendered)
    return "<br>".join(lines)


def _slack_plain(text: str) -> str:
    text = emoji.emojize(text, language="alias")
    for pattern, repl in _SLACK_INLINE:
        text = pattern.sub(repl, text)
    return text


def _button(element: dict[str, Any]) -> str:
    style = f" {element['style']}" if element.get("style") else ""
    return (f'<span class="button{style}">'
            f"{html.escape(emoji.emojize(element['text']['text'], language='alias'))}</span>")


def blocks_html(blocks: list[dict[str, Any]], *, names: dict[str, str]) -> str:
    out = []
    for b in blocks:
        kind = b["type"]
        if kind == "header":
            out.append(f'<div class="header">{html.escape(b["text"]["text"])}</div>')
        elif kind == "section":
            out.append(f'<div class="section">{mrkdwn(b["text"]["text"], names)}</div>')
        elif kind == "context":
            inner = " ".join(mrkdwn(e["text"], names) for e in b["elements"])
            out.append(f'<div class="context">{inner}</div>')
        elif kind == "divider":
            out.append('<hr class="divider">')
        elif kind == "actions":
            out.append('<div class="actions">' + "".join(_button(e) for e in b["elements"])
                       + "</div>")
    return "\n".join(out)


SLACK_CSS = """
body { margin: 0; background: #fff; font: 15px/1.46668 -apple-system, 'Segoe UI', Lato,
  'Helvetica Neue', Arial, sans-serif; color: #1d1c1d; }
.message { display: flex; padding: 12px 20px; max-width: 760px; }
.avatar { width: 36px; height: 36px; border-radius: 6px; background: #1d3557; color: #fff;
  font-weight: 700; display: flex; align-items: center; justify-content: center;
  margin-right: 8px; flex: none; }
.name { font-weight: 900; } .app { font-size: 10px; background: #e8e8e8; color: #616061;
  padding: 1px 3px; border-radius: 2px; margin-left: 4px; font-weight: 700; }
.ts { color: #616061; font-size: 12px; margin-left: 6px; }
.only { color: #616061; font-size: 13px; margin-bottom: 2px; }
.section { margin: 4px 0; } .header { font-size: 18px; font-weight: 900; margin: 4px 0; }
.context { color: #616061; font-size: 13px; margin: 4px 0; }
.divider { border: 0; border-top: 1px solid #ddd; margin: 8px 0; }
.quote { border-left: 4px solid #ddd; padding-left: 10px; display: inline-block; }
.mention { background: #e8f5fa; color: #1264a3; border-radius: 3px; padding: 0 2px; }
a { color: #1264a3; text-decoration: none; }
code { font-family: Monaco, Menlo, monospace; font-size: 12px; color: #e01e5a;
  background: #f6f6f6; border: 1px solid #ddd; border-radius: 3px; padding: 0 3px; }
.actions { margin-top: 8px; } .button { display: inline-block; border: 1px solid #bbb;
  border-radius: 4px; padding: 3px 12px; margin-right: 8px; font-weight: 700; font-size: 13px; }
"""


def slack_page(payload: dict[str, Any], *, names: dict[str, str], ephemeral: bool) -> str:
    only = '<div class="only">👁 Only visible to you</div>' if ephemeral else ""
    body = blocks_html(payload["blocks"], names=names)
    return (f"<!doctype html><html><head><meta charset='utf-8'><style>{SLACK_CSS}</style>"
            "</head><body><div class='message'><div class='avatar'>e</div><div>"
            f"{only}<div><span class='name'>egmem</span><span class='app'>APP</span>"
            f"<span class='ts'>10:41 AM</span></div>{body}</div></div>"
            + _SIZE_SCRIPT +
            "</body></html>")


# --- Discord -------------------------------------------------------------------------------

_DISCORD_TOKEN = re.compile(r"\\(.)|<t:(\d+):(\w)>|<#(\d+)>|\[([^\]]+)\]\(([^)\s]+)\)"
                            r"|\*\*(.+?)\*\*|~~(.+?)~~")


def discord_md(text: str, names: dict[str, str]) -> str:
    lines = []
    for line in text.split("\n"):
        quote = line.startswith("> ")
        if quote:
            line = line[2:]
        lines.append(f'<span class="quote">{_discord_line(line, names)}</span>' if quote
                     else _discord_line(line, names))
    return "<br>".join(lines)


def _discord_line(line: str, names: dict[str, str]) -> str:
    out, pos = [], 0
    for m in _DISCORD_TOKEN.finditer(line):
        out.append(html.escape(line[pos:m.start()]))
        if m.group(1) is not None:
            out.append(html.escape(m.group(1)))
        elif m.group(2) is not None:
            fmt = {"f": "{date_pretty} {time}", "d": "{date_num}", "R": "{date_short}"}
            out.append(f'<span class="ts">{html.escape(_date(int(m.group(2)), fmt[m.group(3)]))}'
                       "</span>")
        elif m.group(4) is not None:
            out.append(f'<span class="mention">#{html.escape(names.get(m.group(4), "channel"))}'
                       "</span>")
        elif m.group(5) is not None:
            out.append(f'<a href="{html.escape(m.group(6))}">{html.escape(m.group(5))}</a>')
        elif m.group(7) is not None:
            out.append(f"<b>{_discord_line(m.group(7), names)}</b>")
        else:
            out.append(f"<s>{_discord_line(m.group(8), names)}</s>")
        pos = m.end()
    out.append(html.escape(line[pos:]))
    return "".join(out)


DISCORD_CSS = """
body { margin: 0; background: #313338; color: #dbdee1; font: 16px/1.375 'gg sans',
  'Noto Sans', 'Helvetica Neue', Arial, sans-serif; }
.message { display: flex; padding: 12px 16px; max-width: 760px; }
.avatar { width: 40px; height: 40px; border-radius: 50%; background: #5865f2; color: #fff;
  font-weight: 700; display: flex; align-items: center; justify-content: center;
  margin-right: 16px; flex: none; }
.name { color: #fff; font-weight: 500; } .app { font-size: 10px; background: #5865f2;
  color: #fff; padding: 1px 4px; border-radius: 3px; margin-left: 4px; }
.embed { margin-top: 6px; background: #2b2d31; border-left: 4px solid #5865f2;
  border-radius: 4px; padding: 8px 16px 16px 12px; max-width: 520px; font-size: 14px; }
.title { color: #fff; font-weight: 600; margin: 8px 0 4px; }
.field { margin-top: 8px; } .fname { color: #fff; font-weight: 600; }
.footer { margin-top: 8px; font-size: 12px; color: #b5bac1; }
.quote { border-left: 4px solid #4e5058; padding-left: 8px; display: inline-block; }
.mention { background: rgba(88,101,242,.3); color: #c9cdfb; border-radius: 3px; padding: 0 2px; }
.ts { background: #3f4147; border-radius: 3px; padding: 0 2px; }
a { color: #00a8fc; text-decoration: none; }
.buttons { margin-top: 8px; } .button { display: inline-block; background: #4e5058;
  color: #fff; border-radius: 3px; padding: 2px 16px; margin-right: 8px; font-size: 14px; }
"""


def discord_page(payload: dict[str, Any], *, names: dict[str, str]) -> str:
    parts = []
    for e in payload["embeds"]:
        colour = f"#{int(e.get('color', 0x5865F2)):06x}"
        inner = [f'<div class="title">{html.escape(e.get("title", ""))}</div>']
        if e.get("description"):
            inner.append(f"<div>{discord_md(e['description'], names)}</div>")
        for f in e.get("fields", []):
            inner.append(f'<div class="field"><div class="fname">'
                         f'{discord_md(f["name"], names)}</div><div>'
                         f'{discord_md(f["value"], names)}</div></div>')
        if e.get("footer"):
            inner.append(f'<div class="footer">{html.escape(e["footer"]["text"])}</div>')
        parts.append(f'<div class="embed" style="border-left-color:{colour}">'
                     + "".join(inner) + "</div>")
    buttons = [c for row in payload.get("components", []) for c in row.get("components", [])]
    if buttons:
        parts.append('<div class="buttons">' + "".join(
            f'<span class="button">{html.escape((b.get("emoji") or {}).get("name", ""))} '
            f'{html.escape(b.get("label", ""))}</span>' for b in buttons) + "</div>")
    return (f"<!doctype html><html><head><meta charset='utf-8'><style>{DISCORD_CSS}</style>"
            "</head><body><div class='message'><div class='avatar'>e</div><div>"
            "<div><span class='name'>egmem</span><span class='app'>APP</span></div>"
            + "".join(parts) + "</div></div>"
            + _SIZE_SCRIPT +
            "</body></html>")
