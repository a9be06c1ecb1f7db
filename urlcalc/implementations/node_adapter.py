"""The implementations that run under node: npm ``whatwg-url`` (the URL Standard's reference
implementation) and Node's own ``URL`` (Ada inside, since Node 18).

Both live in one long-lived helper process (node_helper.mjs), started on first use and kept for
the life of this process: JSON lines over stdin/stdout, answered in order and matched by id, each
within ``TIMEOUT_S`` or the helper is killed. ``parse_soon(input, base)`` sends a request ahead:
the implementations model asks node first and reads the other implementations while node
answers (``_parse`` then takes the answer). A missing node, a
missing whatwg-url bundle, a helper that crashed or hung: each is a clear "not available" in
the model, never an exception; a dead helper is restarted at most once per ``RETRY_S``.

whatwg-url is imported from the ES module bundle the page uses (web/js/vendor/whatwg-url.mjs,
built by ``make npm`` from web/node_modules), so the page and the server run the same build.
In Pyodide there is no node: both are "not available" there (the page runs whatwg-url itself).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import queue
import shutil
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from urlcalc.implementations.base import (
    IN_PYODIDE,
    SERVER_ONLY,
    Implementation,
    Reading,
    Unavailable,
)
from urlcalc.standard.url import GETTERS

if TYPE_CHECKING:  # imported when used: Pyodide has no subprocess support
    import subprocess

HELPER = Path(__file__).resolve().with_name("node_helper.mjs")
#: Where the page's build puts the whatwg-url bundle, relative to the web folder.
WHATWG_URL_BUNDLE = Path("js") / "vendor" / "whatwg-url.mjs"
#: Seconds to wait for the helper's first line, and for each answer.
START_TIMEOUT_S = 10.0
TIMEOUT_S = 2.0
#: After a failure, the helper is not started again for this long (no spawn per request).
RETRY_S = 10.0
#: The helper refuses longer lines; the model's own limit keeps requests far below it.
MAX_LINE = 256 * 1024


def web_dir() -> Path:
    """The page's folder, as the server finds it (urlcalc.site.files.locate: $URLCALC_WEB_DIR, a
    checkout's web/, or the copy inside the installed package)."""
    from urlcalc.site.files import locate

    return locate().web


def bundle_path() -> Path:
    return web_dir() / WHATWG_URL_BUNDLE


