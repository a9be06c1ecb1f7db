"""The urlcalc command."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys

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
    assert "scheme start state step 1" in out


def test_parse_failure_exit_status_and_stderr() -> None:
    code, _, err = run("parse", "https://example.org:7z")
    assert code == 1
    assert err.startswith("failure: port-invalid at index 21 in the port state")


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
    assert code == 0 and "unchanged: scheme state, step 2.1.1" in out
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


def test_python_dash_m() -> None:
    p = subprocess.run([sys.executable, "-m", "urlcalc", "parse", "https://x"],
                       capture_output=True, text=True, check=False)
    assert p.returncode == 0 and "https://x/" in p.stdout
