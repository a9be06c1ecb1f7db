"""The urlcalc command."""

from __future__ import annotations

import io
import json
import os
import re
import socket
import subprocess
import sys

import pytest

from urlcalc.cli import main


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_parse_table() -> None:
    code, out, err = run("parse", "HTTP://EXAMPLE.com:80/a", "--trace")
    assert code == 0 and err == ""
    assert '  href      "http://example.com/a"' in out
    assert re.search(r"\n  port +null\n", out)  # the record's port: null is not ""
    assert "scheme start state, step 1: pointer=0" in out


@pytest.mark.parametrize("input", ["\thttp://a/", "http://a\n/", " http://a/ ", "http://a/\r",
                                   "\n\n", "http://a b/"])
def test_trace_and_explain_on_inputs_with_tabs_newlines_and_spaces(input: str) -> None:
    code, out, _ = run("parse", input, "--trace")
    assert code in (0, 1) and "trace:" in out
    if input.strip(" \t\n\r") != input:
        assert "basic URL parser, step 1.2: errors=invalid-URL-unit" in out
    code, out, _ = run("parse", input, "--explain")
    assert code in (0, 1)
    # each step that ran, by its number, in the spec's words
    assert "url.bs 1: If c is an ASCII alpha, append c, lowercased, to buffer, and set state " \
           "to scheme state." in out or input == "\n\n"


@pytest.mark.parametrize(("setter", "value"), [
    ("href", "\thttps://b/"), ("protocol", "ws\n"), ("username", " u "), ("password", "p\t"),
    ("host", "h\n:8"), ("hostname", "\th"), ("port", "8\t0"), ("pathname", " /p\n"),
    ("search", "?q\t"), ("hash", "#\nf"), ("searchParams.append", "a=\t")])
def test_set_trace_and_explain_with_tabs_and_newlines(setter: str, value: str) -> None:
    for flag in ("--trace", "--explain"):
        code, out, err = run("set", "https://a.com/x", setter, value, flag)
        assert code == 0, err
        assert f"{setter} = " in out
    if setter != "searchParams.append":
        assert f"{setter} setter" in out


def test_explain_prints_the_failing_steps_words() -> None:
    code, out, err = run("parse", "http://h:65536/", "--explain")
    assert code == 1
    assert "port state, step 2.1.2: pointer=14" in out
    assert "url.bs 2.1.2: If port is not a 16-bit unsigned integer, port-out-of-range " \
           "validation error, return failure. [error port-out-of-range; -> failure]" in out
    assert err.startswith("failure at index 14: port state, step 2.1.2: If port is not a")


def test_parse_failure_exit_status_and_stderr() -> None:
    code, _, err = run("parse", "https://example.org:7z")
    assert code == 1
    assert err.startswith("failure at index 21: port state, step 3: Otherwise, port-invalid "
                          "validation error, return failure. (port-invalid: ")


def test_parse_json_is_the_model() -> None:
    code, out, _ = run("parse", "/x", "--base", "https://a/b", "--json")
    assert code == 0 and json.loads(out)["getters"]["href"] == "https://a/x"


def test_encoding_override_and_bad_label() -> None:
    code, out, _ = run("parse", "https://x/?≡", "--encoding", "shift_jis", "--json")
    assert json.loads(out)["record"]["query"] == "%81%DF"
    code, _, err = run("parse", "x", "--encoding", "klingon")
    assert code == 2 and "klingon" in err


def test_set_host_validate() -> None:
    code, out, _ = run("set", "https://a.com/", "protocol", "mailto", "port", "8")
    assert code == 0 and "unchanged: protocol setter: the basic URL parser returned at " \
        "scheme state, step " \
        "2.1.1: If url's scheme is a special scheme and buffer is not a special scheme, then " \
        "return." in out
    assert "port: null -> 8" in out
    code, _, err = run("set", "https://a.com/", "port")
    assert code == 2 and "pairs" in err
    code, out, _ = run("host", "0x7f.1")
    assert code == 0 and '"127.0.0.1"' in out
    code, out, _ = run("validate", "https://a.com/ b")
    assert code == 1 and "invalid-URL-unit" in out
    assert run("validate", "https://a.com/b")[0] == 0


