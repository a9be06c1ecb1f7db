"""Take docs/img/predict-reveal.png (run by hand, not by pytest), for the README's "Teaching with
urlcalc": a projector (1280x720, presenter mode) playing a lesson step that hid two getters, after
the class's guesses were typed and revealed (one right, one wrong).

    .venv/bin/python tests/browser/screenshot_reveal.py [OUT.png]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from liveserver import REPO, Offline, frag, launch, live_server

LESSON = {"title": "Predict, then reveal: dot segments", "description": "", "steps": [
    {"input": "https://EXAMPLE.com:443/a/./b/../c", "base": "", "view": "components", "step": 0,
     "note": "What are the host and the path? Guess, then reveal.", "ops": [], "enc": "",
     "hide": ["host", "pathname"]}]}


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else REPO / "docs" / "img" / "predict-reveal.png"
    from playwright.sync_api import expect, sync_playwright

    with live_server() as base_url, sync_playwright() as p:
        browser = launch(p)
        context = browser.new_context(viewport={"width": 1280, "height": 720},
                                      device_scale_factor=1)
        offline = Offline()
        offline.watch(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        # the server answers (a loaded machine may take over 20 s to boot Pyodide)
        page.goto(base_url + "?engine=server#" + frag(input="https://example.com/"))
        expect(page.locator("body")).to_have_attribute("data-engine", "server", timeout=60_000)
        link = page.evaluate("(l) => window.urlcalc.lessons.linkFor(l)", LESSON)
        page.goto(base_url + "?engine=server#" + link.split("#", 1)[1])
        expect(page.locator("#lesson-pos")).to_have_text("1 / 1")
        page.keyboard.press("p")
        page.fill("#predict-host", "example.com")
        page.fill("#predict-pathname", "/a/b/c")
        page.evaluate("() => document.activeElement?.blur()")
        page.wait_for_timeout(800)
        page.keyboard.press("r")
        expect(page.locator('#lesson-predict [data-mark="wrong"]')).to_have_count(1)
        page.evaluate("() => { document.activeElement?.blur(); window.scrollTo(0, 0); }")
        expect(page.locator("#toast")).to_be_hidden(timeout=15_000)  # "Lesson …: 1 step."
        page.screenshot(path=str(out), full_page=False)
        print(out.relative_to(REPO) if out.is_relative_to(REPO) else out)
        browser.close()
    if errors or offline.blocked:
        print("errors:", errors, "blocked:", offline.blocked, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
