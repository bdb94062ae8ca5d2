"""Render the golden answer payloads (tests/golden/*.json) to HTML and screenshot each in
headless Chromium: ``python docs/answers/make_pictures.py`` from the repository root
(needs ``apt-get install -y chromium``, and ``fonts-noto-color-emoji`` for the emoji).
Writes docs/answers/<platform>-<name>.png."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.support.browser import FLAGS, chromium  # noqa: E402
from tests.support.chat_render import discord_page, slack_page  # noqa: E402
from tests.support.golden_answers import NAMES  # noqa: E402

OUT = ROOT / "docs" / "answers"
WIDTH = 800


def main() -> None:
    binary = chromium()
    with tempfile.TemporaryDirectory() as tmp:
        profile = str(Path(tmp) / "profile")
        for golden in sorted((ROOT / "tests" / "golden").glob("*.json")):
            platform, _ = golden.stem.split("-", 1)
            data = json.loads(golden.read_text())
            page = (slack_page(data, names=NAMES, ephemeral=True) if platform == "slack"
                    else discord_page(data, names=NAMES))
            html_path = Path(tmp) / f"{golden.stem}.html"
            html_path.write_text(page)
            base = [binary, *FLAGS, f"--user-data-dir={profile}"]
            # The page writes its height into its title: size the window to the content.
            dom = subprocess.run([*base, f"--window-size={WIDTH},600", "--dump-dom",
                                  html_path.as_uri()], capture_output=True, text=True,
                                 timeout=90, check=True).stdout
            height = int(dom.split("<title>", 1)[1].split("</title>", 1)[0]) + 8
            png = OUT / f"{golden.stem}.png"
            subprocess.run([*base, f"--window-size={WIDTH},{height}", f"--screenshot={png}",
                            html_path.as_uri()], capture_output=True, timeout=90, check=True)
            print(f"{png.relative_to(ROOT)} ({WIDTH}x{height})")


if __name__ == "__main__":
    main()
