import { and, eq, inArray } from "drizzle-orm";
import type { Deps } from "../deps";
import { PASSWORD_MAX, PASSWORD_MIN } from "./password";
import type { LinkRow } from "../../db/schema";
import { ValidationError } from "../errors";
import { MAX_URL_LENGTH, urlProblem } from "./url";
import { parseDate } from "./when";
import { rulesInput, variantsInput } from "./routing-input";

export { MAX_URL_LENGTH, urlProblem };

/** Input of link create (POST) and edit (PATCH), spelled as in the spec. `null` clears a field. */
export interface LinkInput {
  url?: string | null;
  code?: string | null;
  title?: string | null;
  utm_source?: string | null;
  utm_medium?: string | null;
  utm_campaign?: string | null;
  tagIds?: number[] | null;
  starts_at?: string | null;
  expires_at?: string | null;
  expired_url?: string | null;
  max_clicks?: number | null;
  password?: string | null;
  ios_url?: string | null;
  android_url?: string | null;
  desktop_url?: string | null;
  pixelIds?: number[] | null;
  domain_id?: number | null;
  webhook_url?: string | null;
  webhook_method?: "GET" | "POST" | null;
  webhook_enabled?: boolean | null;
  is_active?: boolean | null;
  /** redirect rules, checked in order (routing-input.ts) */
  rules?: unknown;
  /** A/B variants (routing-input.ts) */
  variants?: unknown;
}

/** Column values to write (only the keys the input mentioned), plus relation lists when given. */
export interface LinkPatch {
  cols: Partial<Omit<LinkRow, "id" | "userId" | "code" | "createdAt">> & { passwordHash?: string | null };
  tagIds?: number[];
  pixelIds?: number[];
  /** the plain password to hash (hashing is async, done by the caller) */
  password?: string | null;
}

/** The most characters of a link's title and of each UTM value, after trimming (the API model's limit too). */
export const LINK_TEXT_MAX = 200;
const TEXT_FIELDS = { title: LINK_TEXT_MAX, utm_source: LINK_TEXT_MAX, utm_medium: LINK_TEXT_MAX, utm_campaign: LINK_TEXT_MAX } as const;
const URL_FIELDS = ["expired_url", "ios_url", "android_url", "desktop_url", "webhook_url"] as const;
const COLUMN: Record<string, keyof LinkPatch["cols"]> = {
  title: "title",
  utm_source: "utmSource",
  utm_medium: "utmMedium",
  utm_campaign: "utmCampaign",
  expired_url: "expiredUrl",
  ios_url: "iosUrl",
  android_url: "androidUrl",
  desktop_url: "desktopUrl",
  webhook_url: "webhookUrl",
};

/**
 * Validates a create (`existing` undefined) or edit input against the rules of the spec and turns
 * it into column values. Every problem is reported at once as a 400 with one detail per field.
 */
