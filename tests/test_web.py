"""The read-only web view, served for real and looked at through headless Chromium.

One memory is built per module from the bundled sample chat plus a small known thread (a
design review moved twice) and a message carrying markup. The server runs on 127.0.0.1 with
port 0. Browser tests assert on the DOM Chromium rendered; access-control tests talk HTTP
directly.
"""

from __future__ import annotations

import http.client
import logging
import os
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlencode

import pytest

from adapters.web import is_loopback, make_handler, make_server
from adapters.web.server import CSP, session_value
from adapters.web.views import safe_href
from bot.app import build
from bot.ingest import ingest_path
from bot.settings import Settings
from memory.errors import ConfigError
from memory.models import Message, Scope
from memory.service import Egmem
from tests.support.browser import Chromium, Node, chromium, parse_html, png_size
from tests.support.memory import msg, review_thread

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "bot" / "sample" / "team_chat.jsonl"
DOCS = REPO / "docs"
MARKUP = "<script>alert('pwned')</script>"


def _extra_messages() -> list[Message]:
    out = [m.model_copy(update={"permalink": f"https://acme.slack.com/archives/C1/p{m.id}"})
           for m in review_thread()]
    out.append(msg(20, "Mallory", f"The banner text is {MARKUP} from now on", channel="C9",
                   channel_name="sec-test").model_copy(
        update={"permalink": "javascript:alert(1)"}))
    return out


@pytest.fixture(scope="module")
def eg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Egmem]:
    data = tmp_path_factory.mktemp("web-memory")
    memory = build(Settings(data=str(data), embedder="hashing"))
    ingest_path(memory, SAMPLE)
    memory.submit(_extra_messages())
    memory.drain()
    yield memory
    memory.close()


class _Running:
    def __init__(self, server: ThreadingHTTPServer) -> None:
        self.server = server
        self.port = int(server.server_address[1])
        self.base = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=server.serve_forever, daemon=True)

    def __enter__(self) -> _Running:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(timeout=10)

    def request(self, path: str, *, method: str = "GET",
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, headers=headers or {})
            resp = conn.getresponse()
            return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
        finally:
            conn.close()


@pytest.fixture(scope="module")
def site(eg: Egmem) -> Iterator[_Running]:
    with _Running(make_server(eg, host="127.0.0.1", port=0)) as running:
        yield running


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Chromium:
    return Chromium(binary=chromium(), profile=tmp_path_factory.mktemp("chromium-profile"))


def _see(browser: Chromium, site: _Running, path: str) -> Node:
    return parse_html(browser.dump_dom(site.base + path))


def _review_state_id(eg: Egmem) -> str:
    rows = eg.store.states.listed(space="T1", channel="C1")
    return str(next(r["state_id"] for r in rows if r["value"] == "Friday 10am"))


# ---- what a person sees ---------------------------------------------------------------------

def test_index_lists_spaces_and_channels_with_state_counts(
        eg: Egmem, site: _Running, browser: Chromium) -> None:
    page = _see(browser, site, "/")
    spaces = [n.text() for n in page.find_all("h2", "space")]
    assert spaces == ["T0ACME slack", "T1 slack"]
    rows = {r.find("a").text(): r for r in page.find("table", "channels").find_all("tr")[1:]}
    assert list(rows) == ["#atlas-dev", "#design", "#general", "#leadership", "#ops-oncall"]
    expected = len(eg.store.states.listed(space="T0ACME", channel="C02DESIGN"))
    assert expected > 0
    assert rows["#design"].find("td", "states").text() == str(expected)
    assert "private" in rows["#leadership"].text()
    assert "private" not in rows["#design"].text()
    link = rows["#design"].find("a").attrs["href"]
    assert link == "/channel?space=T0ACME&channel=C02DESIGN"


def test_channel_page_shows_current_values_and_filters(
        eg: Egmem, site: _Running, browser: Chromium) -> None:
    page = _see(browser, site, "/channel?space=T1&channel=C1")
    assert page.find("h1").text() == "#atlas-dev"
    rows = page.find("table", "states").find_all("tr")[1:]
    by_topic = {r.find("a").text(): r for r in rows}
    review = next(r for t, r in by_topic.items() if "design review" in t)
    assert review.find("td", "value-cell").text() == "Friday 10am"
    assert review.find("td", "revisions").text() == "2"
    assert len(rows) == len(eg.store.states.listed(space="T1", channel="C1"))

    filtered = _see(browser, site, "/channel?" + urlencode(
        {"space": "T1", "channel": "C1", "q": "friday"}))
    topics = [r.find("a").text() for r in filtered.find("table", "states").find_all("tr")[1:]]
    assert topics == [review.find("a").text()]
    status, _, body = site.request("/channel?space=T1&channel=C1&q=zebra")
    assert status == 200 and "match that filter" in parse_html(body.decode()).find("main").text()


