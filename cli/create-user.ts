import type { CliCommand } from "./_command";
import { UsageError, parseCommandArgs } from "./_command";
import { createEmailUser, describeUser } from "../core/admin/users";

export const command: CliCommand = {
  usage: "--email E",
  description: "create an account that signs in with this email address",
  async run(args, { deps, out }) {
    const { positionals, values } = parseCommandArgs(args, { email: { type: "string" } });
    if (!values.email || positionals.length) throw new UsageError("expected --email <address>");
    const user = await createEmailUser(deps, values.email);
    out(`created ${describeUser(user)}`);
  },
};
