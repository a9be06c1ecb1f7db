// The shared-buffer hand-off between a worker and the page (web/js/engine/sync-channel.js): an answer
// put by the worker's end is read whole by the page's end, only for the id it waits for, even
// when the next answers were put first (up to SLOTS of them); an answer that does not fit, or
// does not come in time, is a miss (the page then takes the worker's message). Node has SharedArrayBuffer but is not a cross-origin isolated page.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Worker } from "node:worker_threads";

import { SLOTS, SyncChannel, channelAvailable, channelCounts, channelFrom, channelWriter } from "../../web/js/engine/sync-channel.js";

test("an answer put for an id is read whole, with its timings", () => {
  const channel = new SyncChannel("test 1", 1024);
  const put = channelWriter(channel.buffer);
  const text = JSON.stringify({ input: "https://ex\u00e4mple.com/\u{1F600}", n: 1 });
  put(7, text, { python_ms: 2.5, got_at: 10, sent_at: 12.5 });
  const got = channel.wait(7, 0);
  assert.deepEqual(got, { text, times: { python_ms: 2.5, got_at: 10, sent_at: 12.5 } });
  assert.equal(channel.waits, 1);
  assert.equal(channel.misses, 0);
});

test("the page does not take another id's answer, and gives up at its deadline", () => {
  const channel = new SyncChannel("test 2", 1024);
  channelWriter(channel.buffer)(3, '"old"');
  const t = performance.now();
  assert.equal(channel.wait(4, 5), null);
  assert.ok(performance.now() - t >= 5);
  assert.equal(channel.misses, 1);
});

test("an answer bigger than the buffer is a miss, at once", () => {
  const channel = new SyncChannel("test 3", 16);
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
  const channel = new SyncChannel("test 4", 1024);
  const module = new URL("../../web/js/engine/sync-channel.js", import.meta.url).href;
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
  const channel = new SyncChannel("test 5", 64);
  const put = channelFrom({ type: "channel", buffer: channel.buffer });
  put(5, '"five"');
  assert.equal(channel.wait(5, 0).text, '"five"');
  assert.equal(channelFrom({ type: "channel", buffer: new ArrayBuffer(64) }), null);
  assert.equal(channelFrom({ id: 1, kind: "parse" }), null);
  assert.equal(channelFrom(null), null);
});

test("an answer whose slot is reused while the page copies it is not taken half-written", () => {
  const channel = new SyncChannel("test 6", 1024);
  const put = channelWriter(channel.buffer);
  put(1, '"first"');
  const { state, data } = channel.slots[0];
  // the worker is writing into its slot (odd sequence number): the page does not read it
  Atomics.add(state, 2, 1);
  assert.equal(channel.wait(1, 5), null);
  assert.equal(channel.misses, 1);
  Atomics.add(state, 2, 1);
  // and a slot rewritten between the page's two looks at its sequence number is a miss: the
  // worker puts SLOTS more answers while the page copies the first (the last one into its slot)
  const realSlice = data.slice.bind(data);
  data.slice = (...args) => {
    const copy = realSlice(...args);
    for (let id = 2; id <= SLOTS + 1; id++) put(id, JSON.stringify(`answer ${id}`));
    return copy;
  };
  assert.equal(channel.wait(1, 5), null);
  assert.equal(channel.misses, 2);
  data.slice = realSlice;
  assert.equal(channel.wait(SLOTS + 1, 0).text, `"answer ${SLOTS + 1}"`);
});

test("answers put before the page looks are each kept until SLOTS answers later", () => {
  const channel = new SyncChannel("test 8", 1024);
  const put = channelWriter(channel.buffer);
  // the parse's answer and the view's, put before the page looks for the first (the page's
  // thread was not running): both are there
  put(1, '"parse"');
  put(2, '"compare"');
  assert.equal(channel.wait(1, 0)?.text, '"parse"');
  assert.equal(channel.wait(2, 0)?.text, '"compare"');
  // the slot of an answer is the oldest one's again SLOTS answers later
  for (let id = 3; id <= SLOTS + 1; id++) put(id, JSON.stringify(id));
  assert.equal(channel.wait(1, 0), null);
  assert.equal(channel.wait(2, 0)?.text, '"compare"');
  assert.equal(channel.wait(SLOTS + 1, 0)?.text, String(SLOTS + 1));
  assert.equal(channel.misses, 1);
});

test("two answers put one after the other are each taken by the wait for its id", async () => {
  const channel = new SyncChannel("test 7", 1024);
  const module = new URL("../../web/js/engine/sync-channel.js", import.meta.url).href;
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

test("each channel's answers and misses are counted under its name", () => {
  const channel = new SyncChannel("counted", 1024);
  channelWriter(channel.buffer)(1, "1");
  channel.wait(1, 0);
  channel.wait(2, 0);
  assert.deepEqual(channelCounts().counted, { waits: 1, misses: 1 });
});

test("an answer whose sequence number moved while the page looked is looked at again, not missed", () => {
  // (as when the page's thread was paused between reading the number and the id, and the
  // worker wrote the whole answer meanwhile: the copy is checked against an old number)
  const channel = new SyncChannel("test 9", 1024);
  channelWriter(channel.buffer)(1, '"first"');
  const { state, data } = channel.slots[0];
  const realSlice = data.slice.bind(data);
  let once = true;
  data.slice = (...args) => {
    if (once) {
      once = false;
      Atomics.add(state, 2, 2); // a whole write, between the page's two looks
    }
    return realSlice(...args);
  };
  assert.equal(channel.wait(1, 1000)?.text, '"first"');
  assert.equal(channel.misses, 0);
});
