"""Where each part of a parsed URL came from: the input's code points coloured by the component
they ended up in (``spans``), the href in pieces (``href_spans``), and for each record field its
source (the input, the base URL, both or neither) and the normalisations the parser applied to it,
each with the spec step that made it (``provenance``).

Everything here reads the outline (urlcalc.standard.observer): the facts the parser's state
functions recorded at the branches that applied. No step number is written here.
"""

from __future__ import annotations

from urlcalc.model.shapes import HrefPiece, Normalisation, Provenance, Source, Span
from urlcalc.standard import steps as spec
from urlcalc.standard.host import host_serialize
from urlcalc.standard.observer import FactKind, OutlineEntry
from urlcalc.standard.parser import kept_indices
from urlcalc.standard.record import RECORD_FIELDS, URLRecord
from urlcalc.standard.serializer import record_json

# Which component each state's code points end up in (for the coloured input).
_STATE_COMPONENT = {
    "scheme start state": "scheme", "scheme state": "scheme", "authority state": "userinfo",
    "host state": "host", "hostname state": "host", "file host state": "host",
    "port state": "port", "path start state": "path", "path state": "path",
    "opaque path state": "path", "query state": "query", "fragment state": "fragment",
}
_DELIMITERS = {
    "scheme state": (":",), "host state": (":",),
    "hostname state": (":",), "path state": ("?", "#"), "opaque path state": ("?", "#"),
    "query state": ("#",), "path start state": ("?", "#"),
}


def spans(input: str, outline: list[OutlineEntry]) -> list[Span]:
    """Each code point of the original input with the component it ended up in (the last state
    that consumed it decides), as runs: [{"start", "end", "component"}]. ``outline`` holds every
    step of the parse (TraceRecorder.outline), however long the input and however short the
    trace, so every code point gets its component."""
    # Code points the parser never looks at: removed before the state machine runs (leading and
    # trailing C0 control or space, ASCII tab or newline), or skipped by "increase pointer by 1"
    # (the second slash of "//"): the latter are delimiters.
    comp: list[str] = ["removed"] * len(input)
    for i in kept_indices(input):
        comp[i] = "delimiter"
    n = len(input)
    last_at = -1
    for i, state, c, *_ in outline:
        if c is None or not 0 <= i < n:
            continue
        if c == "@" and state == "authority state":
            # url.bs: authority state, step 2.1: an "@" before the last one joins the
            # credentials (as "%40"); only the last one is the delimiter.
            comp[i] = "userinfo"
            last_at = i
        elif c in _DELIMITERS.get(state, ()):
            comp[i] = "delimiter"
        else:
            comp[i] = _STATE_COMPONENT.get(state, "delimiter")
    if last_at >= 0:
        comp[last_at] = "delimiter"
    # userinfo: username before the first ":", password after it
    seen_colon = False
    for i, c in enumerate(comp):
        if c == "userinfo":
            if input[i] == ":" and not seen_colon:
                seen_colon = True
                comp[i] = "delimiter"
            else:
                comp[i] = "password" if seen_colon else "username"
    runs: list[Span] = []
    for i, c in enumerate(comp):
        if runs and runs[-1]["component"] == c and runs[-1]["end"] == i:
            runs[-1]["end"] = i + 1
        else:
            runs.append({"start": i, "end": i + 1, "component": c})
    return runs




def href_spans(url: URLRecord) -> list[HrefPiece]:
    """The href as a list of {"text", "component"} pieces (url.bs: the URL serializer)."""
    pieces: list[HrefPiece] = [{"text": url.scheme, "component": "scheme"},
                                    {"text": ":", "component": "delimiter"}]
    if url.host is not None:
        pieces.append({"text": "//", "component": "delimiter"})
        if url.username or url.password:
            pieces.append({"text": url.username, "component": "username"})
            if url.password:
                pieces.append({"text": ":", "component": "delimiter"})
                pieces.append({"text": url.password, "component": "password"})
            pieces.append({"text": "@", "component": "delimiter"})
        pieces.append({"text": host_serialize(url.host), "component": "host"})
        if url.port is not None:
            pieces.append({"text": ":", "component": "delimiter"})
            pieces.append({"text": str(url.port), "component": "port"})
    if isinstance(url.path, list) and url.host is None and len(url.path) > 1 \
            and url.path[0] == "":
        pieces.append({"text": "/.", "component": "path"})
    path = url.path if isinstance(url.path, str) else "".join("/" + s for s in url.path)
    pieces.append({"text": path, "component": "path"})
    if url.query is not None:
        pieces.append({"text": "?", "component": "delimiter"})
        pieces.append({"text": url.query, "component": "query"})
    if url.fragment is not None:
        pieces.append({"text": "#", "component": "delimiter"})
        pieces.append({"text": url.fragment, "component": "fragment"})
    return [p for p in pieces if p["text"]]


