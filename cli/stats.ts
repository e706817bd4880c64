import type { CliCommand } from "./_command";
import { parseCommandArgs, UsageError } from "./_command";
import { serviceStats } from "../core/admin/stats";
import { journalStatus, type JournalStatus } from "../core/clicks/backlog";

/** How long the writer's rate is sampled by default (the mark read twice, this far apart). */
const SAMPLE_MS = 1000;

export const command: CliCommand = {
  usage: "[--json] [--sample-ms N] [--journal-dir DIR]",
  description:
    "counts of users, links, clicks, trackers, secure files, the delivery queue's depth, and the click journal's backlog per node",
  async run(args, { deps, out }) {
    const { values } = parseCommandArgs(args, {
      json: { type: "boolean" },
      "sample-ms": { type: "string" },
      "journal-dir": { type: "string" },
    });
    const sampleMs = values["sample-ms"] === undefined ? SAMPLE_MS : Number(values["sample-ms"]);
    if (!Number.isInteger(sampleMs) || sampleMs < 0) throw new UsageError("--sample-ms must be a whole number of milliseconds, 0 or more");
    const s = await serviceStats(deps);
    // the node's JOURNAL_DIR: each node's journal is a directory under it named after the node
    const journalDir = values["journal-dir"] ?? deps.config.journalDir;
    const journals = await journalStatus(deps, journalDir, sampleMs ? () => Bun.sleep(sampleMs) : undefined);
    if (values.json) return out(JSON.stringify({ ...s, journals }, null, 2));
    const rows: [string, number | string][] = [
      ["users", s.users],
      ["links", s.links],
      ["clicks", s.clicks],
      ["trackers", s.trackers],
      ["secure files", s.secureFiles],
      ...Object.entries(s.queues).map(([kind, q]): [string, string] => [
        `outbox ${kind}`,
        `${q.pending} pending, ${q.sending} sending, ${q.failed} failed`,
      ]),
      ...journals.map((j): [string, string] => [`journal ${j.journal}`, journalLine(j, deps.clock.now().getTime(), journalDir)]),
    ];
    for (const [label, value] of rows) out(`${label.padEnd(16)} ${value}`);
  },
};

/** "1,204 clicks not yet written, oldest 3.2 s ago; writer 8,410 clicks/s; mark 55,012" */
function journalLine(j: JournalStatus, now: number, journalDir: string): string {
  const n = (x: number) => Math.round(x).toLocaleString("en");
  const backlog = !j.backlog
    ? `backlog unknown (no such journal under ${journalDir}: run this on the node's machine with its JOURNAL_DIR, or give --journal-dir)`
    : j.backlog.clicks === 0
      ? "nothing waiting"
      : `${n(j.backlog.clicks)} clicks not yet written, oldest ${((now - j.backlog.oldestAt!.getTime()) / 1000).toFixed(1)} s ago`;
  const rate = j.writerRate === null ? "" : `; writer ${n(j.writerRate)} clicks/s`;
  return `${backlog}${rate}; mark ${n(j.committedSeq)}`;
}
