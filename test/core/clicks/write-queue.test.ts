import { expect, test } from "bun:test";
import { createWriteQueue, MAX_WRITE } from "../../../core/clicks/write-queue";
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
  for (let i = 0; i < 9; i++) queue.add(batchOf(20_000, 11 + i * 20_000)); // arrives while the first write runs
  expect(queue.pending).toBe(180_000);
  const second = queue.flush();
  // the flush under way goes on with what arrived meanwhile, part after part; the second finds nothing left
  expect(await first).toBe(180_010);
  expect(await second).toBe(0);
  expect(writes).toEqual([10, 40_000, 40_000, 40_000, 40_000, 20_000]);
  expect(writes.every((n) => n <= MAX_WRITE)).toBe(true);
  expect(marks).toEqual([10, 40_010, 80_010, 120_010, 160_010, 180_010]);
  expect(queue.pending).toBe(0);
});
