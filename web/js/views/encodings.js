// The encodings of the Encoding Standard, by name (every name is also a label). The page offers
// them in selects, so it never sends a label the model would refuse.
import { h } from "./dom.js";

export const ENCODINGS = ["UTF-8", "IBM866", "ISO-8859-2", "ISO-8859-3", "ISO-8859-4", "ISO-8859-5",
  "ISO-8859-6", "ISO-8859-7", "ISO-8859-8", "ISO-8859-8-I", "ISO-8859-10", "ISO-8859-13",
  "ISO-8859-14", "ISO-8859-15", "ISO-8859-16", "KOI8-R", "KOI8-U", "macintosh", "windows-874",
  "windows-1250", "windows-1251", "windows-1252", "windows-1253", "windows-1254", "windows-1255",
  "windows-1256", "windows-1257", "windows-1258", "x-mac-cyrillic", "GBK", "gb18030", "Big5",
  "EUC-JP", "ISO-2022-JP", "Shift_JIS", "EUC-KR", "replacement", "UTF-16BE", "UTF-16LE",
  "x-user-defined"];

/** Fill a <select>: "" (UTF-8, the default) then every other encoding. */
export function fillEncodings(select) {
  select.replaceChildren(h("option", { value: "" }, "UTF-8 (default)"),
    ...ENCODINGS.filter((e) => e !== "UTF-8").map((e) => h("option", { value: e }, e)));
}

/** The select value for a label from a permalink: a known name (case-insensitively) or "". */
export function encodingValue(label) {
  const l = String(label || "").trim().toLowerCase();
  if (l === "utf-8" || l === "utf8") return "";
  return ENCODINGS.find((e) => e.toLowerCase() === l) || "";
}
