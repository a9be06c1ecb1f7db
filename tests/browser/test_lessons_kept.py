"""Issue 25, item 4: lessons and the paper tape are never lost.

Each way a lesson or the tape used to be lost is a case here: a field the editor let grow past
what storage accepts (the limits are enforced where you type, with a counter), the Setters lab's
65th operation, a stored lesson that no longer validates (kept aside with its problem and an
export, and still there after another lesson is saved), two tabs saving over each other (one
key per lesson and the storage event), a full storage (a message, the lesson stays in the page),
and the paper tape (it survives a reload, says when its oldest entries go, and Clear can be
undone, also after a reload).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from liveserver import PageProbe, frag
from playwright.sync_api import expect

VALID = {"format": "urlcalc-lesson", "version": 1, "title": "Still fine",
         "steps": [{"input": "https://example.com/"}]}
# a lesson this page refuses: a misspelt key (the page reports it, never drops it)
BROKEN = {"format": "urlcalc-lesson", "version": 1, "title": "Hand-edited",
          "steps": [{"input": "https://example.com/", "notes": "misspelt"}]}


def lessons_tab(page: Any) -> None:
    page.keyboard.press("0")
    expect(page.locator("#lesson-examples .lesson-pick")).to_have_count(3)


def reload(page: Any) -> None:
    page.reload()
    page.wait_for_selector("body[data-engine]", timeout=30_000)


def stored(page: Any) -> dict[str, str]:
    """Every lesson key in localStorage, with its text."""
    found: dict[str, str] = page.evaluate("""() => Object.fromEntries(Object.keys(localStorage)
        .filter((k) => k.startsWith("urlcalc.lesson")).map((k) => [k, localStorage.getItem(k)]))""")
    return found


def test_the_editor_keeps_every_field_within_what_storage_accepts(probe: PageProbe,
                                                                   tmp_path: Path) -> None:
    page = probe.open(frag(input="https://example.com/", view="lessons"))
    expect(page.locator("#lesson-examples .lesson-pick")).to_have_count(3)
    page.click("#lesson-new")
    # the description: a textarea with maxlength and a counter; 2,100 characters typed in
    # (pasted) stop at 2,000, the counter says so, and the live region announces it
    desc = page.locator("#lesson-description")
    assert desc.evaluate("(el) => el.tagName") == "TEXTAREA"
    expect(desc).to_have_attribute("maxlength", "2000")
    expect(page.locator("#lesson-description-count")).to_have_text("0 / 2,000")
    desc.fill("d" * 1500)
    expect(page.locator("#lesson-description-count")).to_have_text("1,500 / 2,000")
    desc.press("End")
    page.keyboard.insert_text("e" * 600)
    assert len(desc.input_value()) == 2000
    expect(page.locator("#lesson-description-count")).to_have_text("2,000 / 2,000")
    expect(page.locator("#lesson-description-count")).to_have_class("counter at-limit")
    expect(page.locator("#lesson-limit-live")).to_contain_text("Description")
    expect(page.locator("#lesson-limit-live")).to_have_attribute("aria-live", "polite")
    # the title: 200 characters
    expect(page.locator("#lesson-title")).to_have_attribute("maxlength", "200")
    page.locator("#lesson-title").fill("T" * 250)
    assert len(page.locator("#lesson-title").input_value()) == 200
    # a step's URL: 64 KiB of UTF-8, which maxlength (UTF-16 units) cannot count: 30,000 CJK
    # characters (90,000 bytes) are cut at 65,535 bytes, and the page says so
    url = page.locator("#ls-input-0")
    url.fill("https://例.example/" + "字" * 30_000)
    value = url.input_value()
    assert len(value.encode("utf-8")) <= 65_536
    assert value.startswith("https://例.example/字")
    expect(page.locator("#ls-input-count-0")).to_have_text(
        f"{len(value.encode('utf-8')):,} / 65,536 bytes")
    expect(page.locator("#lesson-message")).to_contain_text("at most 65,536 bytes")
    # a note: 1,000
    expect(page.locator("#ls-note-0")).to_have_attribute("maxlength", "1000")
    # what the editor made, storage accepts: after a reload it is a lesson, not kept aside
    reload(page)
    lessons_tab(page)
    expect(page.locator("#lesson-mine .lesson-pick")).to_have_count(1)
    expect(page.locator("#lesson-kept")).to_have_count(0)
    page.locator("#lesson-mine .lesson-pick").click()
    assert len(page.locator("#lesson-description").input_value()) == 2000
    assert page.locator("#ls-input-0").input_value() == value
    # and its file imports back (the export is a valid lesson)
    with page.expect_download() as d:
        page.click("#lesson-export")
    exported = json.loads(Path(d.value.path()).read_text(encoding="utf-8"))
    assert exported["description"] == "d" * 1500 + "e" * 500
    probe.assert_clean()


def test_the_65th_setter_operation_cannot_be_added(probe: PageProbe) -> None:
    ops = [["searchParams.append", f"k{i}=v"] for i in range(63)]
    page = probe.open(frag(input="https://example.com/", view="setters", ops=ops))
    expect(page.locator("#ops .op-row")).to_have_count(63)
    expect(page.locator("#op-count")).to_have_text("63 / 64 operations")
    page.click("#op-add")
    expect(page.locator("#ops .op-row")).to_have_count(64)
    expect(page.locator("#op-add")).to_be_disabled()
    expect(page.locator("#op-count")).to_contain_text("64 / 64 operations: the most")
    expect(page.locator("#op-count")).to_have_class("counter at-limit")
    # removing one makes room again
    page.locator('[data-op-row="63"] button[aria-label="Remove operation 64"]').click()
    expect(page.locator("#op-add")).to_be_enabled()
    # the page's 64 operations make a lesson step that storage accepts
    page.click("#op-add")
    page.click("#tab-lessons")
    page.click("#lesson-new")
    expect(page.locator("#lesson-steps .ls-text")).to_contain_text("setters: ")
    reload(page)
    lessons_tab(page)
    expect(page.locator("#lesson-mine .lesson-pick")).to_have_count(1)
    expect(page.locator("#lesson-kept")).to_have_count(0)
    probe.assert_clean()


def test_a_stored_lesson_that_no_longer_validates_is_kept_and_exported(probe: PageProbe) -> None:
    page = probe.open(frag(input="https://example.com/"))
    # the old single-key list, as an older page wrote it: one good lesson, one refused
    old = [{"id": "good1", "lesson": VALID}, {"id": "bad1", "lesson": BROKEN}]
    page.evaluate("(v) => localStorage.setItem('urlcalc.lessons', v)", json.dumps(old))
    reload(page)
    lessons_tab(page)
    expect(page.locator("#lesson-mine .lesson-pick")).to_have_count(1)
    kept = page.locator("#lesson-kept .lesson-kept")
    expect(kept).to_have_count(1)
    expect(kept).to_contain_text("Hand-edited")
    expect(kept.locator(".kept-problem")).to_contain_text('unknown key "notes"')
    # moved to one key per lesson, the broken one as it was
    keys = stored(page)
    assert set(keys) == {"urlcalc.lesson:good1", "urlcalc.lesson:bad1"}
    assert json.loads(keys["urlcalc.lesson:bad1"])["lesson"] == BROKEN
    # Export gives the lesson as stored, to mend by hand
    with page.expect_download() as d:
        kept.locator(".kept-export").click()
    assert json.loads(Path(d.value.path()).read_text(encoding="utf-8")) == BROKEN
    # saving another lesson (a new one, an edit) does not drop it
    page.click("#lesson-new")
    page.fill("#lesson-title", "Made after")
    reload(page)
    lessons_tab(page)
    expect(page.locator("#lesson-mine .lesson-pick")).to_have_count(2)
    expect(page.locator("#lesson-kept .lesson-kept")).to_have_count(1)
    assert stored(page)["urlcalc.lesson:bad1"] == keys["urlcalc.lesson:bad1"]
    # a lesson key that is not JSON at all is kept too
    page.evaluate("() => localStorage.setItem('urlcalc.lesson:junk', '{oops')")
    reload(page)
    lessons_tab(page)
    expect(page.locator("#lesson-kept .lesson-kept")).to_have_count(2)
    expect(page.locator('[data-kept-key="urlcalc.lesson:junk"] .kept-problem')).to_contain_text(
        "not JSON")
    probe.assert_clean()


def test_two_tabs_keep_each_others_lessons(probe: PageProbe) -> None:
    a = probe.open(frag(input="https://a.example/", view="lessons"))
    expect(a.locator("#lesson-examples .lesson-pick")).to_have_count(3)
    b = probe.context.new_page()
    probe.attach(b)
    b.goto(probe.base_url + "?engine=server#" + frag(input="https://b.example/", view="lessons"))
    b.wait_for_selector("body[data-engine]", timeout=30_000)
    expect(b.locator("#lesson-examples .lesson-pick")).to_have_count(3)
    # one lesson made in each tab, both open
    a.click("#lesson-new")
    a.fill("#lesson-title", "From A")
    b.click("#lesson-new")
    b.fill("#lesson-title", "From B")
    # each tab hears the other's (the storage event)
    expect(a.locator("#lesson-mine .lesson-pick")).to_have_count(2)
    expect(b.locator("#lesson-mine .lesson-pick")).to_have_count(2)
    for page in (a, b):
        reload(page)
        lessons_tab(page)
        expect(page.locator("#lesson-mine .ll-title")).to_have_text(["From A", "From B"])
    # an edit in A shows in B, also in B's open editor of that lesson, with B's focus kept
    b.locator("#lesson-mine .lesson-pick").nth(0).click()
    b.locator("#ls-note-0").focus()
    a.locator("#lesson-mine .lesson-pick").nth(0).click()
    a.fill("#lesson-title", "From A, edited")
    expect(b.locator("#lesson-mine .ll-title")).to_have_text(["From A, edited", "From B"])
    expect(b.locator("#lesson-title")).to_have_value("From A, edited")
    expect(b.locator("#ls-note-0")).to_be_focused()
    # B's next save of that lesson keeps A's edit; of its own lesson, leaves A's alone
    b.locator("#ls-note-0").fill("B's note on A's lesson")
    b.locator("#lesson-mine .lesson-pick").nth(1).click()
    b.fill("#ls-note-0", "a note written in B")
    reload(a)
    lessons_tab(a)
    expect(a.locator("#lesson-mine .ll-title")).to_have_text(["From A, edited", "From B"])
    a.locator("#lesson-mine .lesson-pick").nth(0).click()
    expect(a.locator("#lesson-title")).to_have_value("From A, edited")
    expect(a.locator("#ls-note-0")).to_have_value("B's note on A's lesson")
    a.locator("#lesson-mine .lesson-pick").nth(1).click()
    expect(a.locator("#ls-note-0")).to_have_value("a note written in B")
    # a delete in A is a delete in B (B's next save does not bring it back)
    a.locator("#lesson-mine .lesson-pick").nth(0).click()
    a.click("#lesson-delete")
    expect(b.locator("#lesson-mine .ll-title")).to_have_text(["From B"])
    b.locator("#lesson-mine .lesson-pick").nth(0).click()
    b.fill("#ls-note-0", "edited again in B")
    reload(a)
    lessons_tab(a)
    expect(a.locator("#lesson-mine .ll-title")).to_have_text(["From B"])
    b.close()
    probe.assert_clean()


def test_a_full_storage_says_so_and_keeps_the_lesson_in_the_page(probe: PageProbe) -> None:
    page = probe.open(frag(input="https://example.com/", view="lessons"))
    expect(page.locator("#lesson-examples .lesson-pick")).to_have_count(3)
    page.evaluate("""() => {
      const set = Storage.prototype.setItem;
      Storage.prototype.setItem = function (k, v) {
        if (String(k).startsWith("urlcalc.lesson:")) {
          throw new DOMException("full", "QuotaExceededError");
        }
        return set.call(this, k, v);
      };
    }""")
    page.click("#lesson-new")
    msg = page.locator("#lesson-message")
    expect(msg).to_have_class("lesson-message bad")
    expect(msg).to_contain_text("is not saved in this browser")
    expect(msg).to_contain_text("QuotaExceededError")
    expect(msg).to_contain_text("export it")
    expect(page.locator("#lesson-mine .lesson-pick")).to_have_count(1)
    expect(page.locator("#lesson-mine .ll-unsaved")).to_have_count(1)
    # still editable, and exportable, in the page
    page.fill("#lesson-title", "Kept in the page")
    expect(page.locator("#lesson-mine .ll-title")).to_have_text("Kept in the page")
    with page.expect_download() as d:
        page.click("#lesson-export")
    assert json.loads(Path(d.value.path()).read_text(encoding="utf-8"))["title"] == \
        "Kept in the page"
    probe.assert_clean()


def settle(page: Any, url: str) -> None:
    """Type `url`, wait for its answer, press Enter: the tape records it."""
    page.fill("#input", url)
    expect(page.locator("#href-view")).to_have_text(url)
    page.locator("#input").press("Enter")


def test_the_paper_tape_survives_a_reload_and_clear_can_be_undone(probe: PageProbe) -> None:
    page = probe.open(frag(input="https://example.com/"))
    tape = page.locator("#tape .tape-entry")
    for k in range(3):
        settle(page, f"https://example.com/{k}")
    expect(tape).to_have_count(3)
    reload(page)
    expect(tape).to_have_count(3)
    expect(tape.first.locator(".t-in")).to_have_text("https://example.com/2")
    # Clear, then Undo from the keyboard (the focus is on Undo)
    page.click("#tape-clear")
    expect(tape).to_have_count(0)
    expect(page.locator("#tape-cleared")).to_contain_text("Cleared 3 entries")
    expect(page.locator("#tape-undo")).to_be_focused()
    # the Undo outlives a reload, until something new is added
    reload(page)
    expect(tape).to_have_count(0)
    page.locator("#tape-undo").focus()
    page.keyboard.press("Enter")
    expect(tape).to_have_count(3)
    expect(page.locator("#tape-cleared")).to_have_count(0)
    # Clear, add something new: the Undo is over
    page.click("#tape-clear")
    settle(page, "https://example.com/new")
    expect(tape).to_have_count(1)
    expect(page.locator("#tape-undo")).to_have_count(0)
    probe.assert_clean()


def test_the_tape_says_when_its_oldest_entries_go(probe: PageProbe) -> None:
    page = probe.open(frag(input="https://example.com/"))
    full = [{"input": f"https://e.example/{i}", "base": "", "ok": True,
             "out": f"https://e.example/{i}"} for i in range(60)]
    page.evaluate("(v) => sessionStorage.setItem('urlcalc.tape', v)",
                  json.dumps({"entries": full, "dropped": 0}))
    reload(page)
    tape = page.locator("#tape .tape-entry")
    expect(tape).to_have_count(60)
    expect(page.locator("#tape-dropped")).to_have_count(0)
    settle(page, "https://example.com/61")
    settle(page, "https://example.com/62")
    expect(tape).to_have_count(60)
    expect(page.locator("#tape-dropped")).to_contain_text(
        "keeps the last 60 entries: 2 older entries were dropped")
    expect(tape.last.locator(".t-in")).to_have_text("https://e.example/2")
    reload(page)
    expect(page.locator("#tape-dropped")).to_contain_text("2 older entries were dropped")
    probe.assert_clean()
