import { parseArgs } from "node:util";
import { asc } from "drizzle-orm";
import type { Deps } from "../core/deps";
import { setSourceMetadata } from "../core/tracking/sources";
import { ValidationError } from "../core/errors";
import type { CliCommand } from "./_command";

export const usage = `bun run cli source list
bun run cli source set <chat> [--geo <ISO country|none>] [--category <category|none>]
  <chat> is @username, a numeric chat id or a t.me link of a chat the bot is in.
  Categories and countries: GET /api/tracking/filters.`;

/**
 * `source`: operator metadata for keyword-tracking sources (filter_geo, filter_category use it).
 * Returns the exit code; output goes to `out`.
 */
export async function run(deps: Deps, args: string[], out: (line: string) => void = console.log): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "list") {
    const { trackingSources } = deps.asyncDb.tables;
    const rows = await deps.asyncDb.select().from(trackingSources).orderBy(asc(trackingSources.id));
    if (!rows.length) out("No sources yet: add the bot to a channel or group.");
    for (const r of rows)
      out(
        `${r.chatId}\t${r.type}\t${r.username ? `@${r.username}` : "-"}\t${r.title ?? ""}\tmembers=${r.memberCount ?? "?"}\tgeo=${r.geo ?? "-"}\tcategory=${r.category ?? "-"}\t${r.isActive ? "active" : "inactive"}`,
      );
    return 0;
  }
  if (sub !== "set") {
    out(usage);
    return sub === undefined || sub === "help" ? 0 : 1;
  }
  // the chat comes first and may be a negative id, which parseArgs would take for an option
  const chat = rest[0] && !rest[0].startsWith("--") ? rest[0] : undefined;
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: { geo: { type: "string" }; category: { type: "string" } } }>>;
  try {
    parsed = parseArgs({ args: chat ? rest.slice(1) : rest, options: { geo: { type: "string" }, category: { type: "string" } } });
  } catch (e) {
    out(`${(e as Error).message}\n\n${usage}`);
    return 1;
  }
  const { geo, category } = parsed.values;
  if (!chat || (geo === undefined && category === undefined)) {
    out(usage);
    return 1;
  }
  const clear = (v: string | undefined) => (v === undefined ? undefined : v.toLowerCase() === "none" ? null : v);
  try {
    const row = await setSourceMetadata(deps, chat, { geo: clear(geo), category: clear(category) });
    out(`${row.title ?? row.chatId}: geo=${row.geo ?? "-"} category=${row.category ?? "-"}`);
    return 0;
  } catch (e) {
    if (e instanceof ValidationError || (e as { status?: number }).status === 404) {
      out(`Error: ${(e as Error).message}`);
      return 1;
    }
    throw e;
  }
}

export const command: CliCommand = {
  usage: "list | set <chat> [--geo <ISO country|none>] [--category <category|none>]",
  description: "Keyword-tracking sources: list them, or set the geo and category that filter_geo and filter_category use.",
  run: (args, ctx) => run(ctx.deps, args, ctx.out),
};
