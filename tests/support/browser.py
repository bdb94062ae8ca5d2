"""Drive a real headless Chromium from tests, without Playwright or Selenium.

:func:`chromium` finds the Debian ``chromium`` binary. When it is missing it installs it once
with apt-get, but only when running as root and either ``CI=true`` or
``EGMEM_INSTALL_CHROMIUM=1``; otherwise the test is skipped with a message saying how to get
it. :class:`Chromium` runs one short-lived browser per call: ``--dump-dom`` for the DOM after
the page rendered, ``--screenshot`` for a PNG. :func:`parse_html` turns the DOM into a small
tree so tests can assert on what a person sees.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import threading
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest

BINARIES = ("chromium", "chromium-browser")
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio",
)
INSTALL_TIMEOUT_S = 900
RUN_TIMEOUT_S = 90

_install_lock = threading.Lock()
_install_tried = False


def _find() -> str | None:
    for name in BINARIES:
        path = shutil.which(name)
        if path:
            return path
    return None


def _may_install() -> bool:
    wants = os.environ.get("CI") == "true" or os.environ.get("EGMEM_INSTALL_CHROMIUM") == "1"
    return wants and hasattr(os, "geteuid") and os.geteuid() == 0 and bool(
        shutil.which("apt-get"))


def _install() -> None:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "update", "-q"], ["apt-get", "install", "-y", "-q", "chromium"]):
        subprocess.run(cmd, env=env, check=True, timeout=INSTALL_TIMEOUT_S,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def chromium() -> str:
    """The Chromium binary, installing it once if allowed; skips the test otherwise."""
    global _install_tried
    path = _find()
    if path:
        return path
    with _install_lock:
        if not _install_tried and _may_install():
            _install_tried = True
            try:
                _install()
            except (subprocess.SubprocessError, OSError) as exc:
                pytest.skip(f"installing chromium with apt-get failed: {exc}")
        path = _find()
    if not path:
        pytest.skip("headless Chromium is not installed: run `apt-get install -y chromium` "
                    "(or set EGMEM_INSTALL_CHROMIUM=1 and run the tests as root)")
    return path


@dataclass
class Chromium:
    """One headless browser binary with its own throw-away profile directory."""

    binary: str
    profile: Path

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        cmd = [self.binary, *FLAGS, f"--user-data-dir={self.profile}", *args]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT_S,
                              check=False)
        if done.returncode != 0:
            raise AssertionError(f"chromium exited {done.returncode}: {done.stderr[-2000:]}")
        return done

    def dump_dom(self, url: str) -> str:
        """The serialized DOM of ``url`` after it loaded."""
        return self._run("--dump-dom", url).stdout

    def screenshot(self, url: str, path: Path, *, width: int = 1200, height: int = 900) -> Path:
        self._run(f"--screenshot={path}", f"--window-size={width},{height}", url)
        if not path.is_file():
            raise AssertionError(f"chromium wrote no screenshot for {url}")
        return path


def png_size(path: Path) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk; raises if the file is not a PNG."""
    head = path.read_bytes()[:24]
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        raise AssertionError(f"{path} is not a PNG")
    width, height = struct.unpack(">II", head[16:24])
    return int(width), int(height)


# ---- a tiny DOM for assertions ----------------------------------------------------------

VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "source", "track", "wbr"})


@dataclass
class Node:
    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node | str] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def text(self) -> str:
        """Text content with whitespace collapsed, as a person reads it."""
        out: list[str] = []

        def walk(n: Node) -> None:
            for c in n.children:
                if isinstance(c, str):
                    out.append(c)
                else:
                    walk(c)

        walk(self)
        return " ".join("".join(out).split())

    def find_all(self, tag: str | None = None, cls: str | None = None) -> list[Node]:
        found: list[Node] = []

        def walk(n: Node) -> None:
            for c in n.children:
                if isinstance(c, Node):
                    if (tag is None or c.tag == tag) and (cls is None or cls in c.classes):
                        found.append(c)
                    walk(c)

        walk(self)
        return found

    def find(self, tag: str | None = None, cls: str | None = None) -> Node:
        hits = self.find_all(tag, cls)
        if not hits:
            raise AssertionError(f"no <{tag or '*'} class={cls!r}> in the page")
        return hits[0]


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document")
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse_html(text: str) -> Node:
    b = _Builder()
    b.feed(text)
    b.close()
    return b.root
