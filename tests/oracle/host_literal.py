"""The oracle's host side, written from url.bs alone: the host parser, the IPv4 parser, the IPv4
number parser, the IPv6 parser, the opaque-host parser and the domain parser, with the host
serializer, the percent-encode sets and the code-point classes they use.

Independent of urlcalc's own parser: urlcalc.standard.uts46.to_ascii is used only as a black box
for the one call url.bs makes outside itself ("Unicode ToASCII", in "domain parser ToASCII").

Each algorithm records into a ``Run`` (tests/oracle/record.py) only the steps the comparison looks
at for host algorithms: the steps that raise a validation error, return, return failure, or call
another algorithm (the trace may describe more of them; see tests/oracle/compare.py).
"""

from __future__ import annotations

from typing import TypeAlias

from urlcalc.standard.uts46 import to_ascii

from .record import Recorder, Run

Host: TypeAlias = "str | int | tuple[int, ...]"
FAILURE = None

# --- code points (url.bs "Host miscellaneous", "URL writing", Infra) ---------------------------

ASCII_DIGITS = frozenset("0123456789")
ASCII_HEX = frozenset("0123456789abcdefABCDEF")
ASCII_ALPHA = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
ASCII_ALNUM = ASCII_ALPHA | ASCII_DIGITS

# "A forbidden host code point is U+0000 NULL, U+0009 TAB, U+000A LF, U+000D CR, U+0020 SPACE,
# U+0023 (#), U+002F (/), U+003A (:), U+003C (<), U+003E (>), U+003F (?), U+0040 (@), U+005B ([),
# U+005C (\), U+005D (]), U+005E (^), or U+007C (|)."
FORBIDDEN_HOST = frozenset("\x00\t\n\r #/:<>?@[\\]^|")


def forbidden_domain(c: str) -> bool:
    """"A forbidden domain code point is a forbidden host code point, a C0 control, U+0025 (%),
    or U+007F DELETE.\""""
    return c in FORBIDDEN_HOST or ord(c) <= 0x1F or c in "%\x7f"


def is_url_code_point(c: str) -> bool:
    """"The URL code points are ASCII alphanumeric, U+0021 (!), U+0024 ($), U+0026 (&),
    U+0027 ('), U+0028, U+0029, U+002A (*), U+002B (+), U+002C (,), U+002D (-), U+002E (.),
    U+002F (/), U+003A (:), U+003B (;), U+003D (=), U+003F (?), U+0040 (@), U+005F (_),
    U+007E (~), and code points in the range U+00A0 to U+10FFFD, inclusive, excluding surrogates
    and noncharacters.\""""
    if c in ASCII_ALNUM or c in "!$&'()*+,-./:;=?@_~":
        return True
    cp = ord(c)
    if cp < 0xA0 or cp > 0x10FFFD or 0xD800 <= cp <= 0xDFFF:
        return False
    # Infra: a noncharacter is U+FDD0 to U+FDEF, or a code point ending in FFFE or FFFF.
    return not (0xFDD0 <= cp <= 0xFDEF or (cp & 0xFFFE) == 0xFFFE)


# --- percent-encode sets (url.bs "Percent-encoded bytes") --------------------------------------

def in_c0_control_set(c: str) -> bool:
    """"The C0 control percent-encode set is a percent-encode set consisting of C0 controls and
    all code points greater than U+007E (~).\""""
    return ord(c) <= 0x1F or ord(c) > 0x7E


def in_fragment_set(c: str) -> bool:
    """"... the C0 control percent-encode set and U+0020 SPACE, U+0022 ("), U+003C (<),
    U+003E (>), and U+0060 (`).\""""
    return in_c0_control_set(c) or c in ' "<>`'


def in_query_set(c: str) -> bool:
    """"... the C0 control percent-encode set and U+0020 SPACE, U+0022 ("), U+0023 (#),
    U+003C (<), and U+003E (>).\""""
    return in_c0_control_set(c) or c in ' "#<>'


