// Builds web/js/vendor/whatwg-url.mjs: the npm package whatwg-url (pinned in web/package.json),
// bundled with its dependencies into one ES module that the page imports (Implementations view)
// and the server's node helper (urlcalc/implementations/node_helper.mjs) imports too. Run by
// `make npm`; the output is a build product (git-ignored), served from /js/vendor/ like any page
// script and copied by the static export. Next to it, whatwg-url.LICENSES.txt holds the licence
// of every bundled package.
//
// The module exports URL, URLSearchParams and `version` (the package's version). The page's CSP
// allows no eval: the bundle never evaluates a string (webidl2js's one globalObject.eval call is
// made on whatwg-url's own shared global object, which has no eval, and is caught);
// tests/browser/test_implementations_view.py loads it under the CSP and checks for violations.
//
// webidl-conversions reads SharedArrayBuffer.prototype when it loads, and a page that is not
// cross-origin isolated (ours) has no SharedArrayBuffer: the banner gives the bundle a stand-in
// whose byteLength and growable getters throw, so every "is it a SharedArrayBuffer?" check
// answers no, which is right where no SharedArrayBuffer can exist.

import { build } from "esbuild";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const WEB = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const OUT_DIR = join(WEB, "js", "vendor");
const OUT = join(OUT_DIR, "whatwg-url.mjs");
const pkg = JSON.parse(readFileSync(join(WEB, "node_modules", "whatwg-url", "package.json"), "utf8"));

const result = await build({
  stdin: {
    contents: `export { URL, URLSearchParams } from "whatwg-url";\nexport const version = ${JSON.stringify(pkg.version)};\n`,
    resolveDir: WEB,
    sourcefile: "whatwg-url-entry.mjs",
  },
  bundle: true,
  format: "esm",
  platform: "neutral",
  mainFields: ["module", "main"],
  target: "es2022",
  minify: true,
  legalComments: "eof",
  metafile: true,
  banner: {
    js: `// whatwg-url ${pkg.version} (npm), bundled by web/tools/bundle-whatwg-url.mjs; licences: whatwg-url.LICENSES.txt\n` +
      "const SharedArrayBuffer = globalThis.SharedArrayBuffer ?? class SharedArrayBuffer {\n" +
      "  get byteLength() { throw new TypeError(\"not a SharedArrayBuffer\"); }\n" +
      "  get growable() { throw new TypeError(\"not a SharedArrayBuffer\"); }\n};",
  },
  outfile: OUT,
  write: false,
  logLevel: "warning",
});

// The packages that went into the bundle, each with its licence text.
const packages = new Map();
for (const input of Object.keys(result.metafile.inputs)) {
  const m = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (m) packages.set(m[1], join(WEB, "node_modules", m[1]));
}
const licences = [...packages].sort(([a], [b]) => a.localeCompare(b)).map(([name, dir]) => {
  const meta = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const file = ["LICENSE", "LICENSE.md", "LICENSE.txt", "LICENSE-MIT.txt"].map((f) => join(dir, f)).find(existsSync);
  const text = file ? readFileSync(file, "utf8").trim() : `(no licence file; package.json says ${meta.license})`;
  return `${name} ${meta.version} (${meta.license})\n${"-".repeat(60)}\n${text}\n`;
});

mkdirSync(OUT_DIR, { recursive: true });
for (const file of result.outputFiles) writeFileSync(file.path, file.contents);
writeFileSync(join(OUT_DIR, "whatwg-url.LICENSES.txt"),
  `Bundled into whatwg-url.mjs (whatwg-url ${pkg.version}):\n\n${licences.join("\n")}`);
const size = result.outputFiles.reduce((n, f) => n + f.contents.length, 0);
console.log(`wrote ${OUT} (${size} bytes; ${[...packages.keys()].join(", ")})`);
