import type { CliCommand } from "./_command";
import { parseCommandArgs } from "./_command";
import { serviceStats } from "../core/admin/stats";

export const command: CliCommand = {
  usage: "[--json]",
  description: "counts of users, links, clicks, trackers, secure files, and the delivery queue's depth",
  async run(args, { deps, out }) {
    const { values } = parseCommandArgs(args, { json: { type: "boolean" } });
    const s = await serviceStats(deps);
    if (values.json) return out(JSON.stringify(s, null, 2));
    const rows: [string, number | string][] = [
      ["users", s.users],
      ["links", s.links],
      ["clicks", s.clicks],
      ["trackers", s.trackers],
      ["secure files", s.secureFiles],
      ...Object.entries(s.queues).map(([kind, q]): [string, string] => [`outbox ${kind}`, `${q.pending} pending, ${q.sending} sending, ${q.failed} failed`]),
    ];
    for (const [label, value] of rows) out(`${label.padEnd(16)} ${value}`);
  },
};
