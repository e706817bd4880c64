import type { ClickRow, LinkRow } from "../../db/schema";

/** The spec's click webhook body (Events §2). */
export interface ClickEvent {
  event: "click" | "test";
  link: { id: number; code: string; original_url: string; title: string | null };
  click: {
    ip: string | null;
    country: string | null;
    city: string | null;
    device_type: string | null;
    os: string | null;
    browser: string | null;
    referer: string | null;
    is_bot: boolean;
    is_unique: boolean;
    clicked_at: string;
  };
}

/** Builds the body sent for a click on a link (exactly the spec's shape). */
export function clickEvent(link: Pick<LinkRow, "id" | "code" | "url" | "title">, click: ClickRow): ClickEvent {
  return {
    event: "click",
    link: { id: link.id, code: link.code, original_url: link.url, title: link.title },
    click: {
      ip: click.ip,
      country: click.country,
      city: click.city,
      device_type: click.device,
      os: click.os,
      browser: click.browser,
      referer: click.referer,
      is_bot: click.isBot,
      is_unique: click.isUnique,
      clicked_at: click.clickedAt.toISOString(),
    },
  };
}

/** The body of a test delivery: a click-shaped event with `event: "test"` and a sample click. */
export function testEvent(link: Pick<LinkRow, "id" | "code" | "url" | "title">, now: Date): ClickEvent {
  return {
    event: "test",
    link: { id: link.id, code: link.code, original_url: link.url, title: link.title },
    click: {
      ip: "203.0.113.7",
      country: "DE",
      city: "Berlin",
      device_type: "desktop",
      os: "Linux",
      browser: "Firefox",
      referer: null,
      is_bot: false,
      is_unique: true,
      clicked_at: now.toISOString(),
    },
  };
}

/**
 * Flattens a webhook body into query parameters for GET targets: nested keys are joined with `_`
 * (`link.original_url` → `link_original_url`), null becomes an empty value, booleans `true`/`false`,
 * arrays JSON. Order follows the body, so the query string is deterministic.
 */
export function toQueryParams(data: Record<string, unknown>, prefix = ""): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, value] of Object.entries(data)) {
    const name = prefix + key;
    if (value !== null && typeof value === "object" && !Array.isArray(value))
      out.push(...toQueryParams(value as Record<string, unknown>, `${name}_`));
    else if (value === null || value === undefined) out.push([name, ""]);
    else if (Array.isArray(value)) out.push([name, JSON.stringify(value)]);
    else out.push([name, String(value)]);
  }
  return out;
}