class _Answers:
    """One helper process's answers, by request id (filled by its pump thread)."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.by_id: dict[int, dict[str, Any]] = {}
        self.ended = False  # the process's output ended


# Answers nobody took (a caller that sent ahead and then failed) are dropped beyond this many.
MAX_UNTAKEN = 64


class NodeHelper:
    """The helper process: ``ask(request)`` returns its answer, or raises HelperError;
    ``send(request)`` sends it now and returns a ticket for ``receive``."""

    def __init__(self, node: str | None = None, bundle: Path | None = None) -> None:
        self.node = node
        self.bundle = bundle
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._answers = _Answers()
        self._next_id = 0
        self.hello: dict[str, Any] | None = None
        self.error: str | None = None
        self._failed_at = 0.0

    # --- process -------------------------------------------------------------------------------

    def _start(self) -> None:
        node = self.node or shutil.which("node")
        if node is None:
            raise HelperError("node is not on PATH")
        bundle = self.bundle or bundle_path()
        import subprocess

        try:
            proc = subprocess.Popen(
                [node, str(HELPER), str(bundle)], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                encoding="utf-8", bufsize=1)
        except OSError as e:
            raise HelperError(f"cannot start node: {e}") from None
        lines: queue.Queue[str | None] = queue.Queue()
        answers = _Answers()
        threading.Thread(target=_pump, args=(proc, lines, answers), name="urlcalc-node-helper",
                         daemon=True).start()
        self._proc, self._lines, self._answers = proc, lines, answers
        first = self._read(START_TIMEOUT_S, START_TIMEOUT_S)
        try:
            hello = json.loads(first)["hello"]
        except (ValueError, KeyError, TypeError):
            self._kill()
            raise HelperError(f"the node helper said {first[:200]!r}") from None
        self.hello = hello

    def _read(self, timeout: float, limit: float) -> str:
        """The helper's next line that is not an answer (its hello), waiting at most
        ``timeout`` s (what is left of ``limit``)."""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            self._kill()
            raise HelperError(f"the node helper did not answer within {limit:g} s") from None
        if line is None:  # end of its output: it exited, or is exiting
            self._exited()
        return line

    def _exited(self) -> NoReturn:
        code = None
        proc = self._proc
        if proc is not None:
            try:
                code = proc.wait(timeout=1)
            except Exception:  # still running (closed its stdout): killed below
                code = None
        self._kill()
        raise HelperError(f"the node helper exited (status {code})")

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        import subprocess

        try:
            proc.kill()
            proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    def close(self) -> None:
        with self._lock:
            self._kill()

    # --- requests ------------------------------------------------------------------------------

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        return self.receive(self.send(request))

    def send(self, request: dict[str, Any]) -> tuple[_Answers, int]:
        """Write the request to the helper (started if need be); the ticket for receive()."""
        with self._lock:
            if self._proc is None:
                if self.error is not None and time.monotonic() - self._failed_at < RETRY_S:
                    raise HelperError(self.error)
                try:
                    self._start()
                except HelperError as e:
                    self._fail(str(e))
                    raise
            assert self._proc is not None and self._proc.stdin is not None
            self._next_id += 1
            ident = self._next_id
            # ensure_ascii: a raw U+2028 or newline cannot split the line; lone surrogates
            # travel as \udXXX escapes (JavaScript strings can hold them too).
            line = json.dumps({**request, "id": ident}, ensure_ascii=True)
            if len(line) > MAX_LINE:
                raise HelperError(f"request over {MAX_LINE} characters")
            try:
                self._proc.stdin.write(line + "\n")
                self._proc.stdin.flush()
            except OSError as e:
                self._kill()
                self._fail(f"the node helper is gone ({e})")
                raise HelperError(self.error or "") from None
            return self._answers, ident

    def receive(self, ticket: tuple[_Answers, int]) -> dict[str, Any]:
        """The answer to a request sent, within TIMEOUT_S of now, or HelperError."""
        answers, ident = ticket
        deadline = time.monotonic() + TIMEOUT_S
        with answers.cond:
            while ident not in answers.by_id and not answers.ended:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                answers.cond.wait(left)
            answer = answers.by_id.pop(ident, None)
            ended = answers.ended
        if answer is not None:
            self.error = None
            return answer
        with self._lock:
            if self._answers is not answers:  # another caller has seen to it already
                raise HelperError(self.error or "the node helper is gone")
            try:
                if ended:
                    self._exited()
                self._kill()
                raise HelperError(f"the node helper did not answer within {TIMEOUT_S:g} s")
            except HelperError as e:
                self._fail(str(e))
                raise

    def _fail(self, reason: str) -> None:
        self.error = reason
        self._failed_at = time.monotonic()


class HelperError(Unavailable):
    """The helper cannot answer: its message is the "not available" reason."""


def _pump(proc: subprocess.Popen[str], lines: queue.Queue[str | None],
          answers: _Answers) -> None:
    """The helper's output: answers (lines with an id) to ``answers``, anything else (its hello)
    to ``lines``."""
    assert proc.stdout is not None
    try:
        for line in proc.stdout:
            try:
                answer = json.loads(line)
            except ValueError:
                answer = None
            if isinstance(answer, dict) and isinstance(answer.get("id"), int):
                with answers.cond:
                    answers.by_id[answer["id"]] = answer
                    while len(answers.by_id) > MAX_UNTAKEN:
                        del answers.by_id[min(answers.by_id)]
                    answers.cond.notify_all()
            else:
                lines.put(line)
    except (OSError, ValueError):
        pass
    with answers.cond:
        answers.ended = True
        answers.cond.notify_all()
    lines.put(None)


_helper: NodeHelper | None = None
_helper_lock = threading.Lock()


def helper() -> NodeHelper:
    """The process's one helper (created on first use, closed at exit)."""
    global _helper
    with _helper_lock:
        if _helper is None:
            _helper = NodeHelper()
            atexit.register(_helper.close)
        return _helper


def start_in_background() -> None:
    """Start the helper now, in a thread (the server's warm-up): the first Implementations
    request then does not wait for node to boot. A failure is kept as the "not available"
    reason, as on first use."""

    def start() -> None:
        with contextlib.suppress(HelperError):
            _unavailable("node")

    if not IN_PYODIDE:
        threading.Thread(target=start, name="urlcalc-node-helper-start", daemon=True).start()


def set_helper(new: NodeHelper | None) -> NodeHelper | None:
    """Replace the process's helper (tests: a missing node, a hung helper); returns the old."""
    global _helper
    with _helper_lock:
        old, _helper = _helper, new
        return old


