#!/usr/bin/env node
// The page's boot snapshot and the precompressed (brotli) boot files, built under node by make.
//
//   node web/tools/make-snapshot.mjs PYODIDE_DIR BUNDLE.zip OUT_DIR
//
// 1. Boots Pyodide from PYODIDE_DIR with `_makeSnapshot`, unpacks BUNDLE.zip into site-packages
//    and runs urlcalc.answers.warmup.warm_up() (every module a request can import is imported, every kind
//    answered once), collects and freezes the garbage (as the worker does after its warm-up), and
//    clears the import system's caches of the standard library zip (a snapshot boot mounts none).
// 2. Zeroes the memory nobody uses (free malloc chunks, above the heap's break, the stack below its
//    pointer) and takes Pyodide's memory snapshot.
// 3. Boots a second Pyodide from that snapshot (as the worker does: the wasm instantiated, its
//    memory grown, then restored), keeps a copy of the fresh memory (as instantiated, before the
//    constructors ran: the wasm's data segments), and checks that it answers
//    urlcalc.answers.warmup.REQUESTS exactly as the first one did.
// 4. Writes OUT_DIR/snapshot.bin: "UCSN", a uint32 header length, a JSON header, then the
//    snapshot XOR the fresh memory (what the wasm's own data segments already hold becomes zeros),
//    trailing zeros dropped. The header: format, pyodide (version), bundle (sha256 of BUNDLE.zip),
//    size (the snapshot's), body (bytes that follow), fresh (the length of the fresh memory up
//    to its last nonzero byte), fresh_offset (where the memory starts in Pyodide's snapshot),
//    fresh_hash and body_hash (hash32 below, hex). web/js/workers/pyodide-worker.js rebuilds the snapshot from it
//    and refuses it when a length or hash differs.
// 5. Writes OUT_DIR/<name>.br for snapshot.bin and the big Pyodide files (brotli, quality 11,
//    window 2^24), snapshot.bin.gz (level 9), each reused when its source has not changed, and
//    OUT_DIR/snapshot.json, the manifest urlcalc's server and export read: the key (pyodide: the
//    version, wasm: the sha256 of pyodide.asm.wasm, bundle: of BUNDLE.zip), size (the snapshot's:
//    boot.json gives it to the worker) and for each .br and .gz the sha256 and size of its source.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync, mkdirSync, renameSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import zlib from "node:zlib";

const [pyodideDir, bundlePath, outDir] = process.argv.slice(2);
if (!outDir) {
  process.stderr.write("usage: node web/tools/make-snapshot.mjs PYODIDE_DIR BUNDLE.zip OUT_DIR\n");
  process.exit(2);
}
const t0 = performance.now();
const say = (text) => process.stderr.write(`make-snapshot: ${text} (${((performance.now() - t0) / 1000).toFixed(1)} s)\n`);
const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

/** The worker's hash of a byte range (a multiple of 4 bytes): FNV-1a over little-endian words. */
export function hash32(bytes) {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2);
  let h = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i], 0x01000193);
  return (h >>> 0).toString(16).padStart(8, "0");
}

const { loadPyodide, version } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const { default: createModule } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.asm.mjs")).href);
const bundle = new Uint8Array(readFileSync(bundlePath));

async function unpacked(py) {
  const site = py.runPython("import sys, sysconfig\nsys.dont_write_bytecode = True\nsysconfig.get_paths()['purelib']");
  py.unpackArchive(bundle, "zip", { extractDir: site });
}

const ANSWERS = `
import json
from urlcalc.answers.answer import dispatch_json
from urlcalc.answers.warmup import REQUESTS
json.dumps([dispatch_json(kind, json.dumps(params)) for kind, params in REQUESTS])
`;

// --- 1, 2: the snapshot -----------------------------------------------------------------------
const py = await loadPyodide({ indexURL: pyodideDir + path.sep, _makeSnapshot: true, packages: [] });
await unpacked(py);
py.runPython(`
import gc, sys, zipimport, importlib
from urlcalc.answers.warmup import warm_up
warm_up()
# A snapshot boot has no standard library zip: forget its directory (a later import fails with
# ModuleNotFoundError instead of reading a file that is not there).
zipimport._zip_directory_cache.clear()
sys.path_importer_cache.clear()
importlib.invalidate_caches()
gc.collect()
gc.freeze()
`);
const expected = py.runPython(ANSWERS);
say("warmed up");
const M = py._module;
const brk = () => M.HEAPU32[M._emscripten_get_sbrk_ptr() >>> 2];
{
  // Free chunks: take every block malloc gives below the break, zero it, give it back.
  const top = brk();
  const held = [];
  for (let size = 1 << 22; size >= 16; size >>= 1) {
    for (;;) {
      const p = M._malloc(size);
      if (!p) break;
      if (p + size > top) {
        M._free(p);
        break;
      }
      held.push([p, size]);
    }
  }
  for (const [p, size] of held) M.HEAPU8.fill(0, p, p + size);
  for (const [p] of held) M._free(p);
  M.HEAPU8.fill(0, brk(), M.HEAPU8.length);
  // The stack grows down from its base: below the current pointer is garbage of earlier calls.
  M.HEAPU8.fill(0, M._emscripten_stack_get_end(), M._emscripten_stack_get_current() - 1024);
}
const snapshot = py.makeMemorySnapshot();
say(`snapshot taken: ${snapshot.length} bytes`);

