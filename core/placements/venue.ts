/**
 * Where an ad runs, as people name it: `@username`, a `t.me/…` link (of the channel, or of the post
 * itself), or free text for anything outside Telegram.
 */
import { FieldError } from "../errors";
import type { VenueKind } from "../../db/tables/placements";

/** The venue as the API shows it. */
export type Venue = { kind: "telegram"; username: string } | { kind: "other"; title: string };

export const VENUE_MAX = 100;
export const NAME_MAX = 50;

const USERNAME = /^[A-Za-z][A-Za-z0-9_]{3,31}$/;
const TME =
  /^(?:https?:\/\/)?(?:www\.)?(?:t\.me|telegram\.me|telegram\.dog)\/(?:s\/)?([A-Za-z][A-Za-z0-9_]{3,31})(?:\/(\d+))?\/?(?:[?#]\S*)?$/i;

/** A venue read from text, with the post's URL when a link to the post itself was given. */
export interface ReadVenue {
  venue: Venue;
  postUrl: string | null;
}

/**
 * Reads a venue: `@username` (what follows a space is ignored: `@channel 25.11`), `t.me/username`,
 * `t.me/username/123` (the post: its URL is kept too), or any other text up to 100 characters.
 */
export function parseVenue(text: string): ReadVenue {
  const t = text.trim();
  if (!t || t.length > VENUE_MAX) throw new FieldError("venue", `must be 1–${VENUE_MAX} characters: @channel, a t.me link or a name`);
  const first = t.split(/\s+/)[0]!;
  if (first.startsWith("@") && USERNAME.test(first.slice(1)))
    return { venue: { kind: "telegram", username: first.slice(1) }, postUrl: null };
  const link = TME.exec(first);
  if (link && !["joinchat", "addstickers", "share", "proxy", "iv"].includes(link[1]!.toLowerCase()))
    return {
      venue: { kind: "telegram", username: link[1]! },
      postUrl: link[2] ? `https://t.me/${link[1]}/${link[2]}` : null,
    };
  return { venue: { kind: "other", title: t }, postUrl: null };
}

/** The venue as a row keeps it. */
export function venueColumns(v: Venue): { venueKind: VenueKind; venue: string } {
  return v.kind === "telegram" ? { venueKind: "telegram", venue: v.username } : { venueKind: "other", venue: v.title };
}

export function venueOf(row: { venueKind: VenueKind; venue: string }): Venue {
  return row.venueKind === "telegram" ? { kind: "telegram", username: row.venue } : { kind: "other", title: row.venue };
}

/** `@username` or the title. */
export function venueLabel(v: Venue): string {
  return v.kind === "telegram" ? `@${v.username}` : v.title;
}

/** The name a placement gets when none is given: `<venue> <dd.mm>` of its date, in the account's zone. */
export function defaultName(v: Venue, when: Date, zone = "UTC"): string {
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone: zone, day: "2-digit", month: "2-digit" }).formatToParts(when);
  const dd = parts.find((p) => p.type === "day")!.value;
  const mm = parts.find((p) => p.type === "month")!.value;
  return `${venueLabel(v).slice(0, NAME_MAX - 6)} ${dd}.${mm}`;
}

/** `t.me/<channel>/<id>` in any spelling as `https://t.me/<channel>/<id>`; a 400 for anything else. */
export function parsePostUrl(text: string): { url: string; channel: string; messageId: number } {
  const m = TME.exec(text.trim());
  if (!m?.[2]) throw new FieldError("post_url", "must be the link of a post in a public channel: t.me/<channel>/<number>");
  return { url: `https://t.me/${m[1]}/${m[2]}`, channel: m[1]!, messageId: Number(m[2]) };
}