def in_special_query_set(c: str) -> bool:
    """"... the query percent-encode set and U+0027 (').\""""
    return in_query_set(c) or c == "'"


def in_path_set(c: str) -> bool:
    """"... the query percent-encode set and U+003F (?), U+005E (^), U+0060 (`), U+007B ({), and
    U+007D (}).\""""
    return in_query_set(c) or c in "?^`{}"


def in_userinfo_set(c: str) -> bool:
    """"... the path percent-encode set and U+002F (/), U+003A (:), U+003B (;), U+003D (=),
    U+0040 (@), U+005B ([) to U+005D (]), inclusive, and U+007C (|).\""""
    return in_path_set(c) or c in "/:;=@[\\]|"


def utf8_percent_encode(c: str, in_set: object) -> str:
    """UTF-8 percent-encode a code point using a percent-encode set (a predicate): the code point
    itself if not in the set, else each byte of its UTF-8 encoding percent-encoded (upper hex)."""
    assert callable(in_set)
    if not in_set(c):
        return c
    return "".join(f"%{b:02X}" for b in c.encode("utf-8"))


def utf8_percent_encode_string(s: str, in_set: object) -> str:
    return "".join(utf8_percent_encode(c, in_set) for c in s)


def percent_decode(s: str) -> bytes:
    """"To percent-decode a scalar value string input": its UTF-8 encoding, percent-decoded."""
    data = s.encode("utf-8")
    out = bytearray()
    i = 0
    hexd = b"0123456789abcdefABCDEF"
    while i < len(data):
        b = data[i]
        if b == 0x25 and i + 2 < len(data) and data[i + 1] in hexd and data[i + 2] in hexd:
            out.append(int(data[i + 1:i + 3], 16))
            i += 3
            continue
        out.append(b)
        i += 1
    return bytes(out)


def contains_percent_encoded_byte(s: str) -> bool:
    """"A percent-encoded byte is a string consisting of U+0025 (%) followed by two ASCII hex
    digits.\""""
    return any(s[i] == "%" and s[i + 1:i + 2] in ASCII_HEX and s[i + 2:i + 3] in ASCII_HEX
               and len(s[i + 1:i + 3]) == 2 for i in range(len(s)))


# --- the host parser ------------------------------------------------------------------------

def host_parse(rec: Recorder, depth: int, input: str, is_opaque: bool = False) -> Host | None:
    """The host parser (url.bs "Host parsing"): a host, or None for failure."""
    run = rec.open(depth, "host parser", significant_only=True)
    try:
        # 1. If input starts with U+005B ([), then:
        if input.startswith("["):
            # 1.1 If input does not end with U+005D (]), IPv6-unclosed validation error, return
            # failure.
            if not input.endswith("]"):
                run.step("1.1", errors=("IPv6-unclosed",), outcome="failure")
                return FAILURE
            # 1.2 Return the result of IPv6 parsing input with its leading U+005B ([) and
            # trailing U+005D (]) removed.
            v6 = ipv6_parse(rec, depth + 1, input[1:-1])
            run.step("1.2", calls="IPv6 parser",
                     outcome="failure" if v6 is FAILURE else "return")
            return v6
        # 2. If isOpaque is true, then return the result of opaque-host parsing input.
        if is_opaque:
            opaque = opaque_host_parse(rec, depth + 1, input)
            run.step("2", calls="opaque-host parser",
                     outcome="failure" if opaque is FAILURE else "return")
            return opaque
        # 3. Assert: input is not the empty string.
        assert input != ""
        # 4. If input contains a percent-encoded byte, domain-percent-encoded validation error.
        if contains_percent_encoded_byte(input):
            run.step("4", errors=("domain-percent-encoded",))
        # 5. Let domain be the result of running UTF-8 decode without BOM on the percent-decoding
        # of input.
        domain = percent_decode(input).decode("utf-8", errors="replace")
        # 6. Let asciiDomain be the result of running domain parser with domain and false.
        ascii_domain = domain_parse(rec, depth + 1, domain, False)
        run.step("6", calls="domain parser")
        # 7. If asciiDomain is failure, then return failure.
        if ascii_domain is FAILURE:
            run.step("7", outcome="failure")
            return FAILURE
        # 8. If asciiDomain ends in a number, then return the result of IPv4 parsing asciiDomain.
        if ends_in_a_number(ascii_domain):
            v4 = ipv4_parse(rec, depth + 1, ascii_domain)
            run.step("8", calls="IPv4 parser", outcome="failure" if v4 is FAILURE else "return")
            return v4
        # 9. Return asciiDomain.
        run.step("9", outcome="return")
        return ascii_domain
    finally:
        run.close()


