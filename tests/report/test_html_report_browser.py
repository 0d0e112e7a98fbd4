"""The HTML report opened in a real headless Chromium, driven over the DevTools protocol.

The document is a real mixed fixture (readable, severed, shifted, private-use,
image-only and blank pages) classified by the real classifier. Chromium is
driven through ``--remote-debugging-pipe`` (NUL-separated JSON on fds 3 and
4), so no websocket library and no port are needed. The tests check that
each bad page's picture and glyph boxes are there, that loading the file
makes no request but file: and data: and logs no error, and that axe-core
(from the npm registry, cached) finds no accessibility violation.

Skipped when Chromium is absent (Debian: ``apt-get install chromium``), and
the axe-core test when npm or the registry is unavailable.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pytest_textlayer.generators import generate
from pytest_textlayer.judge.classifier import classify
from pytest_textlayer.model import DocumentReport
from pytest_textlayer.report.html_report import write_html

CHROMIUM = next(
    (p for p in (os.environ.get("TEXTLAYER_CHROMIUM"), shutil.which("chromium"),
                 shutil.which("chromium-browser")) if p),
    None,
)
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--remote-debugging-pipe", "--window-size=1280,1600", "about:blank",
)
FAMILIES = ["readable", "severed", "shifted", "pua", "image-only", "blank", "readable"]
TIMEOUT = 30.0

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
    pytest.mark.skipif(
        not Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").exists(),
        reason="fonts-dejavu-core is needed to build the PDFs",
    ),
]


class Chromium:
    """A headless Chromium and one page target, spoken to over the DevTools pipe."""

    def __init__(self, exe: str, profile: Path) -> None:
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()
        # The child wants the command pipe on fd 3 and the reply pipe on fd 4.
        high_r, high_w = os.dup(to_child_r), os.dup(from_child_w)
        os.close(to_child_r)
        os.close(from_child_w)

        def wire() -> None:  # runs in the child between fork and exec
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        self.proc = subprocess.Popen(
            [exe, *FLAGS[:-1], f"--user-data-dir={profile}", FLAGS[-1]],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            # Python's descriptors are close-on-exec; only the two dup2'd ones pass.
            preexec_fn=wire, close_fds=False,
        )
        os.close(high_r)
        os.close(high_w)
        self._buffer = b""
        self._next = 0
        self.events: list[dict[str, Any]] = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call(
            "Target.attachToTarget", {"targetId": target, "flatten": True}
        )["sessionId"]

    def close(self) -> None:
        with contextlib.suppress(Exception):  # it may be gone already
            self.call("Browser.close")
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._to_child)
        os.close(self._from_child)

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._from_child], [], [], max(left, 0))
            if not ready:
                raise TimeoutError("chromium did not answer in time")
            chunk = os.read(self._from_child, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        data: dict[str, Any] = json.loads(message)
        return data

    def call(self, method: str, params: dict[str, Any] | None = None, *,
             page: bool = False) -> dict[str, Any]:
        self._next += 1
        msg: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if page:
            msg["sessionId"] = self.session
        os.write(self._to_child, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + TIMEOUT
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result
            self.events.append(reply)

    def wait_for(self, method: str) -> dict[str, Any]:
        deadline = time.monotonic() + TIMEOUT
        for i, event in enumerate(self.events):
            if event.get("method") == method:
                return self.events.pop(i)
        while True:
            event = self._read(deadline)
            if event.get("method") == method:
                return event
            self.events.append(event)

    def evaluate(self, expression: str, *, awaits: bool = False) -> Any:
        result = self.call(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": awaits},
            page=True,
        )
        if "exceptionDetails" in result:
            raise RuntimeError(f"page script failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def open(self, url: str, *, bypass_csp: bool = False) -> None:
        self.events.clear()
        for domain in ("Page", "Network", "Runtime", "Log"):
            self.call(f"{domain}.enable", page=True)
        self.call("Page.setBypassCSP", {"enabled": bypass_csp}, page=True)
        self.call("Page.navigate", {"url": url}, page=True)
        self.wait_for("Page.loadEventFired")


@dataclass
class Loaded:
    """What the browser saw while loading the report."""

    html: Path
    report: DocumentReport
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)
    screenshot: Path | None = None


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Chromium]:
    assert CHROMIUM is not None
    chrome = Chromium(CHROMIUM, tmp_path_factory.mktemp("chromium-profile"))
    try:
        yield chrome
    finally:
        chrome.close()


@pytest.fixture(scope="module")
def loaded(browser: Chromium, tmp_path_factory: pytest.TempPathFactory) -> Loaded:
    root = tmp_path_factory.mktemp("html-browser")
    fixture = generate("mixed", families=FAMILIES)
    pdf = root / "mixed.pdf"
    fixture.write(pdf)
    report = classify(pdf)
    html = write_html([report], root / "report")
    browser.call("Emulation.setDeviceMetricsOverride",
                 {"width": 1280, "height": 1600, "deviceScaleFactor": 1, "mobile": False},
                 page=True)
    browser.open(html.as_uri())
    out = Loaded(html, report)
    for event in browser.events:
        params = event.get("params", {})
        if event.get("method") == "Network.requestWillBeSent":
            out.requests.append(params["request"]["url"])
        elif event.get("method") == "Log.entryAdded" and params["entry"]["level"] == "error":
            out.errors.append(params["entry"]["text"])
        elif event.get("method") == "Runtime.exceptionThrown":
            out.errors.append(json.dumps(params["exceptionDetails"])[:300])
        elif event.get("method") == "Runtime.consoleAPICalled" and params["type"] == "error":
            out.errors.append(json.dumps(params["args"])[:300])
    out.facts = browser.evaluate(
        """(() => {
          const pages = {};
          for (const art of document.querySelectorAll('article.page')) {
            const img = art.querySelector('.canvas img');
            pages[art.id] = {
              image: !!img && img.complete && img.naturalWidth > 0,
              imageWidth: img ? img.getBoundingClientRect().width : 0,
              svgWidth: (art.querySelector('.canvas svg') || {getBoundingClientRect: () =>
                ({width: 0})}).getBoundingClientRect().width,
              boxes: art.querySelectorAll('.canvas rect').length,
              severed: art.querySelectorAll('.canvas g.r-severed rect').length,
              wrong: art.querySelectorAll('.canvas g.r-wrong rect').length,
              title: (art.querySelector('.canvas rect title') || {}).textContent || null,
            };
          }
          return {pages, rows: document.querySelectorAll('tbody tr').length};
        })()"""
    )
    # A picture of the first bad page: its figure, clipped from the full layout.
    clip = browser.evaluate(
        """(() => { const r = document.querySelector('article.page .canvas')
             .getBoundingClientRect();
           return {x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height,
                   scale: 1}; })()"""
    )
    shot = browser.call(
        "Page.captureScreenshot",
        {"format": "png", "clip": clip, "captureBeyondViewport": True},
        page=True,
    )
    out.screenshot = root / "report.png"
    out.screenshot.write_bytes(base64.b64decode(shot["data"]))
    return out


def test_every_bad_page_has_its_picture_and_glyph_boxes(loaded: Loaded) -> None:
    pages = loaded.facts["pages"]
    bad = [p for p in loaded.report.pages if not p.ok]
    assert [p.verdict.value for p in bad] == ["undecodable", "shifted", "garbled", "absent"]
    assert sorted(pages) == sorted(f"d1p{p.number}" for p in bad)
    for page in bad:
        facts = pages[f"d1p{page.number}"]
        assert facts["image"], f"page {page.number}: picture did not load"
        # The overlay is laid exactly over the picture.
        assert abs(facts["svgWidth"] - facts["imageWidth"]) < 1
        # One box per glyph PDFium extracts; the classifier counted the same glyphs.
        assert facts["boxes"] == page.glyphs
    severed = next(p for p in bad if p.verdict.value == "undecodable")
    assert pages[f"d1p{severed.number}"]["severed"] == severed.glyphs > 0
    pua = next(p for p in bad if p.verdict.value == "garbled")
    assert pages[f"d1p{pua.number}"]["wrong"] == pua.glyphs > 0
    assert "severed" in pages[f"d1p{severed.number}"]["title"]
    image_only = next(p for p in bad if p.verdict.value == "absent")
    assert pages[f"d1p{image_only.number}"]["boxes"] == 0


def test_the_report_loads_with_no_network_request_and_no_console_error(loaded: Loaded) -> None:
    assert loaded.html.as_uri() in loaded.requests
    assert all(url.split(":", 1)[0] in {"file", "data"} for url in loaded.requests), (
        loaded.requests
    )
    assert loaded.errors == []


def test_the_screenshot_shows_the_severed_page_in_red(loaded: Loaded) -> None:
    from PIL import Image

    assert loaded.screenshot is not None
    keep = os.environ.get("TEXTLAYER_SCREENSHOT")
    if keep:  # to look at it: TEXTLAYER_SCREENSHOT=/tmp/report.png pytest ...
        shutil.copyfile(loaded.screenshot, keep)
    with Image.open(loaded.screenshot) as shot:
        rgb = shot.convert("RGB")
        width, height = rgb.size
        page = loaded.report.pages[1]
        assert page.verdict.value == "undecodable"
        # A5 (420 × 595 pt) fits the 1280-pixel window's column: about three times as wide as
        # its size in points, so a glyph's letters show through its box
        assert width > 1100 and height / width == pytest.approx(595 / 420, abs=0.01)
        raw = rgb.tobytes()
    pixels = list(zip(raw[0::3], raw[1::3], raw[2::3], strict=True))
    # The page picture is greyscale: only the severed boxes' red tint has colour.
    reddish = sum(1 for r, g, b in pixels if r - max(g, b) > 40)
    coloured = sum(1 for r, g, b in pixels if max(r, g, b) - min(r, g, b) > 40)
    assert reddish > 2000
    assert coloured - reddish < reddish // 20


def test_the_toggle_prints_the_extracted_characters_on_the_boxes(
    browser: Chromium, loaded: Loaded
) -> None:
    browser.open(loaded.html.as_uri())
    shown = browser.evaluate(
        """(() => {
          const fig = document.querySelector('article.page figure');
          const chars = fig.querySelector('.chars');
          const before = getComputedStyle(chars).display;
          fig.querySelector('input.show').click();
          return [before, getComputedStyle(chars).display,
                  [...chars.querySelectorAll('text')].map(t => t.textContent).join('')];
        })()"""
    )
    page = loaded.report.bad_pages[0]
    assert shown[0] == "none" and shown[1] != "none"
    # The characters printed are what PDFium extracts, controls made visible.
    assert len(shown[2]) == page.glyphs


# -- accessibility ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def axe_source(request: pytest.FixtureRequest) -> str:
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed")
    cache = getattr(request.config, "cache", None)  # None under -p no:cacheprovider
    folder = (
        cache.mkdir("textlayer-axe-core") if cache is not None
        else Path(tempfile.mkdtemp(prefix="axe-"))
    )
    script = folder / "node_modules" / "axe-core" / "axe.min.js"
    if not script.exists():
        done = subprocess.run(
            [npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix", str(folder),
             "axe-core@4"],
            capture_output=True, text=True, timeout=180, check=False,
        )
        if done.returncode != 0 or not script.exists():
            pytest.skip(f"axe-core could not be installed from npm: {done.stderr[-300:]}")
    return script.read_text(encoding="utf-8")


def test_axe_core_finds_no_accessibility_violation(
    browser: Chromium, loaded: Loaded, axe_source: str
) -> None:
    # The report's own policy forbids scripts; only this test's injected axe is let through.
    browser.open(loaded.html.as_uri(), bypass_csp=True)
    browser.evaluate(axe_source)
    found = browser.evaluate(
        """axe.run(document, {resultTypes: ['violations']}).then(r => ({
             violations: r.violations.map(v => ({id: v.id, impact: v.impact,
               nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))})),
             passes: r.passes.map(p => p.id)}))""",
        awaits=True,
    )
    assert found["violations"] == []
    for rule in ("color-contrast", "image-alt", "label", "document-title", "html-has-lang"):
        assert rule in found["passes"]


def test_keyboard_focus_reaches_links_toggles_and_text_panels(
    browser: Chromium, loaded: Loaded
) -> None:
    """Tab walks every link, toggle and scrollable text panel once, each with a focus ring."""
    browser.open(loaded.html.as_uri())
    stops: list[list[Any]] = []
    for _ in range(200):
        for kind in ("keyDown", "keyUp"):
            browser.call("Input.dispatchKeyEvent", {"type": kind, "key": "Tab", "code": "Tab",
                                                    "windowsVirtualKeyCode": 9}, page=True)
        stop = browser.evaluate(
            "(() => { const e = document.activeElement;"
            " return [e.tagName.toLowerCase(), getComputedStyle(e).outlineStyle]; })()"
        )
        if stop[0] == "body":  # past the last stop
            break
        stops.append(stop)
    focusable = browser.evaluate(
        "document.querySelectorAll('a[href], input, [tabindex=\"0\"]').length"
    )
    assert len(stops) == focusable
    assert {tag for tag, _ in stops} == {"a", "input", "pre"}
    assert all(outline != "none" for _, outline in stops), str(stops)


def test_a_click_on_the_page_zooms_it_in_its_frame(browser: Chromium, loaded: Loaded) -> None:
    browser.open(loaded.html.as_uri())
    measure = """(() => { const c = document.querySelector('#d1p2 .canvas');
        const f = c.closest('.frame'); const r = c.getBoundingClientRect();
        return {canvas: r.width, frame: f.getBoundingClientRect().width,
                x: r.x + r.width / 4, y: r.y + 40, scrolls: f.scrollWidth > f.clientWidth}; })()"""
    browser.evaluate("document.querySelector('#d1p2').scrollIntoView()")
    before = browser.evaluate(measure)
    assert before["canvas"] == pytest.approx(before["frame"], abs=1)  # fits the column
    assert not before["scrolls"]
    for kind in ("mousePressed", "mouseReleased"):
        browser.call("Input.dispatchMouseEvent", {"type": kind, "x": before["x"],
                                                  "y": before["y"], "button": "left",
                                                  "clickCount": 1}, page=True)
    after = browser.evaluate(measure)
    assert after["canvas"] == pytest.approx(2 * before["canvas"], abs=2)
    assert after["scrolls"]  # the frame scrolls; the page around it keeps its width
    assert after["frame"] == pytest.approx(before["frame"], abs=1)
