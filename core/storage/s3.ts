import type { S3Config } from "../../config";
import type { FileStore } from "./index";

/** Multipart part size: S3's minimum, so an upload holds at most one part in memory. */
const PART_BYTES = 5 * 1024 * 1024;

/**
 * Files in S3-compatible object storage (AWS S3, MinIO, Cloudflare R2 …) through Bun's built-in S3
 * client: an upload streams as a multipart upload, which the service makes visible only when it
 * completes; a range read is a ranged GET. Uploads cut off by a crash leave incomplete multipart
 * uploads, which the bucket's lifecycle rule removes (see docs/cluster.md).
 */
export function createS3Store(config: S3Config): FileStore {
  const client = new Bun.S3Client({
    bucket: config.bucket,
    region: config.region,
    accessKeyId: config.accessKeyId,
    secretAccessKey: config.secretAccessKey,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
  });
  return {
    driver: "s3",
    async put(key, source) {
      const writer = client.file(key).writer({ partSize: PART_BYTES, type: "application/octet-stream" });
      let size = 0;
      try {
        for await (const chunk of source) {
          size += chunk.length;
          await writer.write(chunk);
        }
        await writer.end();
      } catch (e) {
        // ending with an error abandons the multipart upload; the delete covers a small file already sent whole
        await Promise.resolve(writer.end(e as Error)).catch(() => undefined);
        await client.delete(key).catch(() => undefined);
        throw e;
      }
      return size;
    },
    async open(key) {
      let size: number;
      try {
        size = (await client.stat(key)).size;
      } catch (e) {
        if ((e as { code?: string }).code === "NoSuchKey" || (e as { code?: string }).code === "NotFound") return null;
        throw e;
      }
      const file = client.file(key);
      return {
        size,
        body: (range) => (range ? atMost(file.slice(range.start, range.end + 1).stream(), range.end - range.start + 1) : file.stream()),
      };
    },
    async remove(key) {
      await client.delete(key);
    },
    async sweep() {
      return 0;
    },
  };
}

/**
 * The first `length` bytes of `stream`. A ranged GET should answer exactly the range, but not every
 * S3-compatible server does (s3rver answers `bytes=0-0` with the whole object); the response's
 * Content-Length promises the range, so no more than that may follow.
 */
function atMost(stream: ReadableStream<Uint8Array>, length: number): ReadableStream<Uint8Array> {
  let left = length;
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (left <= 0) return;
        controller.enqueue(chunk.length <= left ? chunk : chunk.subarray(0, left));
        left -= chunk.length;
        if (left <= 0) controller.terminate();
      },
    }),
  );
}
