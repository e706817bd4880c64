/** Sign-in methods (core/accounts/identities.ts) on SQLite and on a real PostgreSQL. */
import { expect, test } from "bun:test";
import type { Deps } from "../../../core/deps";
import { listIdentities, unlinkIdentity } from "../../../core/accounts/identities";
import { onBothDatabases } from "../../helpers/async-engines";

onBothDatabases((open) => {
  test("listed with passkeys last; unlinked by their owner while another way in remains (passkeys count); never the last", async () => {
    const { db } = await open();
    const at = new Date("2026-03-01T09:30:00Z");
    const deps = { asyncDb: db } as unknown as Deps;
    const [ada] = await db.insert(db.tables.users).values({ username: "ada" }).returning();
    const [bob] = await db.insert(db.tables.users).values({ username: "bob" }).returning();
    const [tg, mail] = await db
      .insert(db.tables.identities)
      .values([
        { userId: ada!.id, provider: "telegram", subject: "42", createdAt: at },
        { userId: ada!.id, provider: "email", subject: "ada@example.com", createdAt: at },
      ])
      .returning();
    await db
      .insert(db.tables.passkeys)
      .values({ userId: ada!.id, credentialId: "cred-1", publicKey: Buffer.from([1, 2]), counter: 0, name: "Laptop", createdAt: at });
    expect((await listIdentities(deps, ada!.id)).map((i) => `${i.provider}:${i.subject}`)).toEqual([
      "telegram:42",
      "email:ada@example.com",
      "passkey:cred-1",
    ]);
    await expect(unlinkIdentity(deps, bob!.id, mail!.id)).rejects.toThrow("Sign-in method not found");
    await unlinkIdentity(deps, ada!.id, mail!.id);
    await unlinkIdentity(deps, ada!.id, tg!.id); // the passkey still opens the account
    await db.delete(db.tables.passkeys);
    const [only] = await db
      .insert(db.tables.identities)
      .values({ userId: ada!.id, provider: "email", subject: "ada@example.com", createdAt: at })
      .returning();
    await expect(unlinkIdentity(deps, ada!.id, only!.id)).rejects.toThrow("only way to sign in");
    expect((await listIdentities(deps, ada!.id)).map((i) => i.provider)).toEqual(["email"]);
  });
});
