"""Unicode IDNA Compatibility Processing: UTS #46 sections 4 (Processing), 4.1 (Validity
Criteria), 4.2 (ToASCII) and 4.3 (ToUnicode), as of the Unicode 15.1+ text (revision 31 on).

The tables come from the ``idna`` package (the UTS #46 mapping table, joining types); NFC,
bidirectional classes, canonical combining classes and general categories from ``unicodedata2``
when it is installed, else the built-in ``unicodedata`` (Pyodide). Punycode (RFC 3492) is our
own O(n log n) coder, giving the results of Python's ``punycode`` codec where that follows the RFC,
and failing as soon as a variable-length integer overflows (RFC 3492 6.4).

Both entry points return ``(result, errors)``: the processed string is always produced, and an
empty error list means success. Errors are the status codes of the UTS #46 conformance file
IdnaTestV2.txt (UTS #46 section 6), each reported once, in the order first recorded:

``P4``    Processing step 4 (an "xn--" label: non-ASCII, undecodable, or decoding to an empty
          or all-ASCII label)
``V1``..``V7``  Validity criteria 4.1 steps 1-7 (``U1``: the UseSTD3ASCIIRules part of V7)
``C1``, ``C2``  CONTEXTJ (RFC 5892 Appendix A.1 ZWNJ, A.2 ZWJ)
``B1``..``B6``  the Bidi Rule (RFC 5893 section 2, conditions 1-6)
``A3``    ToASCII step 3 (Punycode encoding failed)
``A4_1``, ``A4_2``  ToASCII step 4 (DNS lengths of the domain and of a label)

Two readings of the text: with IgnoreInvalidPunycode, an "xn--" label that does not decode is
kept as it is, without error, and not validated further (UTS46 4 step 4.2 has no conversion
result to continue with); and with VerifyDnsLength an empty root label (a trailing dot) is left
out of the 253 limit of 4.2 step 4.1 but is an empty label for 4.2 step 4.2 (A4_2), as
IdnaTestV2 reports it (e.g. "a.b.c.d.").

Since Unicode 15.1 the mapping step no longer rejects anything (disallowed code points are left
in place and caught by V7), so ``P1`` is never recorded; nor is ``X4_2``, which IdnaTestV2 only
uses for the empty-label status of ToUnicode, an operation that has no length checks.
"""

from __future__ import annotations

import bisect
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final, TypeAlias

import idna.idnadata
import idna.uts46data

from urlcalc.standard.observer import counts_only

if TYPE_CHECKING:
    import unicodedata as _ucd
else:
    try:
        import unicodedata2 as _ucd
    except ImportError:  # Pyodide: no unicodedata2 wheel
        import unicodedata as _ucd

__all__ = ["IDNA_TABLES_VERSION", "UNICODE_VERSION", "StageObserver", "to_ascii", "to_unicode"]

StageObserver: TypeAlias = Callable[[str, dict[str, object]], None] | None

#: The Unicode version of the character database used for NFC, bidi classes and categories.
UNICODE_VERSION: Final[str] = str(_ucd.unidata_version)
#: The Unicode version of the UTS #46 mapping table shipped by ``idna``.
IDNA_TABLES_VERSION: Final[str] = str(
    getattr(idna.uts46data, "__version__", None)
    or getattr(idna.idnadata, "__version__", None)
    or "unknown"
)

# --------------------------------------------------------------------------------------------
# UTS #46 section 5, the IDNA Mapping Table
# --------------------------------------------------------------------------------------------

_VALID, _MAPPED, _DEVIATION, _IGNORED, _DISALLOWED = b"VMDIX"
_STATUS_NAMES: Final[dict[int, str]] = {
    _VALID: "valid",
    _MAPPED: "mapped",
    _DEVIATION: "deviation",
    _IGNORED: "ignored",
    _DISALLOWED: "disallowed",
}


def _load_table() -> tuple[list[int], bytes, tuple[str | None, ...]]:
    """The table as parallel sequences: range starts, one status letter and one mapping each."""
    data: Any = idna.uts46data  # its layout varies across idna releases
    if hasattr(data, "uts46_starts"):  # idna >= 3.11: compact arrays
        starts = [int(cp) for cp in data.uts46_starts]
        statuses = bytes(data.uts46_statuses)
        replacements = tuple(None if r is None else str(r) for r in data.uts46_replacements)
    else:  # older idna: a tuple of (code point, status[, mapping]) rows
        rows = data.uts46data
        starts = [int(row[0]) for row in rows]
        letters = bytearray()
        mapped: list[str | None] = []
        for row in rows:
            status = str(row[1])
            mapping = str(row[2]) if len(row) > 2 else None
            if status == "3":
                # disallowed_STD3_valid / disallowed_STD3_mapped (tables before Unicode 15.1):
                # UseSTD3ASCIIRules is a validity criterion now (UTS46 4.1 V7), so these are
                # plain valid / mapped code points.
                status = "V" if mapping is None else "M"
            letters += status.encode("ascii")
            mapped.append(mapping)
        statuses = bytes(letters)
        replacements = tuple(mapped)
    if not (len(starts) == len(statuses) == len(replacements)) or starts[0] != 0:
        raise ImportError("idna.uts46data has an unexpected layout")
    # Anything but V, M, D, I is treated as disallowed.
    known = frozenset(b"VMDI")
    statuses = bytes(s if s in known else _DISALLOWED for s in statuses)
    return starts, statuses, replacements


