/**
 * Streaming multipart parsing for uploads: the request body is piped through busboy and the field
 * `file` handed on as a stream, so nothing is buffered in memory. The whole body is also counted.
 */
import busboy from "busboy";
import { Readable } from "node:stream";
import { AppError, FieldError, TooLarge, ValidationError } from "../../core/errors";
import { MAX_UPLOAD_BYTES } from "../../core/secure/storage";
import { MAX_UPLOAD_BODY } from "../shared/body";

export interface UploadInfo {
  filename: string;
  mimeType: string;
}

/** Calls `onFile` with the stream of the multipart field `file`; rejects 415/400/413 on bad bodies. */
export function withUploadedFile<T>(request: Request, onFile: (stream: Readable, info: UploadInfo) => Promise<T>): Promise<T> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type))
    return Promise.reject(new AppError(415, "unsupported_media_type", "Send multipart/form-data with the file in the field `file`"));
  if (!request.body) return Promise.reject(new FieldError("file", "is required"));
  let bb: busboy.Busboy;
  try {
    bb = busboy({
      headers: { "content-type": type },
      defParamCharset: "utf8",
      limits: { files: 1, fields: 20, fieldSize: 64 * 1024, parts: 40 },
    });
  } catch (e) {
    return Promise.reject(new ValidationError(`Malformed multipart body: ${(e as Error).message}`));
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const source: Readable = (Readable as any).fromWeb(request.body);

  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let pending: Promise<T> | null = null;
    let fileStream: Readable | null = null;
    let total = 0;
    const finish = (err: unknown, value?: T) => {
      if (settled) return;
      settled = true;
      source.unpipe(bb);
      if (err) {
        source.destroy();
        reject(err);
      } else resolve(value as T);
    };
    // after a failure of the file's consumer (which cleans up), or of the body itself
    const fail = (err: unknown) => {
      if (pending && fileStream && !fileStream.destroyed) fileStream.destroy(err as Error);
      if (pending)
        pending.then(
          () => finish(err),
          () => finish(err),
        );
      else finish(err);
    };
    source.on("data", (chunk: Uint8Array) => {
      total += chunk.length;
      if (total > MAX_UPLOAD_BODY) fail(new TooLarge(`The file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`));
    });
    source.on("error", (e) => fail(new ValidationError(`The upload was interrupted: ${e.message}`)));
    bb.on("file", (name, stream, info) => {
      if (name !== "file" || pending) {
        stream.resume();
        return;
      }
      fileStream = stream;
      // busboy errors the file stream when the body ends inside the part (no closing boundary)
      let malformed: ValidationError | null = null;
      stream.on("error", (e) => (malformed ??= new ValidationError(`Malformed multipart body: ${e.message}`)));
      pending = onFile(stream, { filename: info.filename ?? "file", mimeType: info.mimeType });
      pending.then(
        (v) => finish(null, v),
        (e) => {
          stream.resume();
          finish(e instanceof AppError ? e : (malformed ?? e));
        },
      );
    });
    bb.on("close", () => {
      if (!pending) finish(new FieldError("file", "is required (multipart field `file`)"));
    });
    bb.on("error", (e: unknown) => fail(new ValidationError(`Malformed multipart body: ${(e as Error).message}`)));
    source.pipe(bb);
  });
}
