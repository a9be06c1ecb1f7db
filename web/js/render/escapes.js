// @ts-check
// The "input with escapes" field: printable ASCII stays as is, everything else is \u{HEX}.
// Round trip is exact: a literal backslash that would start an escape is itself escaped.

const ESCAPE = /\\u\{([0-9A-Fa-f]{1,6})\}/g;

/** `str` with every code point outside printable ASCII as \u{HEX} (and a backslash that would
 *  start an escape as \u{5C}).
 *  @param {unknown} str
 *  @returns {string} */
export function encodeEscapes(str) {
  let out = "";
  const cps = Array.from(String(str));
  for (let i = 0; i < cps.length; i++) {
    const ch = cps[i];
    const cp = ch.codePointAt(0);
    if (ch === "\\" && cps[i + 1] === "u" && cps[i + 2] === "{") out += "\\u{5C}";
    else if (cp >= 0x20 && cp <= 0x7e) out += ch;
    else out += `\\u{${cp.toString(16).toUpperCase()}}`;
  }
  return out;
}

/** `str` with every \u{HEX} escape (of a code point up to 10FFFF) as its code point.
 *  @param {unknown} str
 *  @returns {string} */
export function decodeEscapes(str) {
  return String(str).replace(ESCAPE, (whole, hex) => {
    const cp = parseInt(hex, 16);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
  });
}