def ends_in_a_number(input: str) -> bool:
    """The ends in a number checker (not a traced algorithm: its IPv4 number parser calls are not
    recorded; the contract lists no event for it)."""
    # 1. Assert: input is not the empty string.
    # 2. Let parts be the result of strictly splitting input on U+002E (.).
    parts = input.split(".")
    # 3. If the last item in parts is the empty string, then remove the last item from parts.
    if parts[-1] == "":
        if len(parts) == 1:
            return False
        parts.pop()
    # 4. Let last be the last item in parts.
    last = parts[-1]
    # 5. If last is not the empty string and contains only ASCII digits, then return true.
    if last != "" and all(c in ASCII_DIGITS for c in last):
        return True
    # 6. If parsing last as an IPv4 number does not return failure, then return true.
    # 7. Return false.
    return ipv4_number_parse(None, 0, last) is not FAILURE


def domain_parse(rec: Recorder, depth: int, domain: str, be_strict: bool) -> str | None:
    """The domain parser: a domain, or None for failure."""
    run = rec.open(depth, "domain parser", significant_only=True)
    try:
        # 1. Let strictResult be the result of running domain parser ToASCII with domain and true.
        strict_result = domain_parser_to_ascii(domain, True)
        run.step("1", calls="UTS #46 ToASCII")
        # 2. If strictResult is a failure value, domain-to-ASCII validation error.
        if strict_result is FAILURE:
            run.step("2", errors=("domain-to-ASCII",))
        # 3. If beStrict is true:
        if be_strict:
            # 3.1 If strictResult is a failure value, then return failure.
            if strict_result is FAILURE:
                run.step("3.1", outcome="failure")
                return FAILURE
            # 3.2 Return strictResult.
            run.step("3.2", outcome="return")
            return strict_result
        # 4. Let result be null.
        result: str | None
        # 5. If domain is an ASCII string, then set result to domain, lowercased.
        if domain.isascii():
            result = domain.lower()
        # 6. Otherwise:
        else:
            # 6.1 Set result to the result of running domain parser ToASCII with domain and false.
            result = domain_parser_to_ascii(domain, False)
            run.step("6.1", calls="UTS #46 ToASCII")
            # 6.2 If result is a failure value, then return failure.
            if result is FAILURE:
                run.step("6.2", outcome="failure")
                return FAILURE
        # 7. If result is the empty string, then return failure.
        if result == "":
            run.step("7", outcome="failure")
            return FAILURE
        # 8. If result contains a forbidden domain code point, then return failure.
        if any(forbidden_domain(c) for c in result):
            run.step("8", outcome="failure")
            return FAILURE
        # 9. Return result.
        run.step("9", outcome="return")
        return result
    finally:
        run.close()


def domain_parser_to_ascii(domain: str, be_strict: bool) -> str | None:
    """"Unicode ToASCII with domain_name set to domain, CheckHyphens set to beStrict, CheckBidi
    set to true, CheckJoiners set to true, UseSTD3ASCIIRules set to beStrict,
    Transitional_Processing set to false, VerifyDnsLength set to beStrict, and
    IgnoreInvalidPunycode set to false." (the black box: urlcalc's UTS #46)"""
    result, errors = to_ascii(domain, check_hyphens=be_strict, check_bidi=True,
                              check_joiners=True, use_std3_ascii_rules=be_strict,
                              transitional_processing=False, verify_dns_length=be_strict,
                              ignore_invalid_punycode=False)
    return FAILURE if errors else result


