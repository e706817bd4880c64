/**
 * A real S3-protocol server for tests: s3rver (from the npm registry) on a free loopback port,
 * keeping its objects in a temporary directory, with one bucket made at start. Bun's S3 client talks
 * to it as to AWS S3, MinIO or R2: signed requests, multipart uploads, ranged GETs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";

export interface S3Server {
  /** the S3_* variables that point the service at it */
  env: { S3_ENDPOINT: string; S3_BUCKET: string; S3_REGION: string; S3_ACCESS_KEY_ID: string; S3_SECRET_ACCESS_KEY: string };
  /** the objects' directory (s3rver's own layout) */
  directory: string;
  stop(): Promise<void>;
}

export async function startS3Server(bucket = "linkbot-files"): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), "linkbot-s3-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  return {
    // s3rver accepts exactly this key pair
    env: {
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: bucket,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
    },
    directory,
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
