import type { CliCommand } from "./_command";
import { UsageError, parseCommandArgs } from "./_command";
import { describeUser, resolveUserRef, setPlan } from "../core/admin/users";

export const command: CliCommand = {
  usage: "<user> <plan> [--days N]",
  description: "set a user's plan (user by id, email or @username); --days sets an expiry, none means no expiry",
  async run(args, { deps, out }) {
    const { positionals, values } = parseCommandArgs(args, { days: { type: "string" } });
    if (positionals.length !== 2) throw new UsageError("expected a user and a plan");
    const [ref, plan] = positionals as [string, string];
    if (values.days !== undefined && !/^\d+$/.test(values.days))
      throw new UsageError(`--days must be a whole number, got "${values.days}"`);
    const user = await resolveUserRef(deps, ref);
    const updated = await setPlan(deps, user.id, plan, values.days === undefined ? null : Number(values.days));
    const until = updated.planExpiresAt ? `until ${updated.planExpiresAt.toISOString()}` : "with no expiry";
    out(`${describeUser(updated)} is now on the ${updated.plan} plan ${until}`);
  },
};