def ipv4_number_parse(rec: Recorder | None, depth: int,
                      input: str) -> tuple[int, bool] | None:
    """The IPv4 number parser: (number, validationError), or None for failure. With rec None
    (the ends in a number checker) nothing is recorded."""
    run = rec.open(depth, "IPv4 number parser", significant_only=True) if rec else None
    try:
        # 1. If input is the empty string, then return failure.
        if input == "":
            if run:
                run.step("1", outcome="failure")
            return FAILURE
        # 2. Let validationError be false.
        validation_error = False
        # 3. Let R be 10.
        r = 10
        # 4. If input contains at least two code points and the first two code points are either
        # "0X" or "0x", then: 4.1 set validationError to true, 4.2 remove the first two code
        # points from input, 4.3 set R to 16.
        if len(input) >= 2 and input[:2] in ("0X", "0x"):
            validation_error, input, r = True, input[2:], 16
        # 5. Otherwise, if input contains at least two code points and the first code point is
        # U+0030 (0), then: 5.1 validationError true, 5.2 remove the first code point, 5.3 R = 8.
        elif len(input) >= 2 and input[0] == "0":
            validation_error, input, r = True, input[1:], 8
        # 6. If input is the empty string, then return (0, true).
        if input == "":
            if run:
                run.step("6", outcome="return")
            return (0, True)
        # 7. If input contains a code point that is not a radix-R digit, then return failure.
        digits = "0123456789abcdefABCDEF" if r == 16 else "0123456789"[:r]
        if any(c not in digits for c in input):
            if run:
                run.step("7", outcome="failure")
            return FAILURE
        # 8. Let output be the mathematical integer value that is represented by input in
        # radix-R notation, using ASCII hex digits for digits with values 0 through 15.
        output = int(input, r)
        # 9. Return (output, validationError).
        if run:
            run.step("9", outcome="return")
        return (output, validation_error)
    finally:
        if run:
            run.close()


def ipv4_parse(rec: Recorder, depth: int, input: str) -> int | None:
    """The IPv4 parser: an IPv4 address (a 32-bit number), or None for failure."""
    run = rec.open(depth, "IPv4 parser", significant_only=True)
    try:
        # 1. Let parts be the result of strictly splitting input on U+002E (.).
        parts = input.split(".")
        # 2. If the last item in parts is the empty string, then:
        if parts[-1] == "":
            # 2.1 IPv4-empty-part validation error.
            run.step("2.1", errors=("IPv4-empty-part",))
            # 2.2 If parts's size is greater than 1, then remove the last item from parts.
            if len(parts) > 1:
                parts.pop()
        # 3. If parts's size is less than 4, IPv4-too-few-parts validation error.
        if len(parts) < 4:
            run.step("3", errors=("IPv4-too-few-parts",))
        # 4. If parts's size is greater than 4, IPv4-too-many-parts validation error, return
        # failure.
        if len(parts) > 4:
            run.step("4", errors=("IPv4-too-many-parts",), outcome="failure")
            return FAILURE
        # 5. Let numbers be an empty list.
        numbers: list[int] = []
        # 6. For each part of parts:
        for part in parts:
            # 6.1 Let result be the result of parsing part.
            result = ipv4_number_parse(rec, depth + 1, part)
            run.step("6.1", calls="IPv4 number parser")
            # 6.2 If result is failure, IPv4-non-numeric-part validation error, return failure.
            if result is FAILURE:
                run.step("6.2", errors=("IPv4-non-numeric-part",), outcome="failure")
                return FAILURE
            # 6.3 If result[1] is true, IPv4-non-decimal-part validation error.
            if result[1]:
                run.step("6.3", errors=("IPv4-non-decimal-part",))
            # 6.4 Append result[0] to numbers.
            numbers.append(result[0])
        # 7. If any item in numbers is greater than 255, IPv4-out-of-range-part validation error.
        if any(n > 255 for n in numbers):
            run.step("7", errors=("IPv4-out-of-range-part",))
        # 8. If any but the last item in numbers is greater than 255, then return failure.
        if any(n > 255 for n in numbers[:-1]):
            run.step("8", outcome="failure")
            return FAILURE
        # 9. If the last item in numbers is greater than or equal to 256^(5 − numbers's size),
        # then return failure.
        if numbers[-1] >= 256 ** (5 - len(numbers)):
            run.step("9", outcome="failure")
            return FAILURE
        # 10. Let ipv4 be the last item in numbers. 11. Remove the last item from numbers.
        ipv4 = numbers.pop()
        # 12.-13. For each n of numbers: increment ipv4 by n × 256^(3 − counter); counter += 1.
        for counter, n in enumerate(numbers):
            ipv4 += n * 256 ** (3 - counter)
        # 14. Return ipv4.
        run.step("14", outcome="return")
        return ipv4
    finally:
        run.close()