# The steps that copy a field from the base URL (url.bs: basic URL parser).


def _norm(what: str, algorithm: str, step: str | None) -> Normalisation:
    """A normalisation and the step that made it (which must be a step of url.bs)."""
    cited = spec.cite(algorithm, step)
    return {"what": what, "step": "url.bs: " + spec.label(algorithm, step),
            "anchor": cited["anchor"], "algorithm": algorithm, "step_id": step,
            "text": cited["text"]}


#: Normalisations said each time the parser made them (a dot segment, a shortening); the others
#: are said once per field and step however often they applied (a percent-encoding, once per
#: code point).
_EACH_TIME = frozenset({FactKind.SINGLE_DOT_DROPPED.value, FactKind.SINGLE_DOT_EMPTY_SEGMENT.value})
_BACKSLASH = "\\ read as /"


def _host_what(kind: str, host_text: str) -> str:
    """What the host parser did to the input's host, by the kind of host it returned."""
    if kind == "ipv4":
        return "IPv4 address parsed and serialized in dotted decimal (IPv4 parser)"
    if kind == "ipv6":
        return "IPv6 address serialized: lowercase, zeros compressed (IPv6 serializer)"
    if kind == "domain":
        if "%" in host_text:
            return "percent-decoded, then domain to ASCII"
        if host_text.isascii():
            return "ASCII lowercased (domain parser)"
        return "domain to ASCII: UTS #46 mapping, normalization, Punycode"
    return "percent-encoded (C0 control percent-encode set, opaque-host parser)"


def provenance(input: str, result: URLRecord, outline: list[OutlineEntry],
               spans: list[Span]) -> list[Provenance]:
    """For each record field: did it come from the input, from the base, or neither, and which
    normalisations the parser applied to it (with the spec step responsible). ``outline``: every
    step of the parse (TraceRecorder.outline)."""
    source: dict[str, Source] = {f: "none" for f in RECORD_FIELDS}
    norms: dict[str, list[Normalisation]] = {f: [] for f in RECORD_FIELDS}
    said: set[tuple[str, str, str, str | None]] = set()

    def say(field: str, what: str, algorithm: str, step: str | None) -> None:
        key = (field, what, algorithm, step)
        if what not in _EACH_TIME:
            if key in said:
                return
            said.add(key)
        norms[field].append(_norm(what, algorithm, step))

    host_set: tuple[str, str] | None = None
    empty_path = False
    lowercased: list[tuple[str, str]] = []
    for entry in outline:
        state = entry.state
        from_base: set[str] = set()
        for fact in entry.facts:
            if fact.kind is FactKind.FROM_BASE:
                from_base.update(fact.fields)
            elif fact.kind is FactKind.FROM_INPUT:
                from_base.difference_update(fact.fields)
            elif fact.kind is FactKind.HOST_PARSED:
                host_set = (state, fact.step)
            else:
                empty_path = empty_path or fact.kind is FactKind.SPECIAL_EMPTY_PATH
                if fact.kind is FactKind.SCHEME_LOWERCASED:
                    # counts only if the buffer becomes the scheme (scheme state step 3 starts
                    # over without one): see below
                    lowercased.append((state, fact.step))
                    continue
                for field in fact.fields:
                    say(field, fact.kind.value, state, fact.step)
        for field in entry.changed:
            if field in from_base:
                source[field] = "base" if source[field] in ("none", "base") else "input+base"
            elif field == "path" and source[field] == "base":
                source[field] = "input+base"
            elif source[field] in ("none", "input"):
                source[field] = "input"
        for error in entry.errors:
            if error.name == "invalid-reverse-solidus":
                say("path" if "path" in state else "scheme", _BACKSLASH, error.algorithm,
                    error.step)
        for _ in range(entry.shortened):
            what = ("a double-dot segment removes the last segment (shorten the path)"
                    if state == "path state" else
                    "the base's last path segment removed (shorten the path)")
            norms["path"].append(_norm(what, state, entry.step))
    if source["scheme"] == "input":
        for state, step in lowercased:
            say("scheme", FactKind.SCHEME_LOWERCASED.value, state, step)
    rec = record_json(result)
    host = rec["host"]
    if host is not None and source["host"] == "input" and host_set is not None:
        host_text = "".join(input[s["start"]:s["end"]] for s in spans if s["component"] == "host")
        if host["kind"] != "empty" and host_text != host["serialized"]:
            say("host", _host_what(host["kind"], host_text), *host_set)
    if any(s["component"] == "port" for s in spans):
        source["port"] = "input"
    if empty_path and source["path"] == "input":  # the path is the empty segment it appended
        source["path"] = "none"
    return [{"component": f, "source": source[f], "normalised": norms[f], "value": rec[f]}
            for f in RECORD_FIELDS]
