import type { Config } from "../../config";
import type { PostbackFacts } from "./events";

/** What a postback reads of the click a conversion came through. */
export interface ClickFacts {
  clickedAt: Date;
  ip: string | null;
  userAgent: string | null;
  country: string | null;
  device: string | null;
  sub1: string | null;
  sub2: string | null;
  sub3: string | null;
  sub4: string | null;
  sub5: string | null;
  fbclid: string | null;
}

/** Meta's standard event for ours where there is one; any other event goes by its own name (a custom event). */
const META_NAMES: Record<string, string> = {
  purchase: "Purchase",
  lead: "Lead",
  registration: "CompleteRegistration",
  signup: "CompleteRegistration",
  subscribe: "Subscribe",
  join: "Subscribe",
  start: "Contact",
  click: "ViewContent",
  add_to_cart: "AddToCart",
  checkout: "InitiateCheckout",
};

/**
 * One Conversions API event (`POST <graph>/<version>/<pixel>/events`): `event_id` is the conversion's
 * id (the delivery's for events that are not conversions), so Meta drops the same event sent twice;
 * `fbc` is made from the click's `fbclid` (`fb.1.<click ms>.<fbclid>`), and the client's address and
 * agent go along when the click kept them.
 */
export function metaEvent(config: Pick<Config, "shortUrl">, f: PostbackFacts, click: ClickFacts | null, deliveryId: string) {
  const userData: Record<string, string> = {};
  if (click?.fbclid) userData.fbc = `fb.1.${click.clickedAt.getTime()}.${click.fbclid}`;
  if (click?.ip) userData.client_ip_address = click.ip;
  if (click?.userAgent) userData.client_user_agent = click.userAgent;
  if (f.tg_user_id !== null) userData.external_id = String(f.tg_user_id);
  const customData: Record<string, string | number> = {};
  if (f.value !== null) customData.value = f.value;
  if (f.currency !== null) customData.currency = f.currency;
  const web = click !== null && !!click.userAgent;
  return {
    data: [
      {
        event_name: META_NAMES[f.event] ?? f.event,
        event_time: Math.floor(Date.parse(f.occurred_at) / 1000),
        event_id: f.conversion_id !== null ? String(f.conversion_id) : deliveryId,
        action_source: web ? "website" : "chat",
        ...(web && f.code ? { event_source_url: `${config.shortUrl.replace(/\/+$/, "")}/${f.code}` } : {}),
        user_data: userData,
        custom_data: customData,
      },
    ],
  };
}