export async function validateLinkInput(
  deps: Pick<Deps, "asyncDb" | "clock" | "config">,
  userId: number,
  input: LinkInput,
  existing?: LinkRow,
): Promise<LinkPatch> {
  const errors: { field: string; message: string }[] = [];
  const bad = (field: string, message: string) => errors.push({ field, message });
  const has = (k: keyof LinkInput) => input[k] !== undefined;
  const patch: LinkPatch = { cols: {} };
  const now = deps.clock.now();

  if (!existing && (input.url === undefined || input.url === null)) bad("url", "is required");
  else if (input.url === null) bad("url", "cannot be removed");
  else if (input.url !== undefined) {
    const p = await urlProblem(deps, input.url.trim());
    if (p) bad("url", p);
    else patch.cols.url = input.url.trim();
  }

  for (const [field, max] of Object.entries(TEXT_FIELDS)) {
    const v = input[field as keyof LinkInput];
    if (v === undefined) continue;
    if (v !== null && typeof v === "string" && v.trim().length > max) bad(field, `must be at most ${max} characters`);
    else (patch.cols as Record<string, unknown>)[COLUMN[field]!] = v === null || (v as string).trim() === "" ? null : (v as string).trim();
  }

  for (const field of URL_FIELDS) {
    const v = input[field];
    if (v === undefined) continue;
    if (v === null || v.trim() === "") (patch.cols as Record<string, unknown>)[COLUMN[field]!] = null;
    else {
      const p = await urlProblem(deps, v.trim(), field === "webhook_url" ? "webhook" : "visitors");
      if (p) bad(field, p);
      else (patch.cols as Record<string, unknown>)[COLUMN[field]!] = v.trim();
    }
  }

  let startsAt = existing?.startsAt ?? null;
  let expiresAt = existing?.expiresAt ?? null;
  for (const field of ["starts_at", "expires_at"] as const) {
    const v = input[field];
    if (v === undefined) continue;
    const d = v === null ? null : parseDate(v);
    if (v !== null && !d) {
      bad(field, "must be an ISO 8601 date-time, e.g. 2026-05-01T12:00:00Z");
      continue;
    }
    // a value sent back unchanged on edit (a form that posts every field) is not a new date in the past
    const stored = field === "starts_at" ? existing?.startsAt : existing?.expiresAt;
    if (d && d.getTime() <= now.getTime() && d.getTime() !== stored?.getTime()) bad(field, "must be in the future");
    if (field === "starts_at") patch.cols.startsAt = startsAt = d;
    else patch.cols.expiresAt = expiresAt = d;
  }
  if ((has("starts_at") || has("expires_at")) && startsAt && expiresAt && startsAt.getTime() >= expiresAt.getTime())
    if (has("starts_at")) bad("starts_at", "must be earlier than expires_at");
    else bad("expires_at", "must be later than starts_at");

  if (has("max_clicks")) {
    const v = input.max_clicks;
    if (v !== null && (!Number.isInteger(v) || (v as number) < 1 || (v as number) > 1e12))
      bad("max_clicks", "must be a positive whole number");
    else patch.cols.maxClicks = v ?? null;
  }

  if (has("password")) {
    const v = input.password;
    if (v !== null && v !== "" && (v!.length < PASSWORD_MIN || v!.length > PASSWORD_MAX))
      bad("password", `must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`);
    else patch.password = v === "" ? null : (v ?? null);
  }

  if (has("webhook_method")) patch.cols.webhookMethod = input.webhook_method ?? "POST";
  if (existing) {
    if (has("webhook_enabled")) patch.cols.webhookEnabled = !!input.webhook_enabled;
    if (has("is_active")) {
      if (input.is_active === null) bad("is_active", "cannot be removed; send true or false");
      else patch.cols.isActive = input.is_active!;
    }
  }

  if (has("rules")) {
    const rules = await rulesInput(deps, input.rules, bad);
    if (rules !== undefined) patch.cols.rules = rules;
  }
  if (has("variants")) {
    const variants = await variantsInput(deps, input.variants, bad);
    if (variants !== undefined) patch.cols.variants = variants;
  }

  if (has("tagIds")) patch.tagIds = await ownedIds(deps, userId, "tagIds", input.tagIds ?? [], bad);
  if (has("pixelIds")) patch.pixelIds = await ownedIds(deps, userId, "pixelIds", input.pixelIds ?? [], bad);
  if (has("domain_id")) {
    const id = input.domain_id ?? null;
    const { domains } = deps.asyncDb.tables;
    const domain =
      id === null || !Number.isInteger(id)
        ? undefined
        : (
            await deps.asyncDb
              .select({ verifiedAt: domains.verifiedAt })
              .from(domains)
              .where(and(eq(domains.id, id), eq(domains.userId, userId)))
              .limit(1)
          )[0];
    if (id !== null && !Number.isInteger(id)) bad("domain_id", "must be a whole number");
    else if (id !== null && !domain) bad("domain_id", `no domain with id ${id}`);
    // an edit that sends back the link's own domain unchanged is not a new choice
    else if (id !== null && !domain!.verifiedAt && id !== existing?.domainId)
      bad("domain_id", "is not verified yet: publish its TXT record and verify it first");
    else patch.cols.domainId = id;
  }

  if (errors.length) throw new ValidationError(`Invalid link: ${errors.map((e) => `${e.field} ${e.message}`).join("; ")}`, errors);
  return patch;
}

/** The unique ids among `ids` when the user owns every one of them; otherwise reports "unknown tag id(s): …" through `bad`. */
export async function ownedIds(
  deps: Pick<Deps, "asyncDb">,
  userId: number,
  field: "tagIds" | "pixelIds",
  ids: number[],
  bad: (field: string, message: string) => void,
): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.some((id) => !Number.isInteger(id))) {
    bad(field, "must be whole numbers");
    return [];
  }
  if (!unique.length) return [];
  const { tags, pixels } = deps.asyncDb.tables;
  const table = field === "tagIds" ? tags : pixels;
  const found = new Set(
    (
      await deps.asyncDb
        .select({ id: table.id })
        .from(table)
        .where(and(inArray(table.id, unique), eq(table.userId, userId)))
    ).map((r) => r.id),
  );
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length)
    bad(field, `unknown ${field === "tagIds" ? "tag" : "pixel"} id${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}`);
  return unique;
}
