// The shared-buffer hand-off between a worker and the page (web/js/sync-channel.js): an answer
// put by the worker's end is read whole by the page's end, only for the id it waits for; an
// answer that does not fit, or does not come in time, is a miss (the page then takes the
// worker's message). Node has SharedArrayBuffer but is not a cross-origin isolated page.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Worker } from "node:worker_threads";

import { SyncChannel, channelAvailable, channelFrom, channelWriter } from "../../web/js/sync-channel.js";

test("an answer put for an id is read whole, with its timings", () => {
  const channel = new SyncChannel(1024);
  const put = channelWriter(channel.buffer);
  const text = JSON.stringify({ input: "https://ex\u00e4mple.com/\u{1F600}", n: 1 });
  put(7, text, { python_ms: 2.5, got_at: 10, sent_at: 12.5 });
  const got = channel.wait(7, 0);
  assert.deepEqual(got, { text, times: { python_ms: 2.5, got_at: 10, sent_at: 12.5 } });
  assert.equal(channel.waits, 1);
  assert.equal(channel.misses, 0);
});

test("the page does not take another id's answer, and gives up at its deadline", () => {
  const channel = new SyncChannel(1024);
  channelWriter(channel.buffer)(3, '"old"');
  const t = performance.now();
  assert.equal(channel.wait(4, 5), null);
  assert.ok(performance.now() - t >= 5);
  assert.equal(channel.misses, 1);
});

test("an answer bigger than the buffer is a miss, at once", () => {
  const channel = new SyncChannel(16);
  channelWriter(channel.buffer)(1, JSON.stringify("x".repeat(100)));
  const t = performance.now();
  assert.equal(channel.wait(1, 1000), null);
  assert.ok(performance.now() - t < 500, "a too-big answer ends the wait when it is put");
  assert.equal(channel.misses, 1);
  // the next answer that fits is read as usual
  channelWriter(channel.buffer)(2, '"ok"');
  assert.equal(channel.wait(2, 0).text, '"ok"');
});

test("a page waits for an answer another thread puts", async () => {
  const channel = new SyncChannel(1024);
  const module = new URL("../../web/js/sync-channel.js", import.meta.url).href;
  const code = `import { channelWriter } from ${JSON.stringify(module)};
    import { workerData } from "node:worker_threads";
    setTimeout(() => channelWriter(workerData.buffer)(9, '"from the worker"'), 20);`;
  const worker = new Worker(new URL("data:text/javascript," + encodeURIComponent(code)),
    { workerData: { buffer: channel.buffer } });
  try {
    const got = channel.wait(9, 5000);
    assert.equal(got?.text, '"from the worker"');
  } finally {
    await worker.terminate();
  }
});

test("only a cross-origin isolated page can wait", () => {
  assert.equal(channelAvailable(), false); // node: no crossOriginIsolated
});

test("a worker takes the page's buffer from its message, and nothing else", () => {
  const channel = new SyncChannel(64);
  const put = channelFrom({ type: "channel", buffer: channel.buffer });
  put(5, '"five"');
  assert.equal(channel.wait(5, 0).text, '"five"');
  assert.equal(channelFrom({ type: "channel", buffer: new ArrayBuffer(64) }), null);
  assert.equal(channelFrom({ id: 1, kind: "parse" }), null);
  assert.equal(channelFrom(null), null);
});

test("an answer put while the page copies the one before is not taken half-written", () => {
  const channel = new SyncChannel(1024);
  const put = channelWriter(channel.buffer);
  put(1, '"first"');
  // the worker is writing the next answer (odd sequence number): the page does not read
  Atomics.add(channel.state, 2, 1);
  assert.equal(channel.wait(1, 5), null);
  assert.equal(channel.misses, 1);
  Atomics.add(channel.state, 2, 1);
  // and a buffer rewritten between the page's two looks at the sequence number is a miss
  const realSlice = channel.data.slice.bind(channel.data);
  channel.data.slice = (...args) => {
    const copy = realSlice(...args);
    put(2, '"second"');
    return copy;
  };
  assert.equal(channel.wait(1, 5), null);
  assert.equal(channel.misses, 2);
  channel.data.slice = realSlice;
  assert.equal(channel.wait(2, 0).text, '"second"');
});

test("two answers put one after the other are each taken by the wait for its id", async () => {
  const channel = new SyncChannel(1024);
  const module = new URL("../../web/js/sync-channel.js", import.meta.url).href;
  const code = `import { channelWriter } from ${JSON.stringify(module)};
    import { workerData } from "node:worker_threads";
    const put = channelWriter(workerData.buffer);
    setTimeout(() => { put(1, '"parse"'); setTimeout(() => put(2, '"compare"'), 20); }, 20);`;
  const worker = new Worker(new URL("data:text/javascript," + encodeURIComponent(code)),
    { workerData: { buffer: channel.buffer } });
  try {
    assert.equal(channel.wait(1, 5000)?.text, '"parse"');
    assert.equal(channel.wait(2, 5000)?.text, '"compare"');
  } finally {
    await worker.terminate();
  }
});