def _ipv6_fail(run: Run, step: str, error: str) -> None:
    run.step(step, errors=(error,), outcome="failure")


def ipv6_parse(rec: Recorder, depth: int, input: str) -> tuple[int, ...] | None:
    """The IPv6 parser: eight 16-bit pieces, or None for failure."""
    run = rec.open(depth, "IPv6 parser", significant_only=True)
    try:
        # 1. Let address be a new IPv6 address whose pieces are all 0.
        address = [0] * 8
        # 2. Let pieceIndex be 0. 3. Let compress be null. 4. Let pointer be a pointer for input.
        piece_index = 0
        compress: int | None = None
        pointer = 0

        def c() -> str | None:
            return input[pointer] if pointer < len(input) else None

        # 5. If c is U+003A (:), then:
        if c() == ":":
            # 5.1 If remaining does not start with U+003A (:), IPv6-invalid-compression
            # validation error, return failure.
            if not input[pointer + 1:].startswith(":"):
                _ipv6_fail(run, "5.1", "IPv6-invalid-compression")
                return FAILURE
            # 5.2 Increase pointer by 2. 5.3 Increase pieceIndex by 1 and then set compress to
            # pieceIndex.
            pointer += 2
            piece_index += 1
            compress = piece_index
        # 6. While c is not the EOF code point:
        while c() is not None:
            # 6.1 If pieceIndex is 8, IPv6-too-many-pieces validation error, return failure.
            if piece_index == 8:
                _ipv6_fail(run, "6.1", "IPv6-too-many-pieces")
                return FAILURE
            # 6.2 If c is U+003A (:), then:
            if c() == ":":
                # 6.2.1 If compress is non-null, IPv6-multiple-compression validation error,
                # return failure.
                if compress is not None:
                    _ipv6_fail(run, "6.2.1", "IPv6-multiple-compression")
                    return FAILURE
                # 6.2.2 Increase pointer and pieceIndex by 1, set compress to pieceIndex, and
                # then continue.
                pointer += 1
                piece_index += 1
                compress = piece_index
                continue
            # 6.3 Let value and length be 0.
            value = length = 0
            # 6.4 While length is less than 4 and c is an ASCII hex digit, set value to
            # value × 0x10 + c interpreted as a hexadecimal number, and increase pointer and
            # length by 1.
            while length < 4 and (ch := c()) is not None and ch in ASCII_HEX:
                value = value * 0x10 + int(ch, 16)
                pointer += 1
                length += 1
            # 6.5 If c is U+002E (.), then:
            if c() == ".":
                # 6.5.1 If length is 0, IPv4-in-IPv6-invalid-code-point validation error, return
                # failure.
                if length == 0:
                    _ipv6_fail(run, "6.5.1", "IPv4-in-IPv6-invalid-code-point")
                    return FAILURE
                # 6.5.2 Decrease pointer by length.
                pointer -= length
                # 6.5.3 If pieceIndex is greater than 6, IPv4-in-IPv6-too-many-pieces validation
                # error, return failure.
                if piece_index > 6:
                    _ipv6_fail(run, "6.5.3", "IPv4-in-IPv6-too-many-pieces")
                    return FAILURE
                # 6.5.4 Let numbersSeen be 0.
                numbers_seen = 0
                # 6.5.5 While c is not the EOF code point:
                while c() is not None:
                    # 6.5.5.1 Let ipv4Piece be null.
                    ipv4_piece: int | None = None
                    # 6.5.5.2 If numbersSeen is greater than 0, then:
                    if numbers_seen > 0:
                        # 6.5.5.2.1 If c is a U+002E (.) and numbersSeen is less than 4, then
                        # increase pointer by 1.
                        if c() == "." and numbers_seen < 4:
                            pointer += 1
                        # 6.5.5.2.2 Otherwise, IPv4-in-IPv6-invalid-code-point validation
                        # error, return failure.
                        else:
                            _ipv6_fail(run, "6.5.5.2.2", "IPv4-in-IPv6-invalid-code-point")
                            return FAILURE
                    # 6.5.5.3 If c is not an ASCII digit, IPv4-in-IPv6-invalid-code-point
                    # validation error, return failure.
                    if (ch := c()) is None or ch not in ASCII_DIGITS:
                        _ipv6_fail(run, "6.5.5.3", "IPv4-in-IPv6-invalid-code-point")
                        return FAILURE
                    # 6.5.5.4 While c is an ASCII digit:
                    while (ch := c()) is not None and ch in ASCII_DIGITS:
                        # 6.5.5.4.1 Let number be c interpreted as decimal number.
                        number = int(ch)
                        # 6.5.5.4.2 If ipv4Piece is null, then set ipv4Piece to number.
                        if ipv4_piece is None:
                            ipv4_piece = number
                        # 6.5.5.4.3 Otherwise, if ipv4Piece is 0, IPv4-in-IPv6-invalid-code-point
                        # validation error, return failure.
                        elif ipv4_piece == 0:
                            _ipv6_fail(run, "6.5.5.4.3", "IPv4-in-IPv6-invalid-code-point")
                            return FAILURE
                        # 6.5.5.4.4 Otherwise, set ipv4Piece to ipv4Piece × 10 + number.
                        else:
                            ipv4_piece = ipv4_piece * 10 + number
                        # 6.5.5.4.5 If ipv4Piece is greater than 255, IPv4-in-IPv6-out-of-range-
                        # part validation error, return failure.
                        if ipv4_piece > 255:
                            _ipv6_fail(run, "6.5.5.4.5", "IPv4-in-IPv6-out-of-range-part")
                            return FAILURE
                        # 6.5.5.4.6 Increase pointer by 1.
                        pointer += 1
                    assert ipv4_piece is not None
                    # 6.5.5.5 Set address[pieceIndex] to address[pieceIndex] × 0x100 + ipv4Piece.
                    address[piece_index] = address[piece_index] * 0x100 + ipv4_piece
                    # 6.5.5.6 Increase numbersSeen by 1.
                    numbers_seen += 1
                    # 6.5.5.7 If numbersSeen is 2 or 4, then increase pieceIndex by 1.
                    if numbers_seen in (2, 4):
                        piece_index += 1
                # 6.5.6 If numbersSeen is not 4, IPv4-in-IPv6-too-few-parts validation error,
                # return failure.
                if numbers_seen != 4:
                    _ipv6_fail(run, "6.5.6", "IPv4-in-IPv6-too-few-parts")
                    return FAILURE
                # 6.5.7 Break.
                break
            # 6.6 Otherwise, if c is U+003A (:):
            elif c() == ":":
                # 6.6.1 Increase pointer by 1.
                pointer += 1
                # 6.6.2 If c is the EOF code point, IPv6-invalid-code-point validation error,
                # return failure.
                if c() is None:
                    _ipv6_fail(run, "6.6.2", "IPv6-invalid-code-point")
                    return FAILURE
            # 6.7 Otherwise, if c is not the EOF code point, IPv6-invalid-code-point validation
            # error, return failure.
            elif c() is not None:
                _ipv6_fail(run, "6.7", "IPv6-invalid-code-point")
                return FAILURE
            # 6.8 If length is greater than 1 and value is less than 0x10^(length − 1),
            # IPv6-piece-leading-zero validation error.
            if length > 1 and value < 0x10 ** (length - 1):
                run.step("6.8", errors=("IPv6-piece-leading-zero",))
            # 6.9 Set address[pieceIndex] to value. 6.10 Increase pieceIndex by 1.
            address[piece_index] = value
            piece_index += 1
        # 7. If compress is non-null, then:
        if compress is not None:
            # 7.1 Let swaps be pieceIndex − compress. 7.2 Set pieceIndex to 7.
            swaps = piece_index - compress
            piece_index = 7
            # 7.3 While pieceIndex is not 0 and swaps is greater than 0, swap address[pieceIndex]
            # with address[compress + swaps − 1], and then decrease both by 1.
            while piece_index != 0 and swaps > 0:
                j = compress + swaps - 1
                address[piece_index], address[j] = address[j], address[piece_index]
                piece_index -= 1
                swaps -= 1
        # 8. Otherwise, if compress is null and pieceIndex is not 8, IPv6-too-few-pieces
        # validation error, return failure.
        elif piece_index != 8:
            _ipv6_fail(run, "8", "IPv6-too-few-pieces")
            return FAILURE
        # 9. Return address.
        run.step("9", outcome="return")
        return tuple(address)
    finally:
        run.close()


