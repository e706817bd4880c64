/**
 * A real PostgreSQL server for tests, from Debian's `postgresql` package. PostgreSQL refuses to run
 * as root, so under root the binaries run as the `postgres` system user in a temporary directory it
 * owns (under any other user, as that user); the server listens on a free loopback port and on a
 * unix socket inside that directory.
 *
 * The service connects as an ordinary role (no superuser, no CREATEDB) that owns each database it
 * is given, which is all cluster mode may assume. Administrative steps (roles, databases, killing a
 * backend) go through `psql` as the `postgres` user over the socket.
 *
 * When the server cannot start, `startPostgres` throws with the server's log: a PostgreSQL test
 * fails loudly, it is never skipped. However the test process ends, the server is stopped and its
 * directory removed (reaper.ts).
 */
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { execFileSync } from "node:child_process";
import { freePort } from "./free-port";
import { afterAll, beforeAll } from "bun:test";
import { cleanUpAtExit, tempDir } from "./reaper";

/** Debian installs each major version under /usr/lib/postgresql/<major>/bin: take the newest. */
function serverBin(): string {
  const root = "/usr/lib/postgresql";
  const majors = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, "bin/postgres"))) : [];
  if (majors.length === 0) throw new Error(`PostgreSQL is not installed (no ${root}/<version>/bin/postgres): apt-get install postgresql`);
  return join(root, String(Math.max(...majors.map(Number))), "bin");
}
const OS_USER = "postgres";
export const APP_ROLE = "linkbot";

export interface PgServer {
  /** a fresh database owned by the ordinary role, made when the server started */
  url: string;
  port: number;
  /** Creates another fresh database owned by the ordinary role and returns its URL. */
  createDatabase(): Promise<string>;
  /** Runs SQL as the superuser (over the unix socket) in `database`; returns psql's unaligned output. */
  admin(sql: string, database?: string): Promise<string>;
  /** Stops the server (fast shutdown: sessions are ended, data kept) and leaves it stopped until `resume`, as an outage. */
  halt(): Promise<void>;
  /** Starts the halted server again on the same port with the same data. */
  resume(): Promise<void>;
  /** Stops the server at once and removes its directory. */
  stop(): Promise<void>;
  /** The same, synchronously (for a process's exit hook). */
  stopSync(): void;
  /** How to run psql as the superuser synchronously: the command (as the postgres user), the socket directory and port. */
  adminCommand(): { psql: string[]; socketDir: string; port: number };
}

