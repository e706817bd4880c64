/**
 * `bun run bench channels [joins] [invites]`: one channel with 1,000,000 joins (default) spread over
 * 1,000 invites and a year, 40 % of them left again; prints p50/p99 of the channel figures
 * (`GET /api/channels/:id/stats`), the invite figures (`GET /api/invites/:id/stats`) and a page of the
 * join journal, in-process HTTP on SQLite. Prints figures; never fails on speed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../config";
import { createDeps } from "../app";
import { ManualClock } from "../core/clock";
import { createApi } from "../api/app";
import { upsertTelegramUser } from "../core/accounts/users";
import { signAccessToken } from "../core/tokens/jwt";

const JOINS = Number(process.argv[2] ?? 1_000_000);
const INVITES = Number(process.argv[3] ?? 1_000);
const NOW = Date.parse("2026-06-30T12:00:00Z");
const YEAR = 365 * 86_400_000;
const CHAT = "-1009000000001";

const dataDir = mkdtempSync(join(tmpdir(), "bench-channels-"));
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "error", RATE_LIMIT_API: "1000000" });
const deps = createDeps(config, { clock: new ManualClock(NOW) });
const app = createApi(deps);
const user = await upsertTelegramUser(deps, { id: 42, username: "bench" });
const token = await signAccessToken(deps, user.id);
const db = deps.handle.sqlite;

let seed = 1;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

const t0 = performance.now();
const channelId = (
  db
    .query(
      "INSERT INTO channels (user_id, chat_id, type, title, members, can_invite, bot_is_admin, created_at) VALUES (?, ?, 'channel', 'Bench', ?, 1, 1, ?) RETURNING id",
    )
    .get(user.id, CHAT, JOINS, NOW - YEAR) as { id: number }
).id;
const addInvite = db.query(
  "INSERT INTO channel_invites (user_id, channel_id, chat_id, name, invite_link, cost, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
);
const invites: number[] = [];
db.transaction(() => {
  for (let i = 0; i < INVITES; i++)
    invites.push(
      (
        addInvite.get(
          user.id,
          channelId,
          CHAT,
          `Ad ${i}`,
          `https://t.me/+bench${i}`,
          JSON.stringify({ amount: 100, currency: "USD" }),
          NOW - YEAR,
        ) as { id: number }
      ).id,
    );
})();
const addJoin = db.query(
  "INSERT INTO channel_joins (chat_id, member_id, first_name, invite_id, via, via_join_request, joined_at, left_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?)",
);
const BATCH = 20_000;
for (let done = 0; done < JOINS; done += BATCH)
  db.transaction(() => {
    for (let i = done; i < Math.min(JOINS, done + BATCH); i++) {
      const at = NOW - YEAR + Math.floor((i / JOINS) * YEAR);
      const attributed = rnd() < 0.9;
      const left = rnd() < 0.4 ? at + Math.floor(rnd() * 60 * 86_400_000) : null;
      addJoin.run(
        CHAT,
        1_000_000 + i,
        "Person",
        attributed ? invites[i % INVITES]! : null,
        attributed ? "invite" : "none",
        at,
        left !== null && left < NOW ? left : null,
      );
    }
  })();
// the counters the service keeps with the journal, as the bot's handler would have left them
db.exec(`UPDATE channel_invites SET joins = (SELECT count(*) FROM channel_joins j WHERE j.invite_id = channel_invites.id),
  leaves = (SELECT count(left_at) FROM channel_joins j WHERE j.invite_id = channel_invites.id)`);
db.query(
  "INSERT INTO channel_chat_counts (chat_id, joins, leaves) SELECT chat_id, count(joined_at), count(left_at) FROM channel_joins WHERE chat_id = ? GROUP BY chat_id",
).run(CHAT);
db.exec("ANALYZE");
console.log(
  `seeded ${JOINS.toLocaleString("en")} joins (about 40 % left again) over ${INVITES.toLocaleString("en")} invites in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);

async function measure(label: string, path: () => string, runs = 60) {
  const times: number[] = [];
  for (let i = 0; i < runs + 5; i++) {
    const s = performance.now();
    const res = await app.handle(new Request(`http://localhost${path()}`, { headers: { authorization: `Bearer ${token}` } }));
    await res.text();
    if (res.status !== 200) throw new Error(`${label}: ${res.status}`);
    if (i >= 5) times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
  console.log(`  ${label.padEnd(40)} p50 ${q(0.5).toFixed(2).padStart(8)} ms   p99 ${q(0.99).toFixed(2).padStart(8)} ms`);
}

let n = 0;
await measure("GET /api/channels/:id/stats", () => `/api/channels/${channelId}/stats`, 30);
await measure("GET /api/invites/:id/stats", () => `/api/invites/${invites[(n++ * 7919) % INVITES]}/stats`);
await measure("GET /api/invites/:id", () => `/api/invites/${invites[(n++ * 7919) % INVITES]}`);
await measure("GET /api/channels/:id/members (page 1)", () => `/api/channels/${channelId}/members?limit=50`);
await measure(
  "GET /api/channels/:id/members?invite_id",
  () => `/api/channels/${channelId}/members?limit=50&invite_id=${invites[(n++ * 7919) % INVITES]}`,
);
deps.handle.close();
rmSync(dataDir, { recursive: true, force: true });
