"""The facts the page shares with the Python package, written for the page from where they live.

The page needs a few of the package's facts before (or without) asking the engine: the getters,
the Setters lab's operations (the setters and the searchParams methods), the model's input
limits, the encodings and percent-encode sets its selects offer, the spec anchors of the trace's
algorithms. Python is the one source: ``python -m urlcalc.site.webfacts`` writes them as
``web/js/facts.js``, an ES module of ``export const`` declarations that every page module
imports; the file is committed (the page and the static export need no build step), and
tests/test_webfacts.py fails, naming this command, when the committed file differs from what
this module writes now.

The same command writes the one generated block of ``web/isolation-worker.js`` (the service
worker that makes a static export cross-origin isolated): ``HEADERS``, the headers it adds to
the page's navigations and worker scripts, from ``urlcalc.serving.app.SECURITY_HEADERS`` (what
``urlcalc serve`` sends), between its ``// BEGIN HEADERS`` and ``// END HEADERS`` lines.

``python -m urlcalc.site.webfacts --check`` says whether the files are current without writing them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from urlcalc.model import confusion, limits
from urlcalc.model import results as model
from urlcalc.site.files import SOURCE_WEB
from urlcalc.standard import encoding, host, percent, variants
from urlcalc.standard import steps as spec
from urlcalc.standard import url as api

__all__ = ["FACTS_JS", "ISOLATION_WORKER", "facts", "render", "render_worker"]

#: Where the generated module goes in a checkout.
FACTS_JS = SOURCE_WEB / "js" / "facts.js"
#: The service worker whose HEADERS block is generated.
ISOLATION_WORKER = SOURCE_WEB / "isolation-worker.js"
_BEGIN = "// BEGIN HEADERS"
_END = "// END HEADERS"

COMMAND = "python -m urlcalc.site.webfacts"

# The trace's short parser names (a step's "parser") and the url.bs algorithm the page links for
# them. The UTS #46 stages are cited on unicode.org; the page links url.bs's domain to ASCII
# (the domain parser), which calls them.
_ALGORITHM_OF_PARSER: dict[str, str] = {
    "url": "basic URL parser",
    **host.ALGORITHM_OF_PARSER,
    "uts46": "domain parser",
    "shorten": "shorten a url's path",
}


def _anchor(algorithm: str) -> str:
    return spec.algorithms()[algorithm].anchor


def _operation_algorithm(op: str) -> str:
    return op if op.startswith("searchParams.") else op + " setter"


def facts() -> list[tuple[str, object, str]]:
    """(name, value, where it comes from) for each constant of facts.js, in the file's order."""
    return [
        ("GETTERS", list(api.GETTERS),
         "urlcalc.standard.url.GETTERS: the URL API's getters, in order"),
        ("OPERATIONS", list(model.OPERATIONS),
         "urlcalc.model.results.OPERATIONS: what the Setters lab (the \"set\" request) applies"),
        ("MAX_INPUT_BYTES", limits.MAX_INPUT_BYTES,
         "urlcalc.model.limits.MAX_INPUT_BYTES: the longest input, base or value (UTF-8 bytes) a "
         "request may carry"),
        ("MAX_OPS", limits.MAX_OPS,
         "urlcalc.model.limits.MAX_OPS: the most operations of a \"set\" request"),
        ("MAX_COMPARED_CHARS", {"compare": limits.MAX_COMPARE_CHARS,
                                "implementations": limits.MAX_IMPLEMENTATIONS_CHARS,
                                "history": limits.MAX_HISTORY_CHARS},
         "urlcalc.model.limits.MAX_COMPARE_CHARS, MAX_IMPLEMENTATIONS_CHARS and "
         "MAX_HISTORY_CHARS: the longest input and base (code points) the \"compare\", "
         "\"implementations\" and \"history\" requests read"),
        ("MAX_AS_OF_COLUMNS", limits.MAX_AS_OF_COLUMNS,
         "urlcalc.model.limits.MAX_AS_OF_COLUMNS: the most columns of the URL Standard on a day "
         "a \"compare\" request adds (as_of)"),
        ("VARIANTS", [[v.name, v.commit[:7]] for v in variants.VARIANTS],
         "urlcalc.standard.variants.VARIANTS: the changes urlcalc can undo, [name, commit], in "
         "the table's order (the \"compare\" request's without)"),
        ("MAX_SURVEY_URLS", limits.MAX_SURVEY_URLS,
         "urlcalc.model.limits.MAX_SURVEY_URLS: the most URLs a \"survey\" request reads (the "
         "Survey view surveys at most this many in the page)"),
        ("MAX_SHOWN_CODE_POINTS", limits.MAX_SHOWN_CODE_POINTS,
         "urlcalc.model.limits.MAX_SHOWN_CODE_POINTS: how many code points of one string the "
         "page shows (input cells, href, getters, the paper tape, handouts); a note counts the "
         "rest"),
        ("MAX_SOCKET_MESSAGE_BYTES", limits.MAX_SOCKET_MESSAGE_BYTES,
         "urlcalc.model.limits.MAX_SOCKET_MESSAGE_BYTES: the largest request message (UTF-8 "
         "bytes) on the API's WebSocket; the relay sends larger ones by HTTP"),
        ("CONFUSION_CLASSES", [dict(c) for c in confusion.CONFUSION_CLASSES],
         "urlcalc.model.confusion.CONFUSION_CLASSES: the classes of a disagreement with the "
         "standard (id, name, definition), in the order they are tested"),
        ("NAIVE_CHECKS", [dict(c) for c in confusion.NAIVE_CHECKS],
         "urlcalc.model.confusion.NAIVE_CHECKS: the naive allowlist tests the allowed-host "
         "check tries (id, code, definition)"),
        ("ENCODINGS", list(encoding.ENCODING_NAMES),
         "urlcalc.standard.encoding.ENCODING_NAMES: the Encoding Standard's encodings, by name"),
        ("ENCODE_SETS", list(percent.ENCODE_SETS),
         "urlcalc.standard.percent.ENCODE_SETS: the percent-encode sets, by url.bs name"),
        ("PARSER_ANCHORS", {p: _anchor(a) for p, a in _ALGORITHM_OF_PARSER.items()},
         "a trace step's \"parser\" -> the url.bs anchor of its algorithm "
         "(urlcalc.standard.steps's step data; urlcalc.standard.host.ALGORITHM_OF_PARSER)"),
        ("OPERATION_ANCHORS", {op: _anchor(_operation_algorithm(op)) for op in model.OPERATIONS},
         "a Setters lab operation -> the url.bs anchor of its setter or method "
         "(urlcalc.standard.steps's step data)"),
    ]


