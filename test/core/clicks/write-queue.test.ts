import { expect, test } from "bun:test";
import { createWriteQueue, MAX_WRITE, writeLimit } from "../../../core/clicks/write-queue";
import { packClicks, packedLength, type PackedClicks } from "../../../core/clicks/packed";
import type { ClickWriter } from "../../../core/clicks/writer";
import { silentLogger } from "../../../core/log";

const batchOf = (n: number, from: number) =>
  packClicks(
    Array.from({ length: n }, (_, i) => ({
      linkId: 1,
      clickedAt: new Date(0),
      ip: null,
      userAgent: null,
      referer: null,
      isBot: false,
      botName: null,
      seq: from + i,
    })),
  );

test("a backlog is written in transactions of at most MAX_WRITE clicks, oldest first, each followed by its journal mark", async () => {
  const writes: number[] = [];
  const marks: number[] = [];
  let slow: Promise<void> | null = new Promise((r) => setTimeout(r, 30));
  const writer: ClickWriter = {
    async write(batch: PackedClicks) {
      if (slow) await slow; // the first write is slow: the backlog builds up behind it
      slow = null;
      writes.push(packedLength(batch));
      return packedLength(batch);
    },
    async committedSeq() {
      return 0;
    },
  };
  const queue = createWriteQueue(writer, silentLogger, (seq) => marks.push(seq));
  queue.add(batchOf(10, 1));
  const first = queue.flush();
  await Bun.sleep(5); // the first write is under way
  const size = (MAX_WRITE * 2) / 5; // two fit in a transaction, three do not
  for (let i = 0; i < 9; i++) queue.add(batchOf(size, 11 + i * size)); // arrives while the first write runs
  expect(queue.pending).toBe(9 * size);
  const second = queue.flush();
  // the flush under way goes on with what arrived meanwhile, part after part; the second finds nothing left
  expect(await first).toBe(9 * size + 10);
  expect(await second).toBe(0);
  expect(writes).toEqual([10, 2 * size, 2 * size, 2 * size, 2 * size, size]);
  expect(writes.every((n) => n <= MAX_WRITE)).toBe(true);
  expect(marks).toEqual([10, 2 * size + 10, 4 * size + 10, 6 * size + 10, 8 * size + 10, 9 * size + 10]);
  expect(queue.pending).toBe(0);
});

test("a batch larger than MAX_WRITE is written in parts of MAX_WRITE, in order, each followed by its mark", async () => {
  const writes: number[] = [];
  const firsts: number[] = [];
  const marks: number[] = [];
  const writer: ClickWriter = {
    async write(batch: PackedClicks) {
      writes.push(packedLength(batch));
      firsts.push(batch.nums[5]!);
      return packedLength(batch);
    },
    async committedSeq() {
      return 0;
    },
  };
  const queue = createWriteQueue(writer, silentLogger, (seq) => marks.push(seq));
  queue.add(batchOf(2 * MAX_WRITE + 7, 1));
  expect(await queue.flush()).toBe(2 * MAX_WRITE + 7);
  expect(writes).toEqual([MAX_WRITE, MAX_WRITE, 7]);
  expect(firsts).toEqual([1, MAX_WRITE + 1, 2 * MAX_WRITE + 1]);
  expect(marks).toEqual([MAX_WRITE, 2 * MAX_WRITE, 2 * MAX_WRITE + 7]);
});

test("a sink with a small memory cap writes in parts of at most half of it, also what was held when its database came back", async () => {
  const writes: number[] = [];
  let down = true;
  const writer: ClickWriter = {
    async write(batch: PackedClicks) {
      if (down) throw Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
      writes.push(packedLength(batch));
      return packedLength(batch);
    },
    async committedSeq() {
      return 0;
    },
  };
  expect([writeLimit(1000), writeLimit(200_000), writeLimit(undefined), writeLimit(1)]).toEqual([500, MAX_WRITE, MAX_WRITE, 1]);
  const queue = createWriteQueue(
    writer,
    silentLogger,
    () => {},
    () => {},
    writeLimit(1000),
  );
  // seven live batches of 200 arrive while every write fails: all are kept, in order
  for (let i = 0; i < 7; i++) {
    queue.add(batchOf(200, 1 + i * 200));
    await expect(queue.flush()).rejects.toThrow("database is locked");
  }
  expect(queue.pending).toBe(1400);
  down = false;
  expect(await queue.flush()).toBe(1400);
  expect(writes).toEqual([400, 400, 400, 200]);
});
