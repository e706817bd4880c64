import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../../config";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const PG = "postgres://u:p@db.internal:5432/linkbot";
const S3 = { S3_BUCKET: "linkbot-files", S3_ACCESS_KEY_ID: "AKIA1", S3_SECRET_ACCESS_KEY: "very-secret" };

test("FILE_STORAGE follows DATABASE_URL unless set: local on SQLite, postgres in cluster mode, s3 when asked", () => {
  dir = mkdtempSync(join(tmpdir(), "linkbot-storage-config-"));
  expect(loadConfig({ DATA_DIR: dir }).fileStorage).toBe("local");
  expect(loadConfig({ DATA_DIR: dir, DATABASE_URL: PG }).fileStorage).toBe("postgres");
  expect(loadConfig({ DATA_DIR: dir, DATABASE_URL: PG, FILE_STORAGE: "local" }).fileStorage).toBe("local");
  const s3 = loadConfig({
    DATA_DIR: dir,
    FILE_STORAGE: "S3",
    ...S3,
    S3_ENDPOINT: "https://acc.r2.cloudflarestorage.com/",
    S3_REGION: "auto",
  });
  expect(s3.fileStorage).toBe("s3");
  expect(s3.s3).toEqual({
    endpoint: "https://acc.r2.cloudflarestorage.com",
    bucket: "linkbot-files",
    region: "auto",
    accessKeyId: "AKIA1",
    secretAccessKey: "very-secret",
  });
  // AWS S3: no endpoint, region defaults to us-east-1
  expect(loadConfig({ DATA_DIR: dir, ...S3 }).s3).toMatchObject({ endpoint: null, region: "us-east-1" });
  expect(loadConfig({ DATA_DIR: dir }).s3).toBeNull();
});

test("a bad storage setting stops the start with one line naming the variable, never echoing the secret", () => {
  dir = mkdtempSync(join(tmpdir(), "linkbot-storage-config-"));
  const fails = (env: Record<string, string>) => {
    try {
      loadConfig({ DATA_DIR: dir, ...env });
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error("expected a configuration error");
  };
  expect(fails({ FILE_STORAGE: "nfs" })).toBe('FILE_STORAGE: expected local, postgres or s3, got "nfs"');
  expect(fails({ FILE_STORAGE: "postgres" })).toMatch(
    /^FILE_STORAGE: postgres keeps files in the database of DATABASE_URL, which is not set$/,
  );
  expect(fails({ FILE_STORAGE: "s3" })).toMatch(/^FILE_STORAGE: s3 needs S3_BUCKET/);
  expect(fails({ S3_BUCKET: "linkbot-files" })).toBe("S3_ACCESS_KEY_ID: is required when any S3_ variable is set");
  expect(fails({ ...S3, S3_SECRET_ACCESS_KEY: "", S3_ENDPOINT: "http://127.0.0.1:9000" })).toBe(
    "S3_SECRET_ACCESS_KEY: is required when any S3_ variable is set",
  );
  expect(fails({ ...S3, S3_BUCKET: "My_Bucket" })).toMatch(/^S3_BUCKET: expected a bucket name/);
  expect(fails({ ...S3, S3_ENDPOINT: "minio:9000" })).toMatch(/^S3_ENDPOINT: expected an/);
  expect(fails({ ...S3, S3_REGION: "EU West" })).toMatch(/^S3_REGION: /);
  for (const message of [fails({ ...S3, S3_BUCKET: "x" }), fails({ ...S3, S3_REGION: "?" })]) expect(message).not.toContain("very-secret");
});
