import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { Reader } from "maxmind";
import UAParser from "ua-parser-js";
import { memoize } from "../memo";
import { unmappedIPv4 } from "../ip";

/** The two record shapes we read: DB-IP lite in ip-location-db form, and MaxMind GeoLite2/GeoIP2 City. */
export type GeoRecord = {
  country_code?: string;
  city?: string | { names?: Record<string, string> };
  country?: { iso_code?: string };
};

const readers = new Map<string, Reader<any> | null>();

/** One reader per database file for the whole process (the file is read once, then looked up in memory). */
function readerFor(path: string): Reader<any> | null {
  if (!readers.has(path)) {
    try {
      readers.set(path, new Reader<any>(readFileSync(path)));
    } catch {
      readers.set(path, null);
    }
  }
  return readers.get(path)!;
}

/** The databases a lookup reads (Config's geoipDb and geoipDb6). */
export type GeoDbs = { geoipDb: string; geoipDb6: string | null };
type Geo = { country: string | null; city: string | null };
const NO_GEO: Geo = { country: null, city: null };

/**
 * Country (ISO alpha-2) and city of an IP (nulls when unknown), memoized per address. An IPv4
 * address (also written ::ffff:a.b.c.d) is looked up in `geoipDb`; an IPv6 address in `geoipDb6`,
 * or in `geoipDb` when that database covers IPv6 (MaxMind's do), and else gets nulls: an IPv4-only
 * database answers an IPv6 address with whatever record its first 32 bits lead to, a wrong country
 * rather than none. createDeps builds one per thread (deps.geo).
 */
export type GeoLookup = (ip: string | null) => Geo;

export function createGeoLookup(dbs: GeoDbs): GeoLookup {
  const lookup = memoize((addr) => lookupGeo(dbs, addr), 20000);
  return (ip) => (ip ? lookup(ip) : NO_GEO);
}

function lookupGeo(dbs: GeoDbs, ip: string): Geo {
  const addr = unmappedIPv4(ip);
  const family = isIP(addr);
  if (!family) return NO_GEO;
  let reader = readerFor(dbs.geoipDb);
  if (family === 6) reader = dbs.geoipDb6 ? readerFor(dbs.geoipDb6) : reader?.metadata.ipVersion === 6 ? reader : null;
  try {
    return geoFromRecord((reader?.get(addr) as GeoRecord | null) ?? null);
  } catch {
    return NO_GEO; // an address the database cannot look up
  }
}

/** Country and city from a record of either supported database format. */
export function geoFromRecord(rec: GeoRecord | null): Geo {
  if (!rec) return NO_GEO;
  const country = (rec.country_code ?? rec.country?.iso_code ?? "").toUpperCase() || null;
  const city = typeof rec.city === "string" ? rec.city || null : (rec.city?.names?.en ?? null);
  return { country: country && /^[A-Z]{2}$/.test(country) ? country : null, city };
}

/**
 * Device type (mobile, tablet, desktop, other), browser and OS names from a User-Agent (a bot's
 * click is stored with device "bot" whatever this says). Memoized: traffic repeats its agents.
 */
export const parsedUa = memoize((ua: string): { device: string; browser: string | null; os: string | null } => {
  const r = new UAParser(ua).getResult();
  const type = r.device.type;
  let device = "other";
  if (type === "mobile" || type === "tablet") device = type;
  else if (!type && (r.os.name || r.browser.name)) device = "desktop";
  return { device, browser: r.browser.name ?? null, os: r.os.name ?? null };
});
