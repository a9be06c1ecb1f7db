// Renders urlcalc's survey reports in Markdown (urlcalc.survey.report.report_markdown) with
// markdown-it, raw HTML and linkify on, as GitHub renders an issue; and writes strings as the
// page's Copy as Markdown does (web/js/render/share.js mdCode), so that the Python and the page's
// code spans can be compared. Used by tests/test_survey_report.py.
//
// stdin: JSON {markdown: [string], code: [string], fragments: [string]}.
// stdout: JSON {rendered: [{html, links, images, html_tokens, code, rows}], code: [string],
// states: [the page state each fragment opens (share.js fragmentToState)]}.
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
    if (t.type === "tr_open") out.rows.push(0);
    if (t.type === "th_open" || t.type === "td_open") out.rows[out.rows.length - 1] += 1;
    if (t.children) walk(t.children, out);
  }
}

const input = JSON.parse(readFileSync(0, "utf8"));
const rendered = input.markdown.map((markdown) => {
  const out = { links: [], images: [], html_tokens: [], code: [], rows: [] };
  walk(md.parse(markdown, {}), out);
  out.html = md.render(markdown);
  return out;
});
process.stdout.write(JSON.stringify({
  rendered,
  code: input.code.map((s) => share.mdCode(s)),
  states: input.fragments.map((f) => share.fragmentToState(f)),
}));
