"""The page's pure JavaScript functions, unit-tested with Node's test runner: each
``tests/js/*.test.mjs`` file runs under ``node --test`` (see tests/js/README.md); a failing
``node:test`` case fails its pytest case, with node's report."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from required import missing

JS_TESTS = Path(__file__).resolve().parent / "js"
FILES = sorted(JS_TESTS.glob("*.test.mjs"))


def test_there_are_js_tests() -> None:
    assert {f.name for f in FILES} >= {"share.test.mjs", "diff.test.mjs", "anchors.test.mjs"}


@pytest.mark.parametrize("path", FILES, ids=[f.name for f in FILES])
def test_node_test_file(path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        missing("node is not on PATH: install Node >= 18 (the JS unit tests need it)")
    proc = subprocess.run([node, "--test", "--test-reporter=tap", str(path)], capture_output=True,
                          text=True, timeout=120, cwd=JS_TESTS)
    report = proc.stdout + proc.stderr
    assert proc.returncode == 0, report
    assert "# fail 0" in report and "# pass 0" not in report, report


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        missing("node is not on PATH: install Node >= 18 (the JS unit tests need it)")
    return node


def test_the_relay_and_the_page_read_the_servers_envelopes() -> None:
    """The server's envelopes (urlcalc.answers.answer.envelope, the socket's messages) as the
    server relay reads their head (headOf: from the first bytes) and the page their outcome
    (outcomeOf), in node; and the relay's socket limit is the server's."""
    import json
    import re

    from urlcalc.answers.answer import answer, envelope
    from urlcalc.serving.socket_api import MAX_SOCKET_MESSAGE_BYTES

    cases = [(7, "parse", {"input": "https://\u00e9x/\ud800"}),
             ("a\"\u00e9\\", "parse", {"input": "x", "encoding": "nope"}),
             (None, "nope", {}), (-2, "host", {"input": 1})]
    messages = [envelope(id_, *answer(kind, params)).decode("utf-8") for id_, kind, params in cases]
    script = (
        "import { headOf } from './web/js/workers/server-relay-worker.js';\n"
        "import { outcomeOf } from './web/js/engine/engine.js';\n"
        "const messages = JSON.parse(process.argv[1]);\n"
        "console.log(JSON.stringify(messages.map((m) => [headOf(m), outcomeOf(JSON.parse(m), "
        "'relay')])));\n")
    proc = subprocess.run([_node(), "--input-type=module", "-e", script, json.dumps(messages)],
                          capture_output=True, text=True, timeout=60, cwd=JS_TESTS.parent.parent)
    assert proc.returncode == 0, proc.stderr
    read = json.loads(proc.stdout)
    for (id_, kind, params), (head, outcome) in zip(cases, read, strict=True):
        status, body = answer(kind, params)
        assert head == {"id": id_, "status": status}
        expected = {"result": body} if status == 200 else {"error": body["error"]} \
            if status < 500 else {"askServer": True}
        assert outcome == expected
    relay = (JS_TESTS.parent.parent / "web/js/workers/server-relay-worker.js").read_text("utf-8")
    # the relay's limit is the server's, read from facts.js (written from urlcalc.model.limits)
    assert re.search(r'^import \{ MAX_SOCKET_MESSAGE_BYTES \} from "\.\./facts\.js";', relay,
                     re.M)
    assert f"export const MAX_SOCKET_MESSAGE_BYTES = {MAX_SOCKET_MESSAGE_BYTES};" in \
        (JS_TESTS.parent.parent / "web/js/facts.js").read_text("utf-8")
