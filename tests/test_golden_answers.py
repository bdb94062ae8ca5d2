"""Golden Slack Block Kit and Discord payloads for three answers (a revised decision, a plain
fact, an abstention). Regenerate after a deliberate change with
``EGMEM_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_golden_answers.py``, then
``python docs/answers/make_pictures.py`` for the pictures."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import Chromium, chromium, png_size
from tests.support.chat_render import discord_page, slack_page
from tests.support.golden_answers import EXAMPLES, NAMES, discord_payload, slack_payload

GOLDEN = Path(__file__).parent / "golden"
DOCS = Path(__file__).parent.parent / "docs" / "answers"
CASES = [(platform, name) for platform in ("slack", "discord") for name in EXAMPLES]


def payload(platform: str, name: str) -> dict[str, Any]:
    return slack_payload(name) if platform == "slack" else discord_payload(name)


@pytest.mark.parametrize(("platform", "name"), CASES)
def test_payload_matches_its_golden_file(platform: str, name: str) -> None:
    path = GOLDEN / f"{platform}-{name}.json"
    got = json.loads(json.dumps(payload(platform, name)))
    if os.environ.get("EGMEM_UPDATE_GOLDEN") == "1":
        path.write_text(json.dumps(got, indent=2, ensure_ascii=False) + "\n")
    assert got == json.loads(path.read_text())


def test_the_revised_answer_leads_with_the_chain() -> None:
    slack = slack_payload("revised")["blocks"]
    assert slack[0]["text"]["text"] == "*Atlas design review*: *Friday 10am*"
    chain = slack[2]["text"]["text"]  # the headline names the decision; the chain follows
    assert chain.startswith("now *Friday 10am* (Alice, <!date^")
    assert chain.endswith("· was *4 pm* (Carmen) · was *Thursday 3 pm* (Erin)")
    assert "s_review0" not in json.dumps(slack) and "n_review" not in json.dumps(slack[:-1])
    embed = discord_payload("revised")["embeds"][0]
    assert embed["fields"][0]["name"] == "Atlas design review"  # the chain before sources
    assert embed["fields"][1]["name"].startswith("[1] ")


def test_docs_show_every_golden_payload() -> None:
    page = (DOCS / "README.md").read_text()
    for platform, name in CASES:
        picture = f"{platform}-{name}.png"
        assert picture in page and (DOCS / picture).is_file()
        assert f"tests/golden/{platform}-{name}.json" in page


@pytest.mark.parametrize(("platform", "name"), CASES[:1] + CASES[3:4])
def test_pictures_render_in_headless_chromium(tmp_path: Path, platform: str,
                                              name: str) -> None:
    browser = Chromium(binary=chromium(), profile=tmp_path / "profile")
    page = tmp_path / "page.html"
    data = payload(platform, name)
    page.write_text(slack_page(data, names=NAMES, ephemeral=True) if platform == "slack"
                    else discord_page(data, names=NAMES))
    shot = browser.screenshot(page.as_uri(), tmp_path / "shot.png", width=800, height=700)
    assert png_size(shot) == (800, 700)