function osIds(): { uid: number; gid: number } {
  const uid = Number(execFileSync("id", ["-u", OS_USER], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", OS_USER], { encoding: "utf8" }).trim());
  if (!Number.isInteger(uid) || !Number.isInteger(gid))
    throw new Error(`no system user "${OS_USER}" (install Debian's postgresql package)`);
  return { uid, gid };
}

/** Runs a PostgreSQL binary as the postgres user; resolves with its output or rejects with it. */
async function asPostgres(args: string[], input?: string): Promise<string> {
  const asRoot = process.getuid?.() === 0;
  const cmd = asRoot ? ["runuser", "-u", OS_USER, "--", ...args] : args;
  const proc = Bun.spawn(cmd, { stdin: input === undefined ? "ignore" : new TextEncoder().encode(input), stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${args.map((a) => a.split("/").pop()).join(" ")} exited with ${code}:\n${err}${out}`);
  return out;
}

const CLUSTER = Symbol.for("linkbot.pgInitdb");

/**
 * Makes the files of a new, never-started cluster at `data`: initdb once per test process (its
 * bootstrap is most of a server's start, about 2 s), and a copy of those files for every server
 * after the first (about 0.15 s), each then started, given its role and its databases on its own.
 */
async function newCluster(BIN: string, data: string): Promise<void> {
  const holder = globalThis as { [CLUSTER]?: Promise<string> };
  holder[CLUSTER] ??= (async () => {
    const dir = tempDir("linkbot-pg-initdb-");
    if (process.getuid?.() === 0) {
      const { uid, gid } = osIds();
      chownSync(dir, uid, gid);
    }
    chmodSync(dir, 0o700);
    const files = join(dir, "data");
    await asPostgres([
      `${BIN}/initdb`,
      "-D",
      files,
      "-U",
      "postgres",
      "--auth-local=trust",
      "--auth-host=scram-sha-256",
      "--no-sync",
      "-E",
      "UTF8",
      "--locale=C",
    ]);
    return files;
  })();
  await asPostgres(["cp", "-a", await holder[CLUSTER], data]);
}

/**
 * Starts a throwaway PostgreSQL server and makes one database for the ordinary role. With `keep`
 * (a directory; benchmarks that seed for an hour) the server's files live there and stay when it
 * stops, and a later start in the same directory finds the same database again.
 */
export async function startPostgres(how: { keep?: string } = {}): Promise<PgServer> {
  const BIN = serverBin();
  const kept = how.keep !== undefined && existsSync(join(how.keep, "data"));
  const dir = how.keep ?? mkdtempSync(join(tmpdir(), "linkbot-pg-"));
  if (how.keep) mkdirSync(dir, { recursive: true });
  // however this process ends (a failure, SIGINT, SIGKILL): the server stopped, its directory removed (unless kept)
  const asUser = (cmd: string[]) => (process.getuid?.() === 0 ? ["runuser", "-u", OS_USER, "--", ...cmd] : cmd);
  const forgetDir = how.keep ? () => {} : cleanUpAtExit({ remove: dir });
  const removeDir = () => void (how.keep || rmSync(dir, { recursive: true, force: true }));
  let forgetServer = () => {};
  // as root the server runs as the postgres user, which must own its directory; otherwise as ourselves
  if (process.getuid?.() === 0) {
    const { uid, gid } = osIds();
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const data = join(dir, "data");
  const log = join(dir, "server.log");
  const serverLog = () => (existsSync(log) ? readFileSync(log, "utf8") : "(no server log)");
  const passwordFile = join(dir, "password");
  const password = kept ? readFileSync(passwordFile, "utf8") : randomBytes(18).toString("base64url");
  let port = 0;
  let options = "";
  let started = false;
  try {
    // trust on the private socket (only the postgres user can enter the directory); passwords over TCP
    if (!kept) await newCluster(BIN, data);
    // a port found free can be taken before the server binds it: try a few
    for (let attempt = 1; !started; attempt++) {
      port = await freePort();
      options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
      try {
        forgetServer = cleanUpAtExit({ run: asUser([`${BIN}/pg_ctl`, "-D", data, "-m", "immediate", "-w", "stop"]) });
        await asPostgres([`${BIN}/pg_ctl`, "-D", data, "-l", log, "-w", "-t", "60", "-o", options, "start"]);
        started = true;
      } catch (e) {
        forgetServer();
        if (attempt >= 3) throw e;
      }
    }
    const psql = (sql: string, database = "postgres") =>
      asPostgres(
        [`${BIN}/psql`, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", dir, "-p", String(port), "-U", "postgres", "-d", database],
        sql,
      );
    let n = 0;
    if (kept) n = 1;
    else {
      await psql(`CREATE ROLE ${APP_ROLE} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '${password}';`);
      if (how.keep) writeFileSync(passwordFile, password);
    }
    const createDatabase = async () => {
      const name = `linkbot_${++n}`;
      await psql(`CREATE DATABASE ${name} OWNER ${APP_ROLE};`);
      return `postgres://${APP_ROLE}:${password}@127.0.0.1:${port}/${name}`;
    };
    const url = kept ? `postgres://${APP_ROLE}:${password}@127.0.0.1:${port}/linkbot_1` : await createDatabase();
    return {
      url,
      port,
      createDatabase,
      admin: psql,
      async halt() {
        await asPostgres([`${BIN}/pg_ctl`, "-D", data, "-m", "fast", "-w", "stop"]);
      },
      async resume() {
        await asPostgres([`${BIN}/pg_ctl`, "-D", data, "-l", log, "-w", "-t", "60", "-o", options, "start"]);
      },
      async stop() {
        await asPostgres([`${BIN}/pg_ctl`, "-D", data, "-m", how.keep ? "fast" : "immediate", "-w", "stop"]).catch(() => {});
        removeDir();
        forgetServer();
        forgetDir();
      },
      stopSync() {
        Bun.spawnSync(asUser([`${BIN}/pg_ctl`, "-D", data, "-m", "immediate", "-w", "stop"]), { stdout: "ignore", stderr: "ignore" });
        removeDir();
        forgetServer();
        forgetDir();
      },
      adminCommand() {
        return { psql: asUser([`${BIN}/psql`, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1"]), socketDir: dir, port };
      },
    };
  } catch (e) {
    const message = `PostgreSQL test server could not start: ${(e as Error).message}\n--- server log ---\n${serverLog()}`;
    if (started) await asPostgres([`${BIN}/pg_ctl`, "-D", data, "-m", "immediate", "stop"]).catch(() => {});
    removeDir();
    forgetServer();
    forgetDir();
    throw new Error(message);
  }
}

/**
 * One PostgreSQL server for a test file, started before its tests and stopped after them, and the
 * temporary directories its tests make (`tmp`), removed then too.
 */
export function postgresForFile(): { readonly pg: PgServer; tmp(prefix: string): string } {
  let server: PgServer | undefined;
  const dirs: string[] = [];
  beforeAll(async () => void (server = await startPostgres()));
  afterAll(async () => {
    await server?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return {
    get pg() {
      if (!server) throw new Error("the PostgreSQL server starts in beforeAll");
      return server;
    },
    tmp(prefix) {
      const d = tempDir(prefix);
      dirs.push(d);
      return d;
    },
  };
}
