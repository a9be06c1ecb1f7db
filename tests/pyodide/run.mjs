#!/usr/bin/env node
// Run one function of a Python file inside Pyodide (under node, offline) and print its result.
//
//   node tests/pyodide/run.mjs BUNDLE.zip MODULE_PATH.py FUNCTION
//
// 1. boots Pyodide from web/node_modules/pyodide (the npm package pinned in web/package-lock.json);
//    nothing is fetched from the network: fetch() is replaced by a function that throws;
// 2. unpacks BUNDLE.zip (built by `python -m urlcalc.site.bundle`) into site-packages, so `urlcalc` and
//    `idna` import;
// 3. mounts the directory of MODULE_PATH.py at the same absolute path inside Pyodide (so the module
//    can read sibling data files through __file__), imports the file as a module named after its
//    stem (registered in sys.modules, its directory first on sys.path), calls FUNCTION() with no
//    arguments, and writes the returned string (e.g. a JSON document) plus a newline to stdout.
//
// Anything Python prints goes to stderr, so stdout carries the result alone. Timings go to stderr.
// Errors: a one-line message on stderr (e?.message: Pyodide errors stringify as [object Object])
// and exit status 1; 2 for bad usage.

import { readFileSync, existsSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const t0 = performance.now();
const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "..", "..");
const pyodideDir = path.join(repoRoot, "web", "node_modules", "pyodide");

function fail(message, status = 1) {
  process.stderr.write(`run.mjs: ${message}\n`);
  process.exit(status);
}

function ms(since) {
  return `${(performance.now() - since).toFixed(0)} ms`;
}

const [bundleArg, moduleArg, funcName] = process.argv.slice(2);
if (!bundleArg || !moduleArg || !funcName || process.argv.length > 5) {
  fail("usage: node tests/pyodide/run.mjs BUNDLE.zip MODULE_PATH.py FUNCTION", 2);
}
if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(funcName)) {
  fail(`not a Python identifier: ${funcName}`, 2);
}
const bundlePath = path.resolve(bundleArg);
const modulePath = path.resolve(moduleArg);
for (const [what, p] of [["bundle", bundlePath], ["module", modulePath]]) {
  if (!existsSync(p) || !statSync(p).isFile()) fail(`${what} not found: ${p}`);
}
const pyodideEntry = path.join(pyodideDir, "pyodide.mjs");
if (!existsSync(pyodideEntry)) {
  fail(`Pyodide not installed: ${pyodideEntry} is missing (run \`make npm\`, i.e. npm ci in web/)`);
}

// Offline guarantee: Pyodide under node reads its files from indexURL with node:fs; any fetch()
// would mean a download (e.g. loadPackage falling back to the CDN), so it is an error.
const realFetch = globalThis.fetch;
globalThis.fetch = async (resource) => {
  const url = typeof resource === "string" ? resource : resource?.url ?? String(resource);
  throw new Error(`network access refused in the offline Pyodide harness: ${url}`);
};

async function main() {
  const { loadPyodide, version } = await import(pathToFileURL(pyodideEntry).href);
  const tBoot = performance.now();
  const pyodide = await loadPyodide({
    indexURL: pyodideDir + path.sep,
    packages: [],
    // Python's own output must not mix with the result on stdout.
    stdout: (line) => process.stderr.write(`[py] ${line}\n`),
    stderr: (line) => process.stderr.write(`[py] ${line}\n`),
  });
  const bootTime = ms(tBoot);

  const tUnpack = performance.now();
  const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  const zip = readFileSync(bundlePath); // a node Buffer, which unpackArchive rejects
  pyodide.unpackArchive(new Uint8Array(zip.buffer, zip.byteOffset, zip.byteLength), "zip", {
    extractDir: sitePackages,
  });
  const unpackTime = ms(tUnpack);

  const moduleDir = path.dirname(modulePath);
  pyodide.mountNodeFS(moduleDir, moduleDir);

  const tRun = performance.now();
  const runner = pyodide.runPython(`
def _run_module_function(module_path, func_name):
    import importlib, importlib.util, pathlib, sys
    sys.dont_write_bytecode = True  # keep CPython-3.14 .pyc files out of the host's tree
    importlib.invalidate_caches()
    path = pathlib.Path(module_path)
    if str(path.parent) not in sys.path:
        sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {module_path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    result = getattr(module, func_name)()
    if not isinstance(result, str):
        raise TypeError(f"{func_name}() returned {type(result).__name__}, expected str")
    return result
_run_module_function
`);
  let result;
  try {
    result = runner(modulePath, funcName);
  } finally {
    runner.destroy();
  }
  const runTime = ms(tRun);

  await new Promise((resolve, reject) =>
    process.stdout.write(result + "\n", (err) => (err ? reject(err) : resolve())),
  );
  process.stderr.write(
    `run.mjs: pyodide ${version}: boot ${bootTime}, unpack ${unpackTime}, ` +
      `${path.basename(modulePath)}:${funcName}() ${runTime}, total ${ms(t0)}\n`,
  );
}

try {
  await main();
  globalThis.fetch = realFetch;
  process.exit(0);
} catch (e) {
  fail(e?.message ?? String(e));
}
