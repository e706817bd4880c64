import { readFileSync } from "node:fs";
import { Reader } from "maxmind";
import UAParser from "ua-parser-js";
import { memoize } from "../memo";

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

/** Country (ISO alpha-2) and city of an IP from the configured .mmdb; nulls when unknown. */
export function geoOf(dbPath: string, ip: string | null): { country: string | null; city: string | null } {
  if (!ip) return { country: null, city: null };
  let lookup = lookups.get(dbPath);
  if (!lookup) lookups.set(dbPath, (lookup = memoize((addr) => lookupGeo(dbPath, addr), 20000)));
  return lookup(ip);
}

const lookups = new Map<string, (ip: string) => { country: string | null; city: string | null }>();

function lookupGeo(dbPath: string, ip: string): { country: string | null; city: string | null } {
  let rec: GeoRecord | null = null;
  try {
    rec = (readerFor(dbPath)?.get(ip.replace(/^::ffff:/, "")) as GeoRecord | null) ?? null;
  } catch {
    rec = null; // malformed address or a v6 address in a v4-only database
  }
  return geoFromRecord(rec);
}

/** Country and city from a record of either supported database format. */
export function geoFromRecord(rec: GeoRecord | null): { country: string | null; city: string | null } {
  if (!rec) return { country: null, city: null };
  const country = (rec.country_code ?? rec.country?.iso_code ?? "").toUpperCase() || null;
  const city = typeof rec.city === "string" ? rec.city || null : rec.city?.names?.en ?? null;
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