_STARTS, _STATUSES, _REPLACEMENTS = _load_table()


def _index(cp: int) -> int:
    return bisect.bisect_right(_STARTS, cp) - 1


def _status(cp: int) -> int:
    return _STATUSES[bisect.bisect_right(_STARTS, cp) - 1]


class _MapTable(dict[int, "str | None"]):
    """A ``str.translate`` table for the UTS46 4 step 1 Map, filled on first use per code point.

    ``None`` deletes (ignored); disallowed and valid code points map to themselves.
    """

    _LIMIT: Final = 1 << 16  # bound the memo on adversarial input

    def __init__(self, transitional: bool) -> None:
        super().__init__()
        self._transitional = transitional

    def __missing__(self, cp: int) -> str | None:
        i = _index(cp)
        status = _STATUSES[i]
        value: str | None
        if status == _MAPPED or (status == _DEVIATION and self._transitional):
            value = _REPLACEMENTS[i] or None
        elif status == _IGNORED:
            value = None
        else:  # valid, disallowed, or a deviation kept by nontransitional processing
            value = chr(cp)
        if len(self) < self._LIMIT:
            self[cp] = value
        return value


_MAP_NONTRANSITIONAL: Final = _MapTable(False)
_MAP_TRANSITIONAL: Final = _MapTable(True)

# The ASCII fast path relies on the table mapping A-Z to a-z and keeping the rest of ASCII valid.
_ASCII_TABLE_IS_LOWERCASING: Final[bool] = all(
    (_STATUSES[_index(cp)] == _MAPPED and _REPLACEMENTS[_index(cp)] == chr(cp + 32))
    if 0x41 <= cp <= 0x5A
    else _STATUSES[_index(cp)] == _VALID
    for cp in range(0x80)
)
# ASCII code points whose status is not valid (UTS46 4.1 V7), as a character class.
_ASCII_NOT_VALID_RE: Final = re.compile(
    "[" + "".join(re.escape(chr(cp)) for cp in range(0x80) if _STATUSES[_index(cp)] != _VALID) + "]"
    if any(_STATUSES[_index(cp)] != _VALID for cp in range(0x80))
    else r"(?!)"
)
# UTS46 4.1 V7 (UseSTD3ASCIIRules): ASCII other than a-z, 0-9 and U+002D.
_STD3_BAD_RE: Final = re.compile(r"[\x00-\x2c\x2e\x2f\x3a-\x60\x7b-\x7f]")
_SURROGATE_RE: Final = re.compile("[\ud800-\udfff]")

# --------------------------------------------------------------------------------------------
# Character properties
# --------------------------------------------------------------------------------------------

_VIRAMA: Final = 9  # Canonical_Combining_Class=Virama
_ZWNJ: Final = "\u200c"
_ZWJ: Final = "\u200d"

_RTL_CLASSES: Final = frozenset({"R", "AL", "AN"})
_RTL_FIRST: Final = frozenset({"R", "AL"})
# RFC 5893 section 2, conditions 2, 3, 5, 6.
_RTL_ALLOWED: Final = frozenset({"R", "AL", "AN", "EN", "ES", "CS", "ET", "ON", "BN", "NSM"})
_RTL_END: Final = frozenset({"R", "AL", "EN", "AN"})
_LTR_ALLOWED: Final = frozenset({"L", "EN", "ES", "CS", "ET", "ON", "BN", "NSM"})
_LTR_END: Final = frozenset({"L", "EN"})


@lru_cache(maxsize=1)
def _joining_table() -> tuple[list[int], list[int], list[str]]:
    """Joining_Type ranges from ``idna.idnadata`` (intranges: start << 32 | end), sorted."""
    ranges: list[tuple[int, int, str]] = []
    for jt, packed in idna.idnadata.joining_types.items():
        for value in packed:
            ranges.append((int(value) >> 32, int(value) & 0xFFFFFFFF, str(jt)))
    ranges.sort()
    return [r[0] for r in ranges], [r[1] for r in ranges], [r[2] for r in ranges]


def _joining_type(ch: str) -> str:
    starts, ends, types = _joining_table()
    cp = ord(ch)
    i = bisect.bisect_right(starts, cp) - 1
    if i >= 0 and cp < ends[i]:
        return types[i]
    return "U"  # Non_Joining


def _is_virama(ch: str) -> bool:
    return _ucd.combining(ch) == _VIRAMA


