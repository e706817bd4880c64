/**
 * Raw HTTP/1.1 over a TCP socket, for what fetch cannot send: a chunked body that keeps coming,
 * a made-up Content-Length, oversized headers. Resolves with the status and body of the answer.
 */
import { connect } from "node:net";

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** milliseconds from the first byte sent to the answer's head */
  ms: number;
}

/**
 * Sends `head` (request line and headers, without the blank line), then `body` chunks as they are
 * pulled, and resolves as soon as a whole answer arrived (or rejects after `timeoutMs`).
 */
export function rawRequest(
  port: number,
  head: string,
  body?: { chunk: string; times: number; chunked: boolean },
  timeoutMs = 5000,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(port, "127.0.0.1");
    let received = "";
    let done = false;
    const finish = (fn: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      fn();
    };
    const timer = setTimeout(() => finish(() => reject(new Error(`no answer within ${timeoutMs} ms`))), timeoutMs);
    socket.on("error", () => {}); // the server may close while we still write: the answer is what counts
    socket.on("data", (d) => {
      received += d.toString("latin1");
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return;
      const [statusLine = "", ...lines] = received.slice(0, end).split("\r\n");
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      const length = Number(headers["content-length"] ?? 0);
      const rest = received.slice(end + 4);
      if (Buffer.byteLength(rest, "latin1") < length) return;
      finish(() =>
        resolve({ status: Number(statusLine.split(" ")[1]), headers, body: rest.slice(0, length), ms: performance.now() - started }),
      );
    });
    socket.on("close", () =>
      finish(() => reject(new Error(`connection closed without a whole answer: ${JSON.stringify(received.slice(0, 200))}`))),
    );
    socket.on("connect", async () => {
      socket.write(`${head}\r\n\r\n`);
      if (!body) return;
      for (let i = 0; i < body.times && !done && !socket.destroyed; i++) {
        const payload = body.chunked ? `${Buffer.byteLength(body.chunk).toString(16)}\r\n${body.chunk}\r\n` : body.chunk;
        if (!socket.write(payload)) await new Promise((r) => socket.once("drain", r).once("close", r));
      }
      if (body.chunked && !done && !socket.destroyed) socket.write("0\r\n\r\n");
    });
  });
}
