"""The page's pure JavaScript functions, unit-tested with Node's test runner: each
``tests/js/*.test.mjs`` file runs under ``node --test`` (see tests/js/README.md); a failing
``node:test`` case fails its pytest case, with node's report."""

from __future__ import annotations

import json
import re
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


# --- Checked JavaScript: eslint and tsc (make lint) --------------------------------------------

WEB = JS_TESTS.parent.parent / "web"
#: The page's files, relative to web/ (issue 28): every module of web/js but the vendored bundles,
#: and the site's service worker. Each must start with ``// @ts-check`` and have 0 eslint and 0
#: tsc findings (`make lint` runs both tools over the same files).
CHECKED_JS = (
    "isolation-worker.js",
    *sorted(p.relative_to(WEB).as_posix() for p in (WEB / "js").rglob("*.js")
            if "vendor" not in p.relative_to(WEB).parts),
)
#: tsc's projects: the page (lib DOM) and the workers (lib WebWorker).
TSC_PROJECTS = ("tsconfig.json", "tsconfig.workers.json")
_TSC_ERROR = re.compile(r"^(?P<file>[^\s(][^(]*)\((?P<line>\d+),(?P<col>\d+)\): "
                        r"error (?P<code>TS\d+): (?P<message>.*)$", re.M)


def _web_tool(name: str) -> str:
    _node()
    tool = WEB / "node_modules" / ".bin" / name
    if not tool.exists():
        missing(f"{tool} is missing: run `make npm` (web/package.json's devDependencies)")
    return str(tool)


def _eslint_findings(*args: str, stdin: str | None = None) -> list[str]:
    """eslint's findings ("file:line rule message"), run from web/ with its flat config."""
    proc = subprocess.run([_web_tool("eslint"), "--format", "json", *args], input=stdin,
                          capture_output=True, text=True, timeout=300, cwd=WEB)
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr  # 2: a crash or a bad config
    return [f"{Path(r['filePath']).relative_to(WEB)}:{m.get('line')} {m.get('ruleId')} "
            f"{m['message']}" for r in json.loads(proc.stdout) for m in r["messages"]]


def _tsc_findings(project: Path) -> list[tuple[str, str]]:
    """tsc's errors in `project` (a tsconfig): (file relative to web/, "line: TSnnnn message")."""
    proc = subprocess.run([_web_tool("tsc"), "-p", str(project), "--noEmit", "--pretty", "false"],
                          capture_output=True, text=True, timeout=600, cwd=WEB)
    found = [((project.parent / m["file"]).resolve().relative_to(WEB.resolve()).as_posix(),
              f"{m['line']}: {m['code']} {m['message']}") for m in _TSC_ERROR.finditer(proc.stdout)]
    assert proc.returncode == 0 or found, proc.stdout + proc.stderr
    return found


def test_the_checked_files_say_so() -> None:
    assert len(set(CHECKED_JS)) == len(CHECKED_JS)
    for name in CHECKED_JS:
        assert (WEB / name).read_text(encoding="utf-8").startswith("// @ts-check\n"), name


def test_eslint_finds_nothing_in_the_checked_files() -> None:
    assert _eslint_findings(*CHECKED_JS) == []


def test_tsc_finds_nothing_in_the_checked_files() -> None:
    checked: set[str] = set()
    findings = []
    for project in TSC_PROJECTS:
        proc = subprocess.run([_web_tool("tsc"), "-p", project, "--listFilesOnly"],
                              capture_output=True, text=True, timeout=300, cwd=WEB)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        checked |= {Path(line).resolve().relative_to(WEB.resolve()).as_posix()
                    for line in proc.stdout.splitlines() if line.startswith(str(WEB))}
        findings += [f for f in _tsc_findings(WEB / project) if f[0] in CHECKED_JS]
    assert set(CHECKED_JS) <= checked, "not in any tsc project: " + \
        ", ".join(sorted(set(CHECKED_JS) - checked))
    assert findings == []


def test_eslint_and_tsc_findings_are_seen(tmp_path: Path) -> None:
    """The two checks above fail on a finding: an unused variable, a global made by a classic
    script, a type error."""
    found = _eslint_findings("--stdin", "--stdin-filename", "js/engine/probe.js",
                             stdin="const unused = 1;\nexport {};\n")
    assert len(found) == 1 and "no-unused-vars" in found[0], found
    found = _eslint_findings("--stdin", "--stdin-filename", "js/opened-from-file.js",
                             stdin='"use strict";\nfunction leaked() {}\n')
    assert any("no-implicit-globals" in f for f in found), found
    (tmp_path / "probe.js").write_text("// @ts-check\nconst n = 1;\nn.toUpperCase();\n",
                                       encoding="utf-8")
    (tmp_path / "tsconfig.json").write_text(json.dumps(
        {"extends": str(WEB / "tsconfig.json"), "include": ["probe.js"], "exclude": []}),
        encoding="utf-8")
    proc = subprocess.run([_web_tool("tsc"), "-p", str(tmp_path / "tsconfig.json"), "--noEmit",
                           "--pretty", "false"], capture_output=True, text=True, timeout=300,
                          cwd=WEB)
    found = [m["code"] for m in _TSC_ERROR.finditer(proc.stdout)]
    assert proc.returncode != 0 and found == ["TS2339"], proc.stdout