# Bidi_Class of unassigned code points (the @missing lines of DerivedBidiClass.txt, Unicode
# 15.1+): the character database reports "" for them. Unassigned code points are disallowed
# (V7) anyway; the defaults only keep the Bidi Rule's verdicts on such labels meaningful.
_MISSING_BIDI: Final[tuple[tuple[int, int, str], ...]] = (
    (0x0590, 0x05FF, "R"),
    (0x0600, 0x07BF, "AL"),
    (0x07C0, 0x085F, "R"),
    (0x0860, 0x08FF, "AL"),
    (0x20A0, 0x20CF, "ET"),
    (0xFB1D, 0xFB4F, "R"),
    (0xFB50, 0xFDCF, "AL"),
    (0xFDF0, 0xFDFF, "AL"),
    (0xFE70, 0xFEFF, "AL"),
    (0x10800, 0x10CFF, "R"),
    (0x10D00, 0x10D3F, "AL"),
    (0x10D40, 0x10EBF, "R"),
    (0x10EC0, 0x10EFF, "AL"),
    (0x10F00, 0x10F2F, "R"),
    (0x10F30, 0x10F6F, "AL"),
    (0x10F70, 0x10FFF, "R"),
    (0x1E800, 0x1EC6F, "R"),
    (0x1EC70, 0x1ECBF, "AL"),
    (0x1ECC0, 0x1ECFF, "R"),
    (0x1ED00, 0x1ED4F, "AL"),
    (0x1ED50, 0x1EDFF, "R"),
    (0x1EE00, 0x1EEFF, "AL"),
    (0x1EF00, 0x1EFFF, "R"),
)


def _missing_bidi(cp: int) -> str:
    # Noncharacters and default-ignorable code points default to BN.
    if (
        0xFDD0 <= cp <= 0xFDEF
        or (cp & 0xFFFE) == 0xFFFE
        or 0x2060 <= cp <= 0x206F
        or 0xFFF0 <= cp <= 0xFFF8
        or 0xE0000 <= cp <= 0xE0FFF
    ):
        return "BN"
    for first, last, value in _MISSING_BIDI:
        if first <= cp <= last:
            return value
    return "L"


def _bidi_class(ch: str) -> str:
    return _ucd.bidirectional(ch) or _missing_bidi(ord(ch))


def _has_rtl(label: str) -> bool:
    """A label with a character of Bidi_Class R, AL or AN (RFC 5893 section 1.4)."""
    if label.isascii():
        return False
    return any(_bidi_class(ch) in _RTL_CLASSES for ch in label)


# --------------------------------------------------------------------------------------------
# Punycode (RFC 3492)
# --------------------------------------------------------------------------------------------


