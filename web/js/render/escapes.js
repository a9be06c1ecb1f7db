// The "input with escapes" field: printable ASCII stays as is, everything else is \u{HEX}.
// Round trip is exact: a literal backslash that would start an escape is itself escaped.

const ESCAPE = /\\u\{([0-9A-Fa-f]{1,6})\}/g;

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

export function decodeEscapes(str) {
  return String(str).replace(ESCAPE, (whole, hex) => {
    const cp = parseInt(hex, 16);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
  });
}