def opaque_host_parse(rec: Recorder, depth: int, input: str) -> str | None:
    """The opaque-host parser: an opaque host, or None for failure."""
    run = rec.open(depth, "opaque-host parser", significant_only=True)
    try:
        # 1. If input contains a forbidden host code point, host-invalid-code-point validation
        # error, return failure.
        if any(c in FORBIDDEN_HOST for c in input):
            run.step("1", errors=("host-invalid-code-point",), outcome="failure")
            return FAILURE
        # 2. If input contains a code point that is not a URL code point and not U+0025 (%),
        # invalid-URL-unit validation error.
        if any(not is_url_code_point(c) and c != "%" for c in input):
            run.step("2", errors=("invalid-URL-unit",))
        # 3. If input contains a U+0025 (%) and the two code points following it are not ASCII
        # hex digits, invalid-URL-unit validation error.
        if any(c == "%" and not (len(input[i + 1:i + 3]) == 2 and input[i + 1] in ASCII_HEX
                                 and input[i + 2] in ASCII_HEX)
               for i, c in enumerate(input)):
            run.step("3", errors=("invalid-URL-unit",))
        # 4. Return the result of running UTF-8 percent-encode on input using the C0 control
        # percent-encode set.
        run.step("4", outcome="return")
        return utf8_percent_encode_string(input, in_c0_control_set)
    finally:
        run.close()


# --- the host serializer --------------------------------------------------------------------

def serialize_host(host: Host) -> str:
    """The host serializer: IPv4 dotted decimal, IPv6 in brackets (compressed), else as is."""
    if isinstance(host, int):
        # IPv4 serializer: four numbers, most significant first, joined by ".".
        return ".".join(str((host >> shift) & 0xFF) for shift in (24, 16, 8, 0))
    if isinstance(host, tuple):
        return "[" + serialize_ipv6(host) + "]"
    return host


def serialize_ipv6(address: tuple[int, ...]) -> str:
    """IPv6 serializer: compress the first longest run of two or more 0 pieces."""
    compress: int | None = None
    best = 1
    i = 0
    while i < 8:
        if address[i] == 0:
            j = i
            while j < 8 and address[j] == 0:
                j += 1
            if j - i > best:
                best, compress = j - i, i
            i = j
        else:
            i += 1
    out = ""
    ignore0 = False
    for index, piece in enumerate(address):
        if ignore0 and piece == 0:
            continue
        ignore0 = False
        if compress == index:
            out += "::" if index == 0 else ":"
            ignore0 = True
            continue
        out += f"{piece:x}"
        if index != 7:
            out += ":"
    return out
