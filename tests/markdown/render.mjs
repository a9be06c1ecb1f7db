// Renders urlcalc's "Copy as Markdown" export (web/js/render/share.js, the same module the page
// runs) with markdown-it, a CommonMark renderer with GFM tables and strikethrough, here with raw
// HTML and linkify on, as GitHub renders an issue. Used by tests/test_markdown_export.py.
//
// stdin: JSON [{state, result, engine, page}]: the page state, the model's answer, the engine
// line and the page URL the permalink is made from (as web/js/app.js makes it).
// stdout: JSON, per case: the Markdown, the HTML, every link, image and raw HTML token, the code
// spans, the table's cells, and the state read back from the permalink's fragment.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";

const require = createRequire(new URL("../differential/package.json", import.meta.url));
const MarkdownIt = require("markdown-it");
const share = await import(new URL("../../web/js/render/share.js", import.meta.url));

const md = new MarkdownIt("default", { html: true, linkify: true });

function walk(tokens, out) {
  for (const t of tokens) {
    if (t.type === "link_open") out.links.push(t.attrGet("href"));
    if (t.type === "image") out.images.push(t.attrGet("src"));
    if (t.type === "html_inline" || t.type === "html_block") out.html_tokens.push(t.content);
    if (t.type === "code_inline") out.code.push(t.content);
    if (t.type === "tr_open") out.rows.push([]);
    if (t.type === "inline" && out.rows.length && out.in_cell) out.rows.at(-1).push(t.content);
    if (t.type === "th_open" || t.type === "td_open") out.in_cell = true;
    if (t.type === "th_close" || t.type === "td_close") out.in_cell = false;
    if (t.children) walk(t.children, out);
  }
}

const cases = JSON.parse(readFileSync(0, "utf8"));
const answers = [];
for (const { state, result, engine, page } of cases) {
  const full = { ...share.DEFAULTS, ...state };
  const permalink = page + "#" + share.stateToFragment(full);
  const markdown = share.toMarkdown(full, result, engine, permalink);
  const out = { markdown, permalink, links: [], images: [], html_tokens: [], code: [], rows: [],
    in_cell: false };
  walk(md.parse(markdown, {}), out);
  delete out.in_cell;
  out.html = md.render(markdown);
  // Follow the permalink as a reader would: its fragment must give back the same state.
  const link = out.links.find((href) => !href.startsWith("https://url.spec.whatwg.org/"));
  out.permalink_state = null;
  if (link) {
    const hash = new URL(link).hash.slice(1);
    out.permalink_state = share.fragmentToState(hash);
  }
  answers.push(out);
}
process.stdout.write(JSON.stringify(answers));
