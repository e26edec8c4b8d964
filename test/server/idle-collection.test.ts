import * as assert from "assert";
import * as v8 from "v8";
import { IdleCollector, compactingCollection } from "synclint-server/out/idle-collection";

const MB = 1024 * 1024;
/** Fills `kept` with every eighth of 400,000 objects, and the rest into an array that the returned function drops. */
function fillHeap(kept: object[]): () => void {
  let garbage: object[] | undefined = [];
  for (let i = 0; i < 400_000; i++) (i % 8 === 0 ? kept : garbage).push({ i, name: `object ${i}` });
  return () => {
    garbage = undefined;
  };
}

const oldSpaceSize = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === "old_space")!.space_size;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("language server: collecting the heap when idle", () => {
  /** A collector on a fake heap: `used` is what the heap holds, each collection is recorded. */
  function fakeHeap(idleMs = 40, growthBytes = 10 * MB) {
    const heap = { used: 5 * MB, collections: 0 };
    const collector = new IdleCollector({
      idleMs,
      growthBytes,
      heapUsed: () => heap.used,
      collect: () => {
        heap.collections++;
        heap.used = 6 * MB;
      },
    });
    return { heap, collector };
  }

  it("collects once the user has stopped typing for the idle time, after the heap grew enough", async () => {
    const { heap, collector } = fakeHeap();
    heap.used = 40 * MB;
    collector.keystroke();
    await sleep(15);
    assert.strictEqual(heap.collections, 0, "not before the idle time");
    await sleep(80);
    assert.strictEqual(heap.collections, 1);
    collector.dispose();
  });

  it("never collects while the user types: each keystroke restarts the wait, and so does each lint after one", async () => {
    const { heap, collector } = fakeHeap(60);
    heap.used = 40 * MB;
    for (let i = 0; i < 8; i++) {
      if (i % 2 === 0) collector.keystroke();
      else collector.activity();
      await sleep(20);
    }
    assert.strictEqual(heap.collections, 0);
    await sleep(120);
    assert.strictEqual(heap.collections, 1);
    collector.dispose();
  });

  it("does not collect when the heap grew less than the threshold since the last collection", async () => {
    const { heap, collector } = fakeHeap();
    heap.used = 40 * MB;
    collector.activity();
    await sleep(100);
    assert.strictEqual(heap.collections, 1);
    // After the collection the heap holds 6 MB: growing to 12 MB is under the 10 MB threshold.
    heap.used = 12 * MB;
    collector.activity();
    await sleep(100);
    assert.strictEqual(heap.collections, 1);
    heap.used = 20 * MB;
    collector.activity();
    await sleep(100);
    assert.strictEqual(heap.collections, 2);
    collector.dispose();
  });

  it("collects at once when files are linted while nobody types (a batch of opened tabs), each time the heap has grown enough", () => {
    const { heap, collector } = fakeHeap();
    heap.used = 12 * MB;
    collector.activity();
    assert.strictEqual(heap.collections, 0, "grown by 7 MB: under the threshold");
    heap.used = 16 * MB;
    collector.activity();
    assert.strictEqual(heap.collections, 1, "grown by 11 MB since the start");
    heap.used = 14 * MB;
    collector.activity();
    assert.strictEqual(heap.collections, 1, "grown by 8 MB since the collection left 6 MB");
    heap.used = 17 * MB;
    collector.activity();
    assert.strictEqual(heap.collections, 2);
    collector.dispose();
  });

  it("a lint soon after a keystroke waits for the pause, however much the heap grew", async () => {
    const { heap, collector } = fakeHeap(60);
    collector.keystroke();
    await sleep(20);
    heap.used = 40 * MB;
    collector.activity();
    assert.strictEqual(heap.collections, 0);
    await sleep(120);
    assert.strictEqual(heap.collections, 1, "collected once the pause came");
    collector.dispose();
  });

  it("stops waiting when disposed", async () => {
    const { heap, collector } = fakeHeap();
    heap.used = 40 * MB;
    collector.keystroke();
    collector.dispose();
    await sleep(100);
    assert.strictEqual(heap.collections, 0);
  });

  it("gets V8's full collection in this runtime, and it frees and compacts old garbage", () => {
    const collect = compactingCollection();
    assert.ok(collect, "Node no longer hands out its collector: the server would leave memory to V8");
    // Old-generation garbage with live objects scattered among it: what a lint leaves. Built in a function
    // of its own, so that no register of this frame still points at the garbage.
    const live: object[] = [];
    const dropGarbage = fillHeap(live);
    collect();
    const before = v8.getHeapStatistics().used_heap_size;
    const oldSpaceBefore = oldSpaceSize();
    dropGarbage();
    collect();
    const after = v8.getHeapStatistics().used_heap_size;
    assert.ok(before - after > 10 * MB, `the collection freed ${((before - after) / MB).toFixed(1)} MB`);
    // Every page of the garbage keeps live objects: a collection that does not move them gives back only the
    // pages it empties (16 MB here when run alone), one that compacts gives back nearly all (31 MB).
    const shrank = (oldSpaceBefore - oldSpaceSize()) / MB;
    assert.ok(shrank > 24, `the old space shrank by ${shrank.toFixed(1)} MB`);
    assert.strictEqual(live.length, 50_000);
  });
});
