import type { Deps } from "../deps";
import type { OutboxRow } from "../delivery/outbox";
import type { Outcome } from "../delivery/send-row";
import { CLICK_FANOUT_TOPIC, POSTBACK_TOPIC } from "./queue";
import { attemptPostback, fanOutClick } from "./send";

/** How the outbox sends the rows of the postback topics (listed by app/delivery-routes.ts). */
export const POSTBACK_SENDERS: Readonly<Record<string, (deps: Deps, row: OutboxRow) => Promise<Outcome>>> = {
  [POSTBACK_TOPIC]: attemptPostback,
  [CLICK_FANOUT_TOPIC]: fanOutClick,
};