def test_state_page_draws_the_chain_with_superseded_values_struck(
        eg: Egmem, site: _Running, browser: Chromium) -> None:
    page = _see(browser, site, f"/state?id={_review_state_id(eg)}")
    assert page.find("strong", "current-value").text() == "Friday 10am"
    items = page.find("ol", "timeline").find_all("li")
    assert [sorted(li.classes) for li in items] == [["superseded"], ["superseded"], ["current"]]
    struck = [d.text() for d in page.find("ol", "timeline").find_all("del")]
    assert struck == ["Thursday at 3 pm", "4 pm"]
    current = items[-1]
    assert current.find_all("del") == []
    assert current.find("span", "value").text() == "Friday 10am"
    assert "current" in current.find("span", "badge").text()
    assert [li.find("span", "speaker").text() for li in items] == ["Alice"] * 3
    assert [li.find("a", "permalink").attrs["href"] for li in items] == [
        "https://acme.slack.com/archives/C1/p1", "https://acme.slack.com/archives/C1/p3",
        "https://acme.slack.com/archives/C1/p6"]
    assert items[1].find("blockquote").text() == "let's do 4 pm instead"
    assert items[0].find("time").attrs["datetime"].startswith("2024-11-04T09:01")


def test_state_page_of_the_sample_matches_the_memory(eg: Egmem, site: _Running) -> None:
    rows = eg.store.states.listed(space="T0ACME")
    best = max(rows, key=lambda r: (r["revision_count"], r["state_id"]))
    assert best["revision_count"] >= 1, "the sample chat should revise some decision"
    state = eg.load_state(best["state_id"])
    assert state is not None
    status, _, body = site.request(f"/state?id={best['state_id']}")
    assert status == 200
    page = parse_html(body.decode())
    timeline = page.find("ol", "timeline")
    assert [d.text() for d in timeline.find_all("del")] == [e.value for e in state.chain[:-1]]
    assert timeline.find_all("li")[-1].find("span", "value").text() == state.chain[-1].value


def test_ask_page_answers_with_citations(
        eg: Egmem, site: _Running, browser: Chromium) -> None:
    page = _see(browser, site, "/ask?" + urlencode(
        {"q": "when is the atlas design review?", "space": "T1", "channel": "C1"}))
    answer = page.find("div", "answer")
    assert "Friday 10am" in answer.text()
    assert "abstained" not in answer.classes
    cites = page.find("ol", "citations").find_all("li", "citation")
    assert cites, "an answer must cite its messages"
    assert any("review slips to Friday 10am" in c.find("blockquote").text() for c in cites)
    assert all(c.find("span", "speaker").text() for c in cites)
    assert "not limited" in page.find("footer").text()


def test_user_content_is_escaped_and_never_runs(
        eg: Egmem, site: _Running, browser: Chromium) -> None:
    page = _see(browser, site, "/ask?" + urlencode({"q": f"what is the banner text {MARKUP}"}))
    assert page.find_all("script") == []
    assert MARKUP in page.find("q").text()
    quotes = [c.find("blockquote").text() for c in page.find_all("li", "citation")]
    assert f"The banner text is {MARKUP} from now on" in quotes
    # The message's permalink was ``javascript:``: it is shown as no link at all.
    assert not any(a.attrs.get("href", "").startswith("javascript:")
                   for a in page.find_all("a"))


def test_screenshots_of_every_page_are_small(
        eg: Egmem, site: _Running, browser: Chromium, tmp_path: Path) -> None:
    """One PNG per page; EGMEM_UPDATE_SCREENSHOTS=1 refreshes the ones in docs/."""
    out = DOCS if os.environ.get("EGMEM_UPDATE_SCREENSHOTS") == "1" else tmp_path
    pages = {
        "web-index.png": "/",
        "web-channel.png": "/channel?space=T0ACME&channel=C02DESIGN",
        "web-state.png": f"/state?id={_review_state_id(eg)}",
        "web-ask.png": "/ask?" + urlencode({"q": "when is the atlas design review?",
                                            "space": "T1", "channel": "C1"}),
    }
    for name, path in pages.items():
        shot = browser.screenshot(site.base + path, out / name)
        assert png_size(shot) == (1200, 900)
        assert 5_000 < shot.stat().st_size <= 300_000


