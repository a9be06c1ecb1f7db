// @ts-check
// Classroom: the examples gallery of well-known quirks (the paper tape is in tape.js).
import { html, nothing, show, vis } from "../render/templates.js";

export const EXAMPLES = [
  { input: "http:\\\\example.com\\a\\..\\b", note: "Backslashes count as slashes in special URLs, and .. removes a segment." },
  { input: "HTTP://EXAMPLE.com:80/%7efoo", note: "Scheme and host are lower-cased, the default port is dropped, %7e stays as written." },
  { input: "file:c:\\foo\\bar.html", note: "A Windows drive letter: file: URLs get an empty host and the drive in the path." },
  { input: "https://127.1/", note: "IPv4 shorthand: 127.1 is 127.0.0.1 (the last part fills the remaining bytes)." },
  { input: "https://0x7f.1/", note: "Hexadecimal IPv4 parts are allowed too (with a validation error)." },
  { input: "https://[::ffff:127.0.0.1]/", note: "An IPv4-mapped IPv6 address is serialized in hexadecimal pieces." },
  { input: "https://faß.example/", note: "IDNA: non-transitional processing keeps ß and Punycodes the label." },
  { input: "https://xn--nxasmq6b.com/", note: "A Punycode label is validated and kept in ASCII (the hostname in Unicode is shown beside)." },
  { input: "non-spec:/.//p", note: "A path that would serialize as a host gets a \"/.\" prefix to round-trip." },
  { input: "https://user:pass@host/", note: "Credentials parse (with an invalid-credentials validation error)." },
  { input: "  https://example.com/  ", note: "Leading and trailing C0 controls and spaces are stripped first." },
  { input: "https://exa\tmple.com/\na", note: "ASCII tab and newline anywhere are removed before parsing." },
  { input: "javascript:alert(1)", note: "Just text here: an opaque path. Nothing is ever navigated to or run." },
  { input: "blob:https://a.com/uuid", note: "A blob: URL's origin is the origin of the URL inside it." },
  { input: "mailto:x@y", note: "Not special, no \"//\": the rest is an opaque path." },
  { input: "https://example.com/a?b#c#d", note: "Only the first # starts the fragment; later ones are fragment data." },
  { input: "https://ex%61mple.com/", note: "The host is percent-decoded before IDNA: this is example.com." },
  { input: "https://example.com:0080/", note: "Leading zeros in the port are fine, and 80 is not the default for https." },
  { input: "http://a b/", note: "A space in a special host is a failure — Chromium still accepts it (see Implementations)." },
  { input: "C|/foo", base: "file://host/dir/file", note: "\"C|\" is a Windows drive letter relative to a file: base." },
  { input: "../../../x", base: "https://example.com/a/b", note: "You cannot go above the root: extra .. segments are dropped." },
  { input: "//other.example/p?q", base: "https://example.com/a", note: "A scheme-relative URL keeps the base's scheme only." },
  { input: "https://example.com/\u202Egnp.exe", note: "A bidi override is shown escaped, so it cannot reverse the text." },
];

const LEDE = html`<p class="lede">Well-known quirks of the URL Standard. Pick one to load it; every view updates.</p>`;

export function renderExamples(panel, { onPick }) {
  const items = EXAMPLES.map((ex, i) => html`<li><button type="button" class="example" data-example=${i} @click=${() => onPick(ex)}><code class="ex-input">${vis(ex.input)}</code>${ex.base
    ? html`<span class="ex-base">base <code>${vis(ex.base)}</code></span>` : nothing}<span class="ex-note">${ex.note}</span></button></li>`);
  show(panel, html`${LEDE}<ul class="gallery" id="examples">${items}</ul>`);
}