// --- 3: boot from it, keep the fresh memory, compare the answers --------------------------------
let fresh = null;
const grown = async (settings) => {
  // The memory as instantiated, before any code ran: the wasm's data segments, the same wherever
  // it runs (after the constructors it is not: they allocate, and node's environment is not a
  // browser's).
  const instantiate = settings.instantiateWasm;
  settings.instantiateWasm = (imports, receive) => instantiate(imports, (instance, wasmModule) => {
    fresh = new Uint8Array(instance.exports.memory.buffer).slice();
    receive(instance, wasmModule);
  });
  const module = await createModule(settings);
  const held = [];
  while (module.HEAPU8.length < snapshot.length && held.length < 256) held.push(module._malloc(4 << 20));
  for (const p of held) module._free(p);
  return module;
};
const restored = await loadPyodide({
  indexURL: pyodideDir + path.sep, _loadSnapshot: snapshot.slice(), createPyodideModule: grown, packages: [],
});
if (restored.runPython(ANSWERS) !== expected) throw new Error("the restored snapshot answers differently");
say("restored and checked");

// --- 4: snapshot.bin ----------------------------------------------------------------------------
const body = snapshot.slice();
const offset = new Uint32Array(body.buffer, 0, 4)[1]; // where Pyodide's copy of the memory starts
for (let i = 0; i < fresh.length && offset + i < body.length; i++) body[offset + i] ^= fresh[i];
let end = body.length;
while (end > 0 && body[end - 1] === 0) end--;
end = (end + 3) & ~3;
// Beyond the data segments the instantiated memory is zeros (wasm memory starts zeroed): the
// worker hashes and XORs only up to the last nonzero byte.
let freshEnd = fresh.length;
while (freshEnd > 0 && fresh[freshEnd - 1] === 0) freshEnd--;
const freshLength = (freshEnd + 3) & ~3;
const header = new TextEncoder().encode(JSON.stringify({
  format: 1,
  pyodide: version,
  bundle: sha256(bundle),
  size: snapshot.length,
  body: end,
  fresh: freshLength,
  fresh_offset: offset,
  fresh_hash: hash32(fresh.subarray(0, freshLength)),
  body_hash: hash32(body.subarray(0, end)),
}));
const padded = (header.length + 3) & ~3; // the body starts 4-aligned (hashed as words)
const file = new Uint8Array(8 + padded + end);
file.set(new TextEncoder().encode("UCSN"), 0);
new DataView(file.buffer).setUint32(4, padded, true);
file.fill(0x20, 8, 8 + padded);
file.set(header, 8);
file.set(body.subarray(0, end), 8 + padded);

// --- 5: brotli, the manifest ---------------------------------------------------------------------
mkdirSync(outDir, { recursive: true });
const manifestPath = path.join(outDir, "snapshot.json");
const old = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, "utf8")) : {};
const write = (name, bytes) => {
  const tmp = path.join(outDir, `${name}.tmp`);
  writeFileSync(tmp, bytes);
  renameSync(tmp, path.join(outDir, name));
};
write("snapshot.bin", file);
const sources = {
  "snapshot.bin": file,
  "pyodide.asm.wasm": readFileSync(path.join(pyodideDir, "pyodide.asm.wasm")),
  "pyodide.asm.mjs": readFileSync(path.join(pyodideDir, "pyodide.asm.mjs")),
  "pyodide-lock.json": readFileSync(path.join(pyodideDir, "pyodide-lock.json")),
};
// Asynchronous: zlib runs them on libuv's thread pool, all at once (snapshot.bin's brotli alone
// takes most of a minute; the others finish beside it on a second core).
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const packers = {
  br: (bytes) => brotli(bytes, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
      [zlib.constants.BROTLI_PARAM_LGWIN]: 24,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  }),
  gz: (bytes) => gzip(bytes, { level: 9 }),
};
// gzip only for the snapshot (urlcalc's server gzips the others itself, and caches them).
const made = { br: {}, gz: {} };
const packing = []; // [coding, name, its entry or the promise of it], in this loop's order
for (const [name, bytes] of Object.entries(sources)) {
  const digest = sha256(bytes);
  for (const coding of name === "snapshot.bin" ? ["br", "gz"] : ["br"]) {
    const known = old[coding]?.[name];
    if (known?.sha256 === digest && existsSync(path.join(outDir, `${name}.${coding}`))) {
      packing.push([coding, name, known]);
      continue;
    }
    packing.push([coding, name, packers[coding](bytes).then((packed) => {
      write(`${name}.${coding}`, packed);
      say(`${name}: ${bytes.length} bytes, ${packed.length} as ${coding}`);
      return { sha256: digest, size: bytes.length, packed: packed.length };
    })]);
  }
}
for (const [coding, name, entry] of packing) made[coding][name] = await entry;
const key = { pyodide: version, wasm: sha256(sources["pyodide.asm.wasm"]), bundle: sha256(bundle), size: snapshot.length };
write("snapshot.json", JSON.stringify({ ...key, ...made }, null, 1) + "\n");
say(`done: snapshot.bin ${file.length} bytes (${made.br["snapshot.bin"].packed} brotli)`);