# --- the two implementations ----------------------------------------------------------------------

_last: tuple[tuple[str, str | None], dict[str, Any]] | None = None
_last_lock = threading.Lock()
# This thread's request sent ahead by parse_soon: (key, helper, ticket)
_ahead = threading.local()


def parse_soon(input: str, base: str | None) -> None:
    """Send the helper's request for (input, base) now; the next _parse of it in this thread
    takes the answer. Nothing is sent where node is not available."""
    _ahead.request = None
    if IN_PYODIDE:
        return
    with _last_lock:
        if _last is not None and _last[0] == (input, base):
            return
    h = helper()
    try:
        _ahead.request = ((input, base), h, h.send({"op": "parse", "input": input, "base": base}))
    except HelperError:
        _ahead.request = None  # _parse asks again, and says why it is not available


def forget_soon() -> None:
    """Forget this thread's request sent ahead, if nothing took its answer (the answer, when it
    comes, is dropped with the oldest untaken ones)."""
    _ahead.request = None


def _parse(input: str, base: str | None) -> dict[str, Any]:
    """The helper's answer for (input, base): both implementations read it in one request,
    so the second one asked reuses it."""
    global _last
    key = (input, base)
    with _last_lock:
        if _last is not None and _last[0] == key:
            return _last[1]
    ahead = getattr(_ahead, "request", None)
    _ahead.request = None
    if ahead is not None and ahead[0] == key and ahead[1] is helper():
        answer = ahead[1].receive(ahead[2])
    else:
        answer = helper().ask({"op": "parse", "input": input, "base": base})
    with _last_lock:
        _last = (key, answer)
    return answer


def _reading(answer: dict[str, Any] | None) -> Reading:
    if not isinstance(answer, dict):
        return Reading.failed("the node helper gave no answer")
    if not answer.get("ok"):
        return Reading.failed(str(answer.get("error", "failure")))
    getters = answer.get("getters") or {}
    return Reading(ok=True, getters={g: str(getters.get(g, "")) for g in GETTERS})


def _unavailable(name: str) -> str | None:
    if IN_PYODIDE:
        return "needs node: " + SERVER_ONLY
    h = helper()
    try:
        if h.hello is None or h._proc is None:
            h.ask({"op": "parse", "input": "x:", "base": None})
    except HelperError as e:
        return str(e)
    hello = h.hello or {}
    if name == "whatwg-url" and not hello.get("whatwg_url"):
        return (f"whatwg-url is not built: {hello.get('whatwg_url_error') or 'no bundle'} "
                "(run `make npm`)")
    return None


def _hello(key: str) -> str | None:
    h = _helper
    if h is None or h.hello is None:
        return None
    value = h.hello.get(key)
    return str(value) if value else None


def _node_runtime() -> str:
    version = _hello("node")
    return f"node {version}" if version else "node"


def _read(name: str) -> Any:
    def read(input: str, base: str | None) -> Reading:
        return _reading(_parse(input, base).get(name))  # HelperError: not available

    return read


WHATWG_URL = Implementation(
    id="whatwg-url",
    name="whatwg-url",
    family="whatwg",
    runtime_kind="node",
    about="The URL Standard's reference implementation (npm whatwg-url, jsdom's URL): it "
    "follows the spec text closely and the standard's editors test changes against it. "
    "Differences from urlcalc are listed in tests/differential/known.py.",
    call="new URL(input, base) from whatwg-url",
    package="npm:whatwg-url",
    mapping={g: f"url.{g}" for g in GETTERS},
    no_notion={},
    unavailable=lambda: _unavailable("whatwg-url"),
    version=lambda: _hello("whatwg_url"),
    runtime=_node_runtime,
    read=_read("whatwg-url"),
    idna="tr46's JavaScript Punycode",
)

NODE = Implementation(
    id="node",
    name="Node.js URL",
    family="whatwg",
    runtime_kind="node",
    about="Node's own global URL class, which since Node 18 is Ada (C++) inside: what "
    "JavaScript on a server gets. A difference from the standard is a bug in this Ada version "
    "or a change of the standard since.",
    call="new URL(input, base) in node",
    package="node",
    mapping={g: f"url.{g}" for g in GETTERS},
    no_notion={},
    unavailable=lambda: _unavailable("node"),
    version=lambda: f"ada {_hello('ada')}" if _hello("ada") else None,
    runtime=_node_runtime,
    read=_read("node"),
    idna="Ada's C++ Punycode, in node",
)
