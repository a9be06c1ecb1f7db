"""Take the README screenshots of the calculator page (run by hand, not by pytest):

    .venv/bin/python tests/browser/screenshots.py [OUT_DIR]     # default docs/img
    .venv/bin/python tests/browser/screenshots.py --only editions-backslashes implementations

Starts the real app on a free port, opens the page once in Debian's Chromium (offline: anything
that would leave localhost is aborted), waits until Pyodide answers, then drives the page through
its URL fragment (the permalink state) and saves one PNG per view.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from liveserver import REPO, Offline, frag, launch, live_server

WIDTH, HEIGHT = 1280, 960


SHOTS: list[tuple[str, dict[str, object], dict[str, object]]] = [
    # name, page state, options (width/height; scroll: an element to scroll to the top;
    # clip: an element to shoot alone, cut at max_height; lesson: [lesson id, step index] to
    # present; focus: an element to focus last, as a user typing in it; open: a <details> to open)
    ("components", {"input": "HTTPS://user:pa$$@EXAMPLE.com:443/a/./b/../%7Ec?q=1#top"}, {}),
    # the relative state's run: every step that ran, each with what it changed, and the
    # shortening its step 5.4.2 called, nested after it
    ("steps", {"input": "../x", "base": "http://h/a/b/c", "view": "steps", "step": 2}, {}),
    # the spec's words of a failing step (README: How to read a citation): host state 3.4
    ("steps-failure", {"input": "http://a b/", "view": "steps", "step": 14},
     {"clip": "#panel-steps", "max_height": 900}),
    ("resolution", {"input": "../c/./d?q#f", "base": "https://user@example.org:8443/a/b/index.html?x#y",
                    "view": "resolution"}, {}),
    ("setters", {"input": "https://example.com/docs?a=1", "view": "setters",
                 "ops": [["protocol", "mailto"], ["port", "8080"],
                         ["searchParams.append", "q=url calc"], ["hostname", "ex ample.com"]]}, {}),
    ("validation", {"input": " https://user@0x7f.1\\a\\..\\b?<q>#\u00a0",
                    "view": "validation"}, {}),
    ("implementations", {"input": "HTTP://EXAMPLE.com:80/a/./b/../c d?q=1 2#f",
                         "view": "implementations"},
     {"clip": "#panel-implementations", "max_height": 1500}),
    ("calculators", {"input": "https://example.com/", "view": "calculators", "pct": "a b/ç?&=€",
                     "host": "faß.ExAmPle", "form": "a=1&b=x+y&c=%E2%82%AC&a"}, {}),
    ("examples", {"input": "https://127.1/", "view": "examples"}, {}),
    # a projector (1280x720) presenting the first example lesson at its third step
    ("presenter", {"input": "../c", "base": "https://example.com/a/b", "presenter": 1},
     {"width": 1280, "height": 720, "lesson": ["example:relative-resolution", 2], "scroll": None}),
    # a phone (360x740) typing the URL: the answer under the field
    ("mobile", {"input": "https://Café.example.com/menu/../prix?plat=crêpe#dessert"},
     {"width": 360, "height": 740, "focus": "#input", "scroll": None}),
    ("lessons", {"input": "https://example.com/", "view": "lessons"},
     {"clip": "#panel-lessons", "max_height": 760}),
    # Editions: the three classic inputs, the table and the lines under it
    ("editions-backslashes", {"input": "http:\\\\example.com\\a\\..\\b", "view": "editions"},
     {"clip": "#panel-editions", "max_height": 1250}),
    ("editions-default-port", {"input": "HTTP://EXAMPLE.com:80/%7efoo", "view": "editions"},
     {"clip": "#panel-editions", "max_height": 1250}),
    ("editions-file-drive", {"input": "file:c:\\foo\\bar.html", "view": "editions"},
     {"clip": "#panel-editions", "max_height": 1250}),
    # History: the two changes that made 1.2.3.4.5 fail, the newest opened; the standard in 2018
    ("history", {"input": "http://1.2.3.4.5/", "view": "history", "asof": "2018-03-01"},
     {"clip": "#panel-history", "max_height": 1400,
      "open": '#history-timeline li[data-date="2021-08-05"] details'}),
]


def main(argv: list[str]) -> int:
    args = argv[1:]
    only: set[str] = set()
    if "--only" in args:
        i = args.index("--only")
        only = set(args[i + 1:])
        args = args[:i]
        unknown = only - {name for name, _, _ in SHOTS}
        if unknown or not only:
            print(f"--only takes shot names: {', '.join(name for name, _, _ in SHOTS)}",
                  file=sys.stderr)
            return 2
    out = Path(args[0]) if args else REPO / "docs" / "img"
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import expect, sync_playwright

    with live_server() as base_url, sync_playwright() as p:
        browser = launch(p)
        context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT},
                                      device_scale_factor=1)
        offline = Offline()
        offline.watch(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base_url + "#" + frag(input="https://example.com/"))
        expect(page.locator("body")).to_have_attribute("data-engine", "pyodide", timeout=60_000)
        for name, state, opts in SHOTS:
            if only and name not in only:
                continue
            width = int(opts.get("width", WIDTH))  # type: ignore[call-overload]
            height = int(opts.get("height", HEIGHT))  # type: ignore[call-overload]
            page.set_viewport_size({"width": width, "height": height})
            before = page.evaluate("Number(document.body.dataset.renders || 0)")
            page.evaluate("(f) => { location.hash = f; }", frag(**state))
            page.wait_for_function("(n) => Number(document.body.dataset.renders) > n", arg=before)
            if "lesson" in opts:
                lesson_id, at = opts["lesson"]  # type: ignore[misc]
                page.evaluate("() => window.urlcalc.lessons.loadExamples()")
                page.evaluate("([id, at]) => window.urlcalc.lessons.play(id, at, {present: true})",
                              [lesson_id, at])
            if "open" in opts:  # a <details> shown open
                page.locator(str(opts["open"])).evaluate("(el) => { el.open = true; }")
            page.wait_for_timeout(1000)  # setters/calculator calls settle, the paper tape records
            page.evaluate("() => { document.activeElement?.blur(); window.scrollTo(0, 0); }")
            if "focus" in opts:
                page.focus(str(opts["focus"]))
                page.keyboard.press("End")
            # the whole page for the first view; the result and the view below the inputs else
            scroll = opts.get("scroll", None if name == "components" else ".summary")
            if scroll:
                page.locator(str(scroll)).evaluate("(el) => el.scrollIntoView({block: 'start'})")
            path = out / f"{name}.png"
            if "clip" in opts:  # one element, cut at max_height
                box = page.locator(str(opts["clip"])).evaluate(
                    "(el) => { const r = el.getBoundingClientRect(); return {x: r.left +"
                    " scrollX, y: r.top + scrollY, width: r.width, height: r.height}; }")
                height = min(box["height"], float(opts.get("max_height", box["height"])))  # type: ignore[arg-type]
                page.screenshot(path=str(path), full_page=True,
                                clip={"x": box["x"], "y": box["y"], "width": box["width"],
                                      "height": height})
            else:
                page.screenshot(path=str(path), full_page=False)
            if "lesson" in opts:
                page.evaluate("() => window.urlcalc.lessons.stop()")
            print(f"{path.relative_to(REPO) if path.is_relative_to(REPO) else path}")
        browser.close()
    if errors or offline.blocked:
        print("errors:", errors, "blocked:", offline.blocked, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
