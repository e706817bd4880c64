/**
 * A click writer thread that dies on its first batch without writing it (as a thread crash would),
 * for the test of what the request side does then.
 */
declare const self: Worker;

self.onmessage = (e: MessageEvent<{ type: string }>) => {
  if (e.data.type === "clicks") process.exit(1); // ends this thread only
};
