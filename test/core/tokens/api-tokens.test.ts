/** API tokens (core/tokens/api-tokens.ts) on SQLite and on a real PostgreSQL. */
import { expect, test } from "bun:test";
import { ManualClock } from "../../../core/clock";
import type { Deps } from "../../../core/deps";
import { MAX_API_TOKENS, createApiToken, listApiTokens, revokeApiToken, verifyApiToken } from "../../../core/tokens/api-tokens";
import { onBothDatabases } from "../../helpers/async-engines";

onBothDatabases((open) => {
  test("made with its secret shown once, verified by it (last use noted once a minute), listed until revoked, refused after expiry; at most 50 live", async () => {
    const { db } = await open();
    const clock = new ManualClock("2026-03-01T09:30:00.000Z");
    const deps = { asyncDb: db, clock } as unknown as Deps;
    const [ada] = await db.insert(db.tables.users).values({ username: "ada" }).returning();
    const made = await createApiToken(deps, ada!.id, { name: " ci ", scopes: ["read:links", "read:links"], expiresInDays: 2 });
    expect(made).toMatchObject({ name: "ci", scopes: ["read:links"], lastUsedAt: null, expiresAt: "2026-03-03T09:30:00.000Z" });
    expect(made.token).toMatch(/^lbt_sk_/);
    expect(await verifyApiToken(deps, made.token)).toEqual({ userId: ada!.id, scopes: ["read:links"], tokenId: made.id, madeBy: ada!.id });
    clock.advance(30_000);
    await verifyApiToken(deps, made.token); // within the minute: not written again
    expect((await listApiTokens(deps, ada!.id))[0]!.lastUsedAt).toBe("2026-03-01T09:30:00.000Z");
    clock.advance(2 * 86_400_000);
    await expect(verifyApiToken(deps, made.token)).rejects.toThrow("API token has expired");
    await expect(verifyApiToken(deps, "lbt_sk_nonsense")).rejects.toThrow("Invalid API token");

    for (let i = 1; i < MAX_API_TOKENS; i++) await createApiToken(deps, ada!.id, { name: `t${i}` });
    const fiftieth = await createApiToken(deps, ada!.id, { name: "last" }); // the expired one does not count
    await expect(createApiToken(deps, ada!.id, { name: "one more" })).rejects.toThrow("at most 50 API tokens");
    await revokeApiToken(deps, ada!.id, fiftieth.id);
    await expect(revokeApiToken(deps, ada!.id, fiftieth.id)).rejects.toThrow("API token not found");
    await expect(verifyApiToken(deps, fiftieth.token)).rejects.toThrow("API token has been revoked");
    expect((await listApiTokens(deps, ada!.id)).map((t) => t.name)).not.toContain("last");
    expect((await createApiToken(deps, ada!.id, { name: "room again" })).name).toBe("room again");
  });
});
