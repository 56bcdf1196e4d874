"""`corvus show --html` in a real headless browser: Debian's Chromium,
driven by Playwright. The page is opened from its file with every network
request recorded; pressing step, play and the keys must change the board."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CORVUS_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # ./test installs it; a bare pytest may not have it
    sync_playwright = None

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (Debian: apt-get install chromium; ./test installs it as root or with sudo)"),
    pytest.mark.skipif(sync_playwright is None, reason="playwright not installed (pip install playwright); ./test installs it"),
]

# Flags for a headless Chromium on a machine with no network and as root.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def write_page(tmp_path: Path, instance: str, witness: str) -> Path:
    page = tmp_path / "plan.html"
    corvus = Path(sys.executable).parent / "corvus"
    out = subprocess.run(
        [str(corvus), "show", str(ROOT / instance), str(ROOT / witness), "--html", str(page)],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    return page


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def open_page(browser, path: Path):
    """The page, with the URLs it requested and the errors it raised."""
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    requests, errors = [], []
    page.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(path.as_uri())
    return page, requests, errors


def test_hanoi_page_steps_plays_and_needs_no_network(browser, tmp_path):
    path = write_page(tmp_path, "problems/hanoi-seed.asp", "problems/hanoi-seed.witness")
    page, requests, errors = open_page(browser, path)
    board = page.locator("#board")
    assert board.get_attribute("data-step") == "0"
    assert page.inner_text("#heading") == "step 0 of 3: the initial state"
    assert page.is_disabled("#back") and page.is_enabled("#step")
    # Where each disc is drawn, before and after one step.
    def discs():
        return {
            r.get_attribute("data-disc"): (r.get_attribute("x"), r.get_attribute("y"))
            for r in page.locator("#board rect[data-disc]").all()
        }
    before = discs()
    assert len(before) >= 3, before
    page.click("#step")
    assert board.get_attribute("data-step") == "1"
    heading = page.inner_text("#heading")
    assert heading.startswith("step 1 of 3: (move "), heading
    moved_disc = heading.split()[5]  # "(move DISC FROM TO)"
    after = discs()
    assert set(after) == set(before)
    changed = [d for d in before if before[d] != after[d]]
    assert changed == [moved_disc], (changed, heading)
    # Back, then the keys: right arrow steps, End jumps to the last state.
    page.click("#back")
    assert board.get_attribute("data-step") == "0" and discs() == before
    page.keyboard.press("ArrowRight")
    assert board.get_attribute("data-step") == "1"
    page.keyboard.press("End")
    assert board.get_attribute("data-step") == "3"
    assert page.is_disabled("#step") and page.inner_text("#verdict") == ""
    # Play from the start at the fast speed runs to the end and stops.
    page.select_option("#speed", "100")
    page.keyboard.press("Home")
    page.click("#play")
    assert page.inner_text("#play") == "pause"
    page.wait_for_function("document.getElementById('board').dataset.step === '3'", timeout=10_000)
    page.wait_for_function("document.getElementById('play').textContent === 'play'", timeout=10_000)
    assert errors == []
    assert requests == [path.as_uri()], requests


def test_sokoban_page_moves_the_player_and_shows_the_stone_on_its_goal(browser, tmp_path):
    path = write_page(tmp_path, "tests/data/sokoban-tiny.asp", "tests/data/sokoban-tiny.witness")
    page, requests, errors = open_page(browser, path)

    def player():
        circle = page.locator("#board circle[data-thing=player]")
        assert circle.count() == 1
        return circle.get_attribute("cx"), circle.get_attribute("cy")

    start = player()
    assert page.locator("#board rect[data-thing=stone]").count() == 1
    page.click("#step")
    assert page.locator("#board").get_attribute("data-step") == "1"
    assert player() != start
    # The slider jumps; at the end the stone is drawn as one on a goal.
    last = page.get_attribute("#slider", "max")
    page.fill("#slider", last)
    assert page.locator("#board").get_attribute("data-step") == last
    assert page.locator("#board rect[data-thing=stone]").first.get_attribute("fill") == "#3f9b5a"
    assert "reaches the goal" in page.inner_text("#summary")
    if os.environ.get("CORVUS_SCREENSHOTS"):
        page.screenshot(path=os.path.join(os.environ["CORVUS_SCREENSHOTS"], "show-sokoban.png"), full_page=True)
    assert errors == []
    assert requests == [path.as_uri()], requests


def test_a_failing_plan_says_where_it_fails(browser, tmp_path):
    witness = tmp_path / "short.witness"
    lines = (ROOT / "problems/hanoi-seed.witness").read_text().splitlines()
    witness.write_text("\n".join(lines[:2]) + "\n")
    page_path = tmp_path / "fails.html"
    corvus = Path(sys.executable).parent / "corvus"
    out = subprocess.run(
        [str(corvus), "show", str(ROOT / "problems/hanoi-seed.asp"), str(witness), "--html", str(page_path)],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 1, out.stderr
    page, _, errors = open_page(browser, page_path)
    assert "fails" in page.inner_text("#summary")
    assert page.inner_text("#verdict") == ""
    page.keyboard.press("End")
    assert "does not hold" in page.inner_text("#verdict")
    assert errors == []
