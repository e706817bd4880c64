/** An IPv4-mapped IPv6 address (`::ffff:203.0.113.9`) as the IPv4 address it carries; any other as it is. */
export function unmappedIPv4(ip: string): string {
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip) ? ip.slice(7) : ip;
}

/**
 * The key under which an address is counted (rate limits, password attempts): IPv4 as is (also when IPv4-mapped), IPv6 by its /64 network,
 * since one subscriber usually holds a whole /64 and could otherwise rotate through it.
 */
export function ipBucket(ip: string): string {
  const v4 = unmappedIPv4(ip);
  if (!v4.includes(":")) return v4;
  const [head = "", tail] = ip
    .replace(/^\[|\]$/g, "")
    .split("%")[0]!
    .split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === undefined ? left : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(":")}::/64`;
}
