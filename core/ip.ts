/** An IPv4-mapped IPv6 address (`::ffff:203.0.113.9`) as the IPv4 address it carries; any other as it is. */
export function unmappedIPv4(ip: string): string {
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip) ? ip.slice(7) : ip;
}
