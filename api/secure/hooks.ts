/** What every owner route of secure sharing declares: its scope and docs tag, and the plain success answer. */
const tags = ["secure"];
// fresh objects per route: Elysia's macro application mutates the hook object it is given
export const read = (summary: string) => ({ scope: "read:secure" as const, detail: { tags, summary } });
export const write = (summary: string) => ({ scope: "write:secure" as const, detail: { tags, summary } });
export const ok = { success: true as const };
