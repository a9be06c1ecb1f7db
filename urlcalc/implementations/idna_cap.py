"""Which inputs the implementations that IDNA-encode hosts are not given: those whose host has a
label with more than MAX_IDNA_LABEL_NON_ASCII non-ASCII code points, or more than
MAX_IDNA_HOST_NON_ASCII in all. Punycode is quadratic in them (CPython's codec, which yarl falls
back to, took 2.9 s on one label of 4,000 CJK code points), and no host in use comes near the
caps (urlcalc.model.limits says why).

The host is found leniently, without parsing the URL (which is what the implementations
disagree on): after an optional scheme and any slashes or backslashes, up to the first ``/``,
``\\``, ``?`` or ``#``, after the last ``@``, percent-decoded, split at the dots IDNA knows
(``.``, U+3002, U+FF0E, U+FF61) and at ``:``. It over-counts rather than under-counts: the
opaque path of a non-special URL ("foo:…") is counted as if it were a host. Linear time."""

from __future__ import annotations

import re
from urllib.parse import unquote

from urlcalc.model.limits import MAX_IDNA_HOST_NON_ASCII, MAX_IDNA_LABEL_NON_ASCII

__all__ = ["host_non_ascii", "idna_cap_reason"]

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_AUTHORITY_END = re.compile(r"[/\\?#]")
_LABEL_SEPARATORS = re.compile("[.:\u3002\uff0e\uff61]")
_NEWLINES = {0x09: None, 0x0A: None, 0x0D: None}
_C0_SPACE = "".join(map(chr, range(0x21)))


def _host(text: str) -> str | None:
    """The host an implementation may IDNA-encode in ``text``, found leniently (above), or None
    when ``text`` is a path-relative reference (no host)."""
    s = text.translate(_NEWLINES).strip(_C0_SPACE)
    scheme = _SCHEME.match(s)
    rest = s[scheme.end():] if scheme else s
    if scheme is None and rest[:1] not in ("/", "\\"):
        return None
    rest = rest.lstrip("/\\")
    end = _AUTHORITY_END.search(rest)
    authority = rest[: end.start()] if end else rest
    return unquote(authority.rpartition("@")[2], errors="replace")


def host_non_ascii(text: str) -> tuple[int, int]:
    """(the most non-ASCII code points in one label, non-ASCII code points in all) of the host
    in ``text`` (0, 0 without a host). An undecodable percent-encoded byte counts as one."""
    host = _host(text)
    if not host or host.isascii():
        return 0, 0
    counts = [sum(1 for ch in label if ord(ch) > 0x7F)
              for label in _LABEL_SEPARATORS.split(host)]
    return max(counts), sum(counts)


def idna_cap_reason(name: str, codec: str, input: str, base: str | None) -> str | None:
    """Why the implementation ``name`` (whose IDNA is ``codec``) is not run on ``input``
    against ``base``, or None when it may be."""
    for in_base, text in ((False, input), (True, base)):
        if text is None:
            continue
        label, total = host_non_ascii(text)
        if label > MAX_IDNA_LABEL_NON_ASCII:
            what = (f"a label of the host has {label} non-ASCII code points, over "
                    f"{MAX_IDNA_LABEL_NON_ASCII}")
        elif total > MAX_IDNA_HOST_NON_ASCII:
            what = (f"the host has {total} non-ASCII code points, over "
                    f"{MAX_IDNA_HOST_NON_ASCII}")
        else:
            continue
        where = " (in the base)" if in_base else ""
        return (f"not run: {what}{where} ({name}'s IDNA, {codec}, is quadratic in them; no "
                f"host in use has so many: an A-label is at most 63 octets)")
    return None