# RFC 3492 5: the Bootstring parameters of Punycode.
_BASE: Final = 36
_TMIN: Final = 1
_TMAX: Final = 26
_SKEW: Final = 38
_DAMP: Final = 700
_INITIAL_BIAS: Final = 72
_INITIAL_N: Final = 0x80
_ENCODE_DIGITS: Final = "abcdefghijklmnopqrstuvwxyz0123456789"
# RFC 3492 5: A-Z and a-z are digits 0-25, 0-9 are 26-35.
_DIGIT_VALUES: Final[dict[str, int]] = {
    **{c: i for i, c in enumerate("abcdefghijklmnopqrstuvwxyz")},
    **{c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZ")},
    **{c: 26 + i for i, c in enumerate("0123456789")},
}
# Below this many code points, inserting into a Python list (a C memmove) beats the tree.
_SMALL_LABEL: Final = 512


def _adapt(delta: int, numpoints: int, first: bool) -> int:
    """RFC 3492 6.1, bias adaptation."""
    delta = delta // _DAMP if first else delta // 2
    delta += delta // numpoints
    k = 0
    while delta > ((_BASE - _TMIN) * _TMAX) // 2:
        delta //= _BASE - _TMIN
        k += _BASE
    return k + (_BASE - _TMIN + 1) * delta // (delta + _SKEW)


def _threshold(k: int, bias: int) -> int:
    """RFC 3492 6.2/6.3: t = k - bias, clamped to [tmin, tmax]."""
    t = k - bias
    return _TMIN if t < _TMIN else _TMAX if t > _TMAX else t


class _Counts:
    """A Fenwick tree of 0/1 marks over positions 0..size-1: prefix counts and "the k-th marked
    position" in O(log size), so that Punycode runs in O(n log n) rather than the O(n^2) of
    inserting into (or rescanning) a string for each code point."""

    __slots__ = ("size", "top", "tree")

    def __init__(self, size: int, marked: bool) -> None:
        self.size = size
        # all marked: node i covers (i - lowbit(i), i], so it holds lowbit(i)
        self.tree = [i & -i for i in range(size + 1)] if marked else [0] * (size + 1)
        self.tree[0] = 0
        self.top = 1 << (size.bit_length() - 1) if size else 0

    def add(self, position: int, value: int) -> None:
        tree, size = self.tree, self.size
        i = position + 1
        while i <= size:
            tree[i] += value
            i += i & -i

    def before(self, position: int) -> int:
        """How many marked positions are below ``position``."""
        tree = self.tree
        total = 0
        i = position
        while i > 0:
            total += tree[i]
            i -= i & -i
        return total

    def find(self, k: int) -> int:
        """The position of the k-th marked position (k counts from 1)."""
        tree, size = self.tree, self.size
        pos = 0
        step = self.top
        while step:
            nxt = pos + step
            if nxt <= size and tree[nxt] < k:
                pos = nxt
                k -= tree[nxt]
            step >>= 1
        return pos


# The domain parser runs ToASCII a second time, with beStrict false, when the strict run failed
# (url.bs: domain parser, steps 1 and 6.1); both runs would decode the same "xn--" labels. The
# decodings of the last long labels are kept here (labels and results together at most
# _DECODED_MAX_CHARS code points), so that the second run finds them.
_DECODED_MIN_LABEL: Final = 64
_DECODED_MAX_CHARS: Final = 1 << 18
_decoded: OrderedDict[str, str | None] = OrderedDict()
_decoded_chars = 0
_decoded_lock = threading.Lock()


def _punycode_decode(text: str) -> str | None:
    """RFC 3492 6.2 decoding of an ASCII string; ``None`` on failure.

    Bad digits and truncated variable-length integers fail; A-Z and a-z are the same digits
    (RFC 3492 5), and a code point above U+10FFFF fails, as in Python's ``punycode`` codec, whose
    results this reproduces in O(n log n) instead of O(n^2). Overflow (RFC 3492 6.4) is detected
    as soon as a variable-length integer can no longer give a code point, so the integers stay
    small and a long run of digits fails after a few of them."""
    global _decoded_chars
    if len(text) < _DECODED_MIN_LABEL:
        return _punycode_decode_label(text)
    with _decoded_lock:
        if text in _decoded:
            _decoded.move_to_end(text)
            return _decoded[text]
    result = _punycode_decode_label(text)
    size = len(text) + (len(result) if result is not None else 0)
    if size <= _DECODED_MAX_CHARS:
        with _decoded_lock:
            if text not in _decoded:
                _decoded[text] = result
                _decoded_chars += size
                while _decoded_chars > _DECODED_MAX_CHARS:
                    old, old_result = _decoded.popitem(last=False)
                    _decoded_chars -= len(old) + (len(old_result) if old_result is not None
                                                  else 0)
    return result


def _punycode_decode_label(text: str) -> str | None:
    """``_punycode_decode`` without the memo."""
    # RFC 3492 6.2: the last delimiter is consumed only when basic code points precede it; a
    # leading one is otherwise read as a digit, and "-" is not a digit. (Python's codec would
    # skip it, so "-bbk" would decode like "bbk".)
    delimiter = text.rfind("-")
    if delimiter == 0:
        return None
    basic = text[:delimiter] if delimiter > 0 else ""
    extended = text[delimiter + 1:] if delimiter > 0 else text
    # RFC 3492 6.2: first the insertions (position in the output at that time, code point);
    # the code points only depend on the output's length, not on its content.
    n, i, bias = _INITIAL_N, 0, _INITIAL_BIAS
    length = len(basic)
    positions: list[int] = []
    code_points: list[int] = []
    index, end = 0, len(extended)
    values = _DIGIT_VALUES
    while index < end:
        oldi, w, k = i, 1, _BASE
        # RFC 3492 6.4, overflow handling: i only grows while this integer is read, and the code
        # point it inserts is n + i // (length + 1); from ``limit`` on that is above U+10FFFF,
        # so the decoding fails there (where Python's codec, with unbounded integers, reads
        # every digit first: quadratic time on a long run of digits). w is capped at ``limit``:
        # any non-zero digit then overflows, and a zero digit ends the integer as before.
        limit = (0x110000 - n) * (length + 1)
        while True:
            if index >= end:
                return None  # truncated variable-length integer
            digit = values.get(extended[index])
            index += 1
            if digit is None:
                return None
            i += digit * w
            if i >= limit:
                return None  # RFC 3492 6.4: overflow
            t = _TMIN if k <= bias + _TMIN else _TMAX if k >= bias + _TMAX else k - bias
            if digit < t:
                break
            w *= _BASE - t
            if w > limit:
                w = limit
            k += _BASE
        length += 1
        bias = _adapt(i - oldi, length, oldi == 0)
        n += i // length
        if n > 0x10FFFF:
            return None
        i %= length
        positions.append(i)
        code_points.append(n)
        i += 1
    if length <= _SMALL_LABEL:
        out = list(basic)
        for position, cp in zip(positions, code_points, strict=True):
            out.insert(position, chr(cp))
        return "".join(out)
    # Place the insertions last to first: the one made at position p of an output that later
    # insertions only grew takes the (p+1)-th slot still free; the basic code points fill the
    # slots left over, in order.
    slots: list[str] = [""] * length
    free = _Counts(length, marked=True)
    for position, cp in zip(reversed(positions), reversed(code_points), strict=True):
        slot = free.find(position + 1)
        slots[slot] = chr(cp)
        free.add(slot, -1)
    rest = iter(basic)
    return "".join(ch if ch else next(rest) for ch in slots)


def _punycode_encode(label: str) -> tuple[str, bool]:
    """RFC 3492 6.3 encoding; returns (ASCII result, ok). Not ok for surrogate code points,
    which are not Unicode scalar values (IdnaTestV2 expects A3 for them).

    The same output as Python's ``punycode`` codec, in O(n log n): the count of code points below
    the current one between two of its occurrences comes from a Fenwick tree, not a rescan."""
    ok = _SURROGATE_RE.search(label) is None
    basic = "".join(ch for ch in label if ch < "\x80")
    out: list[str] = [basic + "-"] if basic else []
    # the positions of each non-basic code point, in input order
    occurrences: dict[int, list[int]] = {}
    for position, ch in enumerate(label):
        if ch >= "\x80":
            occurrences.setdefault(ord(ch), []).append(position)
    size = len(label)
    below = _Counts(size, marked=False)  # the positions holding a code point below n
    for position, ch in enumerate(label):
        if ch < "\x80":
            below.add(position, 1)
    n, delta, bias = _INITIAL_N, 0, _INITIAL_BIAS
    h = b = len(basic)
    digits = _ENCODE_DIGITS
    marked = b  # how many positions are marked in ``below``
    for m in sorted(occurrences):
        delta += (m - n) * (h + 1)
        n = m
        # RFC 3492 6.3: scan the input; each code point below n counts towards delta. Between
        # two occurrences of n that is the difference of two prefix counts (an occurrence of n
        # itself is not marked, so the count below it is also the count below the next
        # position).
        previous = 0
        for position in occurrences[m]:
            here = below.before(position)
            delta += here - previous
            previous = here
            q, k = delta, _BASE
            while True:
                t = _threshold(k, bias)
                if q < t:
                    break
                out.append(digits[t + (q - t) % (_BASE - t)])
                q = (q - t) // (_BASE - t)
                k += _BASE
            out.append(digits[q])
            bias = _adapt(delta, h + 1, h == b)
            delta = 0
            h += 1
        delta += marked - previous
        for position in occurrences[m]:
            below.add(position, 1)
        marked += len(occurrences[m])
        delta += 1
        n += 1
    return "".join(out), ok


# --------------------------------------------------------------------------------------------
# UTS46 4.1 Validity Criteria
# --------------------------------------------------------------------------------------------


def _check_hyphens(label: str, failed: list[str]) -> None:
    # UTS46 4.1 V2: no U+002D in both the third and fourth positions.
    if label[2:4] == "--":
        failed.append("V2")
    # UTS46 4.1 V3: must neither begin nor end with U+002D.
    if label[0] == "-" or label[-1] == "-":
        failed.append("V3")


def _check_joiners(label: str, failed: list[str]) -> None:
    """UTS46 4.1 step 8 (CheckJoiners): the CONTEXTJ rules of RFC 5892 Appendix A."""
    for pos, ch in enumerate(label):
        if ch == _ZWNJ:
            # RFC 5892 A.1: If Canonical_Combining_Class(Before(cp)) .eq. Virama Then True;
            if pos > 0 and _is_virama(label[pos - 1]):
                continue
            # If RegExpMatch((Joining_Type:{L,D})(Joining_Type:T)*\u200C
            #                (Joining_Type:T)*(Joining_Type:{R,D})) Then True;
            # (walked by index: slicing the label at every joiner would be quadratic)
            before = "U"
            for j in range(pos - 1, -1, -1):
                before = _joining_type(label[j])
                if before != "T":
                    break
            after = "U"
            for j in range(pos + 1, len(label)):
                after = _joining_type(label[j])
                if after != "T":
                    break
            if before not in ("L", "D") or after not in ("R", "D"):
                failed.append("C1")
        # RFC 5892 A.2 (ZWJ): If Canonical_Combining_Class(Before(cp)) .eq. Virama Then True;
        elif ch == _ZWJ and not (pos > 0 and _is_virama(label[pos - 1])):
            failed.append("C2")


def _check_bidi(label: str, failed: list[str]) -> None:
    """UTS46 4.1 step 9 (CheckBidi, in a Bidi domain name): RFC 5893 section 2, rules 1-6."""
    classes = [_bidi_class(ch) for ch in label]
    first = classes[0]
    # RFC 5893 2 rule 1: the first character must be L, R or AL; R/AL make an RTL label.
    if first in _RTL_FIRST:
        rtl = True
    elif first == "L":
        rtl = False
    else:
        failed.append("B1")
        # Judge the rest by the label's content, so that e.g. "1" only breaks rule 1.
        rtl = any(c in _RTL_CLASSES for c in classes)
    # The last character that is not NSM (rules 3 and 6).
    end = ""
    for c in reversed(classes):
        if c != "NSM":
            end = c
            break
    if rtl:
        # Rule 2: only R, AL, AN, EN, ES, CS, ET, ON, BN, NSM.
        if any(c not in _RTL_ALLOWED for c in classes):
            failed.append("B2")
        # Rule 3: ends with R, AL, EN or AN, then zero or more NSM.
        if end not in _RTL_END:
            failed.append("B3")
        # Rule 4: EN and AN must not both be present.
        if "EN" in classes and "AN" in classes:
            failed.append("B4")
    else:
        # Rule 5: only L, EN, ES, CS, ET, ON, BN, NSM.
        if any(c not in _LTR_ALLOWED for c in classes):
            failed.append("B5")
        # Rule 6: ends with L or EN, then zero or more NSM.
        if end not in _LTR_END:
            failed.append("B6")


def _validate(
    label: str,
    *,
    check_hyphens: bool,
    check_joiners: bool,
    std3: bool,
    transitional: bool,
    bidi_domain: bool,
) -> list[str]:
    """UTS46 4.1: the criteria a non-empty label fails, as status codes."""
    failed: list[str] = []
    if label.isascii():
        # V1 (ASCII is NFC), V5 (no '.' after Break), V6 (no marks) hold; C1/C2 need joiners.
        if check_hyphens:
            _check_hyphens(label, failed)
        # UTS46 4.1 V4: if not CheckHyphens, must not begin with "xn--".
        elif label.startswith("xn--"):
            failed.append("V4")
        # UTS46 4.1 V7: every status valid (ASCII has no deviations).
        if _ASCII_NOT_VALID_RE.search(label):
            failed.append("V7")
        # UTS46 4.1 V7, UseSTD3ASCIIRules: ASCII must be a-z, 0-9 or U+002D.
        if std3 and _STD3_BAD_RE.search(label):
            failed.append("U1")
        if bidi_domain:
            _check_bidi(label, failed)
        return failed

    # UTS46 4.1 V1: the label must be in NFC.
    if _ucd.normalize("NFC", label) != label:
        failed.append("V1")
    if check_hyphens:
        _check_hyphens(label, failed)
    elif label.startswith("xn--"):
        failed.append("V4")
    # UTS46 4.1 V5: no U+002E FULL STOP.
    if "." in label:
        failed.append("V5")
    # UTS46 4.1 V6: must not begin with General_Category=Mark.
    if _ucd.category(label[0])[0] == "M":
        failed.append("V6")
    # UTS46 4.1 V7: each status valid (Transitional) or valid/deviation (Nontransitional).
    for ch in label:
        status = _status(ord(ch))
        if status != _VALID and (transitional or status != _DEVIATION):
            failed.append("V7")
            break
    if std3 and _STD3_BAD_RE.search(label):
        failed.append("U1")
    # UTS46 4.1 step 8: CheckJoiners.
    if check_joiners and (_ZWNJ in label or _ZWJ in label):
        _check_joiners(label, failed)
    # UTS46 4.1 step 9: CheckBidi, for every label of a Bidi domain name.
    if bidi_domain:
        _check_bidi(label, failed)
    return failed


def _checked_criteria(
    label: str,
    *,
    decoded: bool,
    check_hyphens: bool,
    check_joiners: bool,
    std3: bool,
    bidi_domain: bool,
) -> list[str]:
    """For the observer: the criteria that apply to a label."""
    checked = ["V1", "V2", "V3"] if check_hyphens else ["V1", "V4"]
    checked += ["V5", "V6", "V7" + (" (nontransitional)" if decoded else "")]
    if std3:
        checked.append("U1")
    if check_joiners:
        checked += ["C1", "C2"]
    if bidi_domain:
        checked += ["B1", "B2", "B3", "B4", "B5", "B6"]
    return checked


# --------------------------------------------------------------------------------------------
# UTS46 4 Processing
# --------------------------------------------------------------------------------------------


def _add(errors: list[str], code: str) -> None:
    if code not in errors:
        errors.append(code)


def _map_details(domain: str, transitional: bool) -> list[dict[str, object]]:
    """For the observer: the code points of the Map step whose status is not valid."""
    changes: list[dict[str, object]] = []
    table = _MAP_TRANSITIONAL if transitional else _MAP_NONTRANSITIONAL
    for ch in domain:
        cp = ord(ch)
        status = _status(cp)
        if status == _VALID:
            continue
        entry: dict[str, object] = {"cp": f"U+{cp:04X}", "status": _STATUS_NAMES[status]}
        if status in (_MAPPED, _DEVIATION, _IGNORED):
            to = table[cp]
            entry["to"] = "" if to is None else to
        changes.append(entry)
    return changes


def _process(
    domain: str,
    *,
    check_hyphens: bool,
    check_bidi: bool,
    check_joiners: bool,
    std3: bool,
    transitional: bool,
    ignore_invalid_punycode: bool,
    observer: StageObserver,
    errors: list[str],
    encode: bool,
) -> tuple[list[str], list[str] | None]:
    """UTS46 4 steps 1-4. Returns the processed labels and, if ``encode``, the labels of
    ToASCII step 3 (UTS46 4.2) too; appends error codes to ``errors``."""
    # An observer that only counts steps (urlcalc.standard.observer.counts_only: the trace
    # driver's stage observer for a full recorder) gets them without details.
    detailed = observer is not None and not counts_only(observer)
    # UTS46 4 step 1: Map.
    mapped = domain.translate(_MAP_TRANSITIONAL if transitional else _MAP_NONTRANSITIONAL)
    if observer is not None:
        observer(
            "map",
            {
                "input": domain,
                "output": mapped,
                "transitional": transitional,
                "code_points": _map_details(domain, transitional),
            } if detailed else {},
        )

    # UTS46 4 step 2: Normalize (NFC).
    normalized = mapped if mapped.isascii() else _ucd.normalize("NFC", mapped)
    if observer is not None:
        observer(
            "normalize",
            {"input": mapped, "output": normalized, "changed": normalized != mapped}
            if detailed else {},
        )

    # UTS46 4 step 3: Break at U+002E FULL STOP.
    labels = normalized.split(".")
    if observer is not None:
        observer("break", {"labels": list(labels)} if detailed else {})

    # UTS46 4 step 4: Convert. A label is validated unless its conversion ended it early;
    # decoded labels are validated with the Nontransitional criteria.
    validate = [True] * len(labels)
    decoded = [False] * len(labels)
    convert_details: list[dict[str, object]] | None = [] if detailed else None
    for i, label in enumerate(labels):
        if not label.startswith("xn--"):
            if convert_details is not None:
                convert_details.append({"label": label, "punycode": False})
            continue
        detail: dict[str, object] | None = None
        if convert_details is not None:
            detail = {"label": label, "punycode": True}
            convert_details.append(detail)
        # UTS46 4 step 4.1: an "xn--" label must be ASCII; else error, next label.
        if not label.isascii():
            _add(errors, "P4")
            validate[i] = False
            if detail is not None:
                detail["error"] = "P4"
                detail["reason"] = "non-ASCII code point in an xn-- label"
            continue
        # UTS46 4 step 4.2: Punycode-decode the rest; on failure, unless
        # IgnoreInvalidPunycode, record an error; either way keep the label, next label.
        result = _punycode_decode(label[4:])
        if result is None:
            validate[i] = False
            if not ignore_invalid_punycode:
                _add(errors, "P4")
            if detail is not None:
                detail["decoded"] = None
                detail["reason"] = "invalid Punycode"
                if not ignore_invalid_punycode:
                    detail["error"] = "P4"
            continue
        labels[i] = result
        decoded[i] = True
        if detail is not None:
            detail["decoded"] = result
        # UTS46 4 step 4.3: an empty or all-ASCII result is an error.
        if result == "" or result.isascii():
            _add(errors, "P4")
            if detail is not None:
                detail["error"] = "P4"
                detail["reason"] = "decodes to " + ("nothing" if result == "" else "ASCII only")

    if observer is not None:
        observer("convert", {"labels": convert_details} if detailed else {})

    # UTS46 4 step 4 (both branches, last step): the validity criteria of 4.1, per non-empty
    # label. CheckBidi concerns the whole domain: it applies when it is a Bidi domain name.
    bidi_domain = check_bidi and any(_has_rtl(label) for label in labels)
    validate_details: list[dict[str, object]] | None = [] if detailed else None
    for i, label in enumerate(labels):
        if not validate[i] or label == "":
            if validate_details is not None:
                validate_details.append(
                    {
                        "label": label,
                        "checked": [],
                        "failed": [],
                        "skipped": "empty label" if validate[i] else "conversion ended early",
                    }
                )
            continue
        failed = _validate(
            label,
            check_hyphens=check_hyphens,
            check_joiners=check_joiners,
            std3=std3,
            transitional=transitional and not decoded[i],
            bidi_domain=bidi_domain,
        )
        for code in failed:
            _add(errors, code)
        if validate_details is not None:
            validate_details.append(
                {
                    "label": label,
                    "checked": _checked_criteria(
                        label,
                        decoded=decoded[i],
                        check_hyphens=check_hyphens,
                        check_joiners=check_joiners,
                        std3=std3,
                        bidi_domain=bidi_domain,
                    ),
                    "failed": failed,
                }
            )
    if observer is not None:
        observer(
            "validate",
            {"bidi_domain": bidi_domain, "labels": validate_details, "errors": list(errors)}
            if detailed else {},
        )

    # UTS46 4.2 (ToASCII) step 3, after Processing: Punycode-encode each label with non-ASCII
    # code points.
    encoded: list[str] | None = None
    if encode:
        encoded = []
        encode_details: list[dict[str, object]] | None = [] if detailed else None
        encode_failed = False
        for label in labels:
            if label.isascii():
                encoded.append(label)
                if encode_details is not None:
                    encode_details.append({"label": label, "ascii": label})
                continue
            puny, ok = _punycode_encode(label)
            encoded.append("xn--" + puny)
            if not ok:
                encode_failed = True
            if encode_details is not None:
                encode_details.append({"label": label, "ascii": "xn--" + puny,
                                       **({} if ok else {"encode_error": "A3"})})
        if encode_failed:
            _add(errors, "A3")
        if observer is not None:
            observer("encode", {"labels": encode_details} if detailed else {})
    return labels, encoded


def _fast_ascii(domain: str, *, check_hyphens: bool, std3: bool, errors: list[str]) -> str | None:
    """The whole of Processing for ASCII input without an "xn--" label, or ``None``.

    Map is lowercasing, NFC and the Bidi Rule do not apply (no R, AL or AN), V1, V4-V7 and
    CONTEXTJ hold trivially; only the hyphen (V2, V3) and STD3 (U1) criteria remain."""
    if not _ASCII_TABLE_IS_LOWERCASING:
        return None
    lowered = domain.lower()
    if "xn--" in lowered:
        return None
    if check_hyphens or std3:
        for label in lowered.split("."):
            if label == "":
                continue
            if check_hyphens:
                failed: list[str] = []
                _check_hyphens(label, failed)
                for code in failed:
                    _add(errors, code)
            if std3 and _STD3_BAD_RE.search(label):
                _add(errors, "U1")
    return lowered


def _verify_dns_length(labels: list[str], errors: list[str], observer: StageObserver) -> None:
    """UTS46 4.2 step 4 (VerifyDnsLength); an empty root label (trailing dot) counts as an
    empty label (A4_2), as in IdnaTestV2, but not towards the domain's length."""
    body = labels[:-1] if len(labels) > 1 and labels[-1] == "" else labels
    total = sum(len(label) for label in body) + len(body) - 1
    failed: list[str] = []
    # UTS46 4.2 step 4.1: the domain, excluding the root label and its dot, is 1..253 long.
    if not 1 <= total <= 253:
        failed.append("A4_1")
    # UTS46 4.2 step 4.2: each label is 1..63 long.
    if any(not 1 <= len(label) <= 63 for label in labels):
        failed.append("A4_2")
    for code in failed:
        _add(errors, code)
    if observer is not None:
        observer(
            "verify-dns-length",
            {
                "domain_length": total,
                "label_lengths": [len(label) for label in body],
                "root_label": len(body) != len(labels),
                "failed": failed,
            },
        )


# --------------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------------


def to_ascii(
    domain: str,
    *,
    check_hyphens: bool,
    check_bidi: bool,
    check_joiners: bool,
    use_std3_ascii_rules: bool,
    transitional_processing: bool,
    verify_dns_length: bool,
    ignore_invalid_punycode: bool,
    observer: StageObserver = None,
) -> tuple[str, list[str]]:
    """UTS46 4.2 ToASCII. Returns (result, errors); the result is produced even with errors."""
    errors: list[str] = []
    if observer is None and domain.isascii():
        fast = _fast_ascii(
            domain, check_hyphens=check_hyphens, std3=use_std3_ascii_rules, errors=errors
        )
        if fast is not None:
            if verify_dns_length:
                _verify_dns_length(fast.split("."), errors, None)
            return fast, errors
    # UTS46 4.2 step 1: Processing; steps 2-3: break, Punycode-encode non-ASCII labels.
    _labels, encoded = _process(
        domain,
        check_hyphens=check_hyphens,
        check_bidi=check_bidi,
        check_joiners=check_joiners,
        std3=use_std3_ascii_rules,
        transitional=transitional_processing,
        ignore_invalid_punycode=ignore_invalid_punycode,
        observer=observer,
        errors=errors,
        encode=True,
    )
    assert encoded is not None
    # UTS46 4.2 step 4: VerifyDnsLength.
    if verify_dns_length:
        _verify_dns_length(encoded, errors, observer)
    # UTS46 4.2 steps 5-6: join with U+002E (the caller treats any error as failure).
    return ".".join(encoded), errors


def to_unicode(
    domain: str,
    *,
    check_hyphens: bool,
    check_bidi: bool,
    check_joiners: bool,
    use_std3_ascii_rules: bool,
    transitional_processing: bool,
    ignore_invalid_punycode: bool,
    observer: StageObserver = None,
) -> tuple[str, list[str]]:
    """UTS46 4.3 ToUnicode: the processed domain and the errors recorded (never a failure)."""
    errors: list[str] = []
    if observer is None and domain.isascii():
        fast = _fast_ascii(
            domain, check_hyphens=check_hyphens, std3=use_std3_ascii_rules, errors=errors
        )
        if fast is not None:
            return fast, errors
    # UTS46 4.3 step 1: Processing.
    labels, _encoded = _process(
        domain,
        check_hyphens=check_hyphens,
        check_bidi=check_bidi,
        check_joiners=check_joiners,
        std3=use_std3_ascii_rules,
        transitional=transitional_processing,
        ignore_invalid_punycode=ignore_invalid_punycode,
        observer=observer,
        errors=errors,
        encode=False,
    )
    # UTS46 4.3 step 2: the result, with the errors recorded.
    return ".".join(labels), errors
