/**
 * SSRF guard for webhook targets: only http(s) URLs without credentials, and only hosts whose every
 * address is public. The checked address is the one the request connects to (see http.ts), so a DNS
 * answer that changes between check and connect (rebinding) cannot reach an internal address.
 */
import type { FailureKind } from "../i18n/target-failure";
import dns from "node:dns";
import * as net from "node:net";

const { isIP } = net;
// node:net's BlockList (Bun implements it; its bundled typings lack it)
type IpType = "ipv4" | "ipv6";
const BlockList = (
  net as unknown as {
    BlockList: new () => { addSubnet(n: string, prefix: number, t: IpType): void; check(ip: string, t: IpType): boolean };
  }
).BlockList;

/** Why a webhook target cannot be used; `kind` tells validation how to phrase it. */
/** Why a delivery did not succeed: the target answered a status outside 2xx, or a TargetError's kind. */
export type TargetFailure = FailureKind;

export class TargetError extends Error {
  constructor(
    readonly kind: Exclude<FailureKind, "status">,
    message: string,
  ) {
    super(message);
    this.name = "TargetError";
  }
}

function rule(reason: string, v4: string[], v6: string[] = []) {
  const list = new BlockList();
  for (const net of v4) list.addSubnet(net.split("/")[0]!, Number(net.split("/")[1]), "ipv4");
  for (const net of v6) list.addSubnet(net.split("/")[0]!, Number(net.split("/")[1]), "ipv6");
  return { reason, list };
}

/** Checked in order; the first match names the refusal. IPv4-mapped IPv6 addresses match the IPv4 rules. */
const RULES = [
  rule("a cloud metadata address", ["169.254.169.254/32", "100.100.100.200/32"], ["fd00:ec2::254/128"]),
  rule("an unspecified address", ["0.0.0.0/8"], ["::/128"]),
  rule("a loopback address", ["127.0.0.0/8"], ["::1/128"]),
  rule("a private address", ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"]),
  rule("a link-local address", ["169.254.0.0/16"], ["fe80::/10"]),
  rule("a shared (CGNAT) address", ["100.64.0.0/10"]),
  rule("a multicast address", ["224.0.0.0/4"], ["ff00::/8"]),
  rule("a broadcast address", ["255.255.255.255/32"]),
  rule(
    "a reserved address",
    ["240.0.0.0/4", "192.0.0.0/24", "192.0.2.0/24", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24"],
    ["2001:db8::/32", "fec0::/10", "100::/64"],
  ),
  rule("a unique-local (private) address", [], ["fc00::/7"]),
  // NAT64, IPv4-translated (SIIT) and the deprecated IPv4-compatible form can carry any IPv4 address: refuse them outright
  rule("an IPv4-embedding address", [], ["64:ff9b::/96", "64:ff9b:1::/48", "::/96", "::ffff:0:0:0/96", "2002::/16"]),
];

const METADATA_HOSTS = new Set(["metadata.google.internal", "metadata.goog", "metadata"]);

/** The reason `ip` may not be a webhook target, or null when it is a public address. */
export function forbiddenAddressReason(ip: string): string | null {
  const family = isIP(ip);
  if (!family) return "not an IP address";
  const type = family === 4 ? "ipv4" : "ipv6";
  for (const r of RULES) if (r.list.check(ip, type)) return r.reason;
  // BlockList matches ::ffff:a.b.c.d against IPv4 rules; the hex form (::ffff:7f00:1) is normalised here
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(ip);
  if (mapped) {
    const hi = parseInt(mapped[1]!, 16),
      lo = parseInt(mapped[2]!, 16);
    return forbiddenAddressReason(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  return null;
}

/** Parses a webhook URL: absolute, http or https, no user name or password. */
export function parseTargetUrl(raw: string): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new TargetError("invalid", "must be an absolute http(s) URL");
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new TargetError("invalid", "must use http or https");
  if (u.username || u.password) throw new TargetError("invalid", "must not contain a user name or password");
  if (!u.hostname) throw new TargetError("invalid", "must name a host");
  return u;
}

/** The URL's host without IPv6 brackets. */
export function bareHost(u: URL): string {
  return u.hostname.replace(/^\[|\]$/g, "");
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves the target's host and refuses it unless every address is public. Returns the address to
 * connect to. `allowPrivate` (WEBHOOK_ALLOW_PRIVATE) skips the address rules but still resolves.
 */
export async function resolveTarget(u: URL, allowPrivate: boolean): Promise<ResolvedAddress> {
  const host = bareHost(u).toLowerCase();
  if (!allowPrivate && METADATA_HOSTS.has(host.replace(/\.$/, "")))
    throw new TargetError("refused", `${host} is a cloud metadata host; webhooks may not target internal networks`);
  let addresses: ResolvedAddress[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) as 4 | 6 }];
  else {
    try {
      addresses = (await dns.promises.lookup(host, { all: true, verbatim: true })) as ResolvedAddress[];
    } catch (e) {
      throw new TargetError("network", `host ${host} could not be resolved (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    if (!addresses.length) throw new TargetError("network", `host ${host} has no address`);
  }
  if (!allowPrivate)
    for (const a of addresses) {
      const reason = forbiddenAddressReason(a.address);
      if (reason)
        throw new TargetError(
          "refused",
          `${host === a.address ? host : `${host} resolves to ${a.address}, which`} is ${reason}; webhooks may not target internal networks`,
        );
    }
  // IPv4 first, as most receivers listen there (a host answering only on IPv6 still has that address)
  return addresses.find((a) => a.family === 4) ?? addresses[0]!;
}