def render() -> str:
    """The text of facts.js."""
    lines = [
        "// @ts-check",
        "// Generated by `" + COMMAND + "` (urlcalc/site/webfacts.py): do not edit. The page's",
        "// copy of facts that live in the Python package; tests/test_webfacts.py checks that this",
        "// file is what the generator writes now.",
    ]
    for name, value, source in facts():
        lines += ["", "// " + source, f"export const {name} = {_js(value)};"]
    return "\n".join(lines) + "\n"


def render_worker(text: str) -> str:
    """``text`` (the service worker's source) with its HEADERS block written from
    ``urlcalc.site.headers.SECURITY_HEADERS``. Raises ValueError if the block's markers are
    missing."""
    from urlcalc.site.headers import SECURITY_HEADERS

    start = text.find(_BEGIN)
    end = text.find(_END, start)
    if start < 0 or end < 0:
        raise ValueError(f"no {_BEGIN!r} ... {_END!r} block in the service worker")
    block = [
        f"{_BEGIN}: written by `{COMMAND}` from urlcalc.serving.app.SECURITY_HEADERS (what",
        "// `urlcalc serve` sends on every response); tests/test_webfacts.py checks it is current.",
        f"const HEADERS = {_js(dict(SECURITY_HEADERS))};",
        "",
    ]
    return text[:start] + "\n".join(block) + text[end:]


def _js(value: object) -> str:
    """A JSON literal (a JavaScript expression since ES2019), frozen when it is a container."""
    text = json.dumps(value, ensure_ascii=False, indent=2)
    return f"Object.freeze({text})" if isinstance(value, (list, dict)) else text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=FACTS_JS, help=f"default: {FACTS_JS}")
    parser.add_argument("--worker", type=Path, default=ISOLATION_WORKER,
                        help=f"the service worker whose HEADERS block is written (default: "
                             f"{ISOLATION_WORKER})")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if a file differs from what would be written; write nothing")
    args = parser.parse_args(argv)
    out: Path = args.out
    worker: Path = args.worker
    current = out.read_text(encoding="utf-8") if out.exists() else None
    current_worker = worker.read_text(encoding="utf-8")
    wanted = [(out, current, render()), (worker, current_worker, render_worker(current_worker))]
    status = 0
    for path, now, text in wanted:
        if args.check:
            if now != text:
                print(f"{path} is not current: run `{COMMAND}`", file=sys.stderr)
                status = 1
            else:
                print(f"{path} is current")
        elif now != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
        else:
            print(f"{path} is current")
    return status


if __name__ == "__main__":
    sys.exit(main())
