// Builds web/js/vendor/lit-html.mjs: the npm package lit-html (pinned in web/package.json), the
// page's renderer, bundled with the directives the views use into one ES module. Run by
// `make npm`; the output is a build product (git-ignored), served from /js/vendor/ like any page
// script and copied by the static export and the wheel. Next to it, lit-html.LICENSES.txt holds
// the licence of every bundled package (as whatwg-url.LICENSES.txt does for whatwg-url).
//
// lit-html evaluates no string (the page's CSP allows no eval) and needs no Trusted Types policy
// (the CSP requires none; where a browser has trustedTypes, lit-html makes its own "lit-html"
// policy, which the CSP allows). Its production build is used (no dev-mode warnings), in the
// variant made for node (the same code, plus a guard where there is no document).

import { build } from "esbuild";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const WEB = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const OUT_DIR = join(WEB, "js", "vendor");
const OUT = join(OUT_DIR, "lit-html.mjs");
const pkg = JSON.parse(readFileSync(join(WEB, "node_modules", "lit-html", "package.json"), "utf8"));

const entry = [
  `export { html, svg, render, nothing, noChange } from "lit-html";`,
  `export { directive, Directive, PartType } from "lit-html/directive.js";`,
  `export { repeat } from "lit-html/directives/repeat.js";`,
  `export { ifDefined } from "lit-html/directives/if-defined.js";`,
  `export { live } from "lit-html/directives/live.js";`,
  `export { ref, createRef } from "lit-html/directives/ref.js";`,
  `export { guard } from "lit-html/directives/guard.js";`,
  `export { keyed } from "lit-html/directives/keyed.js";`,
  `export const version = ${JSON.stringify(pkg.version)};`,
].join("\n");

const result = await build({
  stdin: { contents: entry, resolveDir: WEB, sourcefile: "lit-html-entry.mjs" },
  bundle: true,
  format: "esm",
  // lit-html's "node" build: the browser build but for one guard (where there is no document,
  // as in node, the module still loads), so node --test can import the views' pure functions.
  platform: "neutral",
  mainFields: ["module", "main"],
  conditions: ["node"],
  target: "es2022",
  minify: true,
  legalComments: "eof",
  metafile: true,
  // (@ts-check's tsc, make lint, does not check a bundle: its sources are not ours)
  banner: { js: `// @ts-nocheck\n// lit-html ${pkg.version} (npm), bundled by web/tools/bundle-lit-html.mjs; licences: lit-html.LICENSES.txt` },
  outfile: OUT,
  write: false,
  logLevel: "warning",
});

const packages = new Map();
for (const input of Object.keys(result.metafile.inputs)) {
  const m = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (m) packages.set(m[1], join(WEB, "node_modules", m[1]));
}
const licences = [...packages].sort(([a], [b]) => a.localeCompare(b)).map(([name, dir]) => {
  const meta = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const file = ["LICENSE", "LICENSE.md", "LICENSE.txt"].map((f) => join(dir, f)).find(existsSync);
  const text = file ? readFileSync(file, "utf8").trim() : `(no licence file; package.json says ${meta.license})`;
  return `${name} ${meta.version} (${meta.license})\n${"-".repeat(60)}\n${text}\n`;
});

mkdirSync(OUT_DIR, { recursive: true });
for (const file of result.outputFiles) writeFileSync(file.path, file.contents);
writeFileSync(join(OUT_DIR, "lit-html.LICENSES.txt"),
  `Bundled into lit-html.mjs (lit-html ${pkg.version}):\n\n${licences.join("\n")}`);
const size = result.outputFiles.reduce((n, f) => n + f.contents.length, 0);
console.log(`wrote ${OUT} (${size} bytes; ${[...packages.keys()].join(", ")})`);