# ---- HTTP behaviour, without a browser ------------------------------------------------------

def test_pages_carry_a_strict_csp_and_no_script(site: _Running) -> None:
    status, headers, body = site.request("/")
    assert status == 200
    assert headers["content-security-policy"] == CSP
    assert "script-src" not in CSP and "default-src 'none'" in CSP
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["cache-control"] == "no-store"
    assert b"<script" not in body
    status, headers, _ = site.request("/static/web.css")
    assert status == 200 and headers["content-type"].startswith("text/css")


def test_read_only_refuses_other_methods(site: _Running) -> None:
    for method in ("POST", "PUT", "DELETE"):
        status, headers, _ = site.request("/ask?q=x", method=method)
        assert status == 405 and headers["allow"] == "GET, HEAD"
    status, _, body = site.request("/", method="HEAD")
    assert status == 200 and body == b""


def test_unknown_things_are_404(site: _Running) -> None:
    assert site.request("/state?id=s_nope")[0] == 404
    assert site.request("/channel?space=T1&channel=NOPE")[0] == 404
    assert site.request("/admin")[0] == 404


def test_loopback_server_refuses_foreign_host_headers(site: _Running) -> None:
    """Without a token only loopback names are served (DNS-rebinding guard)."""
    assert site.request("/", headers={"Host": "evil.example:80"})[0] == 421
    assert site.request("/", headers={"Host": f"localhost:{site.port}"})[0] == 200


def test_query_strings_are_not_logged(site: _Running, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger="adapters.web"):
        site.request("/ask?" + urlencode({"q": "zanzibar-secret-plan"}))
    assert "/ask" in caplog.text
    assert "zanzibar" not in caplog.text


@pytest.mark.parametrize("host,loopback", [
    ("127.0.0.1", True), ("127.8.0.1", True), ("localhost", True), ("::1", True),
    ("[::1]", True), ("0.0.0.0", False), ("", False), ("192.168.1.20", False),
    ("example.org", False),
])
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_non_loopback_bind_needs_a_token(eg: Egmem) -> None:
    with pytest.raises(ConfigError, match="EGMEM_WEB_TOKEN"):
        make_server(eg, host="0.0.0.0", port=0)
    with pytest.raises(ConfigError):
        make_server(eg, host="0.0.0.0", port=0, token="")


def test_token_is_enforced_for_a_public_bind(eg: Egmem) -> None:
    """The handler a 0.0.0.0 bind would use, served here on loopback."""
    token = "t0k-" + "x" * 28
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(eg, token, bind_host="0.0.0.0"))
    with _Running(server) as s:
        status, headers, _ = s.request("/")
        assert status == 401 and headers["www-authenticate"].startswith("Bearer")
        assert s.request("/state?id=x")[0] == 401
        assert s.request("/?token=wrong")[0] == 401
        assert s.request("/", headers={"Authorization": "Bearer wrong"})[0] == 401
        assert s.request("/", headers={"Cookie": f"egmem_web={token}"})[0] == 401

        status, headers, _ = s.request("/channel?token=" + token + "&space=T1&channel=C1")
        assert status == 303
        assert headers["location"] == "/channel?space=T1&channel=C1"
        cookie = headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and token not in cookie
        jar = cookie.split(";", 1)[0]
        assert jar == f"egmem_web={session_value(token)}"

        assert s.request("/", headers={"Cookie": jar})[0] == 200
        assert s.request("/", headers={"Authorization": f"Bearer {token}"})[0] == 200
        # With a token any Host header is fine: the bind is meant to be reached by name.
        assert s.request("/", headers={"Authorization": f"Bearer {token}",
                                       "Host": "egmem.internal"})[0] == 200


def test_only_http_permalinks_become_links() -> None:
    assert safe_href("https://acme.slack.com/archives/C1/p1") == (
        "https://acme.slack.com/archives/C1/p1")
    assert safe_href("http://discord.com/channels/1/2/3") == "http://discord.com/channels/1/2/3"
    for bad in ("javascript:alert(1)", " JavaScript:alert(1)", "data:text/html,x", "/local",
                "//evil.example/x", "", None):
        assert safe_href(bad) is None


def test_state_page_only_reads(eg: Egmem, site: _Running) -> None:
    before = (eg.store.count_nodes(), len(eg.store.states.listed()))
    site.request(f"/state?id={_review_state_id(eg)}")
    site.request("/ask?q=when+is+the+review")
    assert (eg.store.count_nodes(), len(eg.store.states.listed())) == before
    assert eg.store.find_nodes(Scope(space="T1", channels=("C9",)))