def test_compare() -> None:
    code, out, _ = run("compare", "HTTP://EXAMPLE.com:80/%7efoo")
    assert code == 0 and "rfc3986" in out and "current" in out
    code, out, _ = run("compare", "http://a/", "--json")
    assert json.loads(out)["kind"] == "compare"


def test_compare_with_a_file_base_says_unspecified() -> None:
    # issue 9: the 2012 draft's relative state copies the scheme of a null base: unspecified
    code, out, err = run("compare", "x", "--base", "file:///")
    assert code == 0 and not err
    assert "(unspecified)" in out and "w3c_2012: Relative state with a null base" in out
    code, out, _ = run("compare", "x", "--base", "file:///C:/a", "--json")
    w3c = next(e for e in json.loads(out)["editions"] if e["id"] == "w3c_2012")
    assert code == 0 and w3c["status"] == "unspecified"


def test_python_dash_m() -> None:
    p = subprocess.run([sys.executable, "-m", "urlcalc", "parse", "https://x"],
                       capture_output=True, text=True, check=False)
    assert p.returncode == 0 and "https://x/" in p.stdout


# --- issue 10: bad arguments and narrow terminals get a clear message, never a traceback ---------


def cli(*argv: str, env: dict[str, str] | None = None,
        timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "urlcalc", *argv], capture_output=True,
                          check=False, timeout=timeout,
                          env={**os.environ, **(env or {})})


@pytest.mark.parametrize(("argv", "words"), [
    (["--port", "99999"], "99999 is out of range"),
    (["--port", "65536"], "65536 is out of range"),
    (["--port", "-1"], "-1 is out of range"),
    (["--port", "http"], "not a port number"),
    (["--host", "256.1.1.1"], "'256.1.1.1' is not an IP address"),
    (["--host", "1.2.3"], "not an IP address"),
    (["--host", ""], "empty host"),
    (["--host", "no-such-host.invalid"], "cannot resolve 'no-such-host.invalid'"),
])
def test_serve_refuses_bad_addresses(argv: list[str], words: str) -> None:
    p = cli("serve", *argv)
    err = p.stderr.decode()
    assert p.returncode == 2, err
    assert words in err and "Traceback" not in err
    assert err.startswith("usage: urlcalc serve")


def test_serve_on_a_taken_port_or_a_foreign_address() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        p = cli("serve", "--port", str(port))
    err = p.stderr.decode()
    assert p.returncode == 2 and "Traceback" not in err, err
    assert f"urlcalc: error: cannot listen on 127.0.0.1 port {port}: " in err
    assert "in use" in err
    p = cli("serve", "--host", "192.0.2.1", "--port", "0")  # TEST-NET-1: not this machine's
    err = p.stderr.decode()
    assert p.returncode == 2 and "Traceback" not in err, err
    assert "cannot listen on 192.0.2.1 port 0: " in err


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_output_encoding_that_cannot_write_every_character(encoding: str) -> None:
    env = {"PYTHONIOENCODING": encoding}
    p = cli("parse", "http://ü/€\U0001f600", env=env)
    assert p.returncode == 0, p.stderr
    out = p.stdout.decode(encoding)
    assert '  input  "http://' in out
    assert '"http://xn--tda/%E2%82%AC%F0%9F%98%80"' in out  # the href is ASCII
    assert "\\u20ac" in out and "\\ud83d\\ude00" in out  # JSON escapes, as in the table's JSON
    assert "cannot write every character" in p.stderr.decode()
    p = cli("parse", "http://ü/€\U0001f600", "--json", env=env)
    assert p.returncode == 0
    model = json.loads(p.stdout.decode(encoding))  # still JSON
    assert model["input"] == "http://ü/€\U0001f600"
    assert model["getters"]["hostname"] == "xn--tda"
    p = cli("parse", "http://ü:99999/", env=env)  # a failure names the input on stderr
    assert p.returncode == 1 and "Traceback" not in p.stderr.decode()
    p = cli("set", "http://a/", "pathname", "ü", "--trace", env=env)
    assert p.returncode == 0 and "Traceback" not in p.stderr.decode()
    assert "/%C3%BC" in p.stdout.decode(encoding)


def test_utf8_output_is_not_escaped() -> None:
    p = cli("parse", "http://ü/", env={"PYTHONIOENCODING": "utf-8"})
    assert p.returncode == 0 and '"http://ü/"' in p.stdout.decode("utf-8")
    assert p.stderr == b""
