import type { LinkRow } from "../../db/schema";
import { paramsOf } from "../clicks/click-id";
import { hostPartEnd } from "../links/url";
import { parsedUa, type GeoLookup } from "../clicks/enrich";
import type { CachedLink } from "./link-cache";

/** The macros a link's targets may hold, each replaced at the redirect by its value, URL-encoded. */
const LINK_MACROS = ["click_id", "link_id", "code", "placement_id", "country", "device", "sub1", "sub2", "sub3", "sub4", "sub5"] as const;
export type LinkMacro = (typeof LINK_MACROS)[number];

const MACRO = /\{(click_id|link_id|code|placement_id|country|device|sub[1-5])\}/g;
/**
 * What stands for macro `i` while a target goes through the URL parser (UTM parameters, a Location
 * header's encoding): lower-case letters and digits, which no part of a URL changes.
 */
const slot = (i: number) => `zqmacro${i}qz`;
const SLOT = /zqmacro(\d+)qz/g;

/** Whether `text` holds a macro. */
const hasMacros = (text: string | null | undefined): boolean => !!text && text.search(MACRO) >= 0;

/** A link's targets hold macros (its url, platform targets, rules or variants). */
export function linkHasMacros(link: LinkRow): boolean {
  return [link.url, link.iosUrl, link.androidUrl, link.desktopUrl, link.rules, link.variants].some(hasMacros);
}

/** The values of one click's macros; each read only when a target names it. */
export type MacroValues = { readonly [m in LinkMacro]: string | null };

/** A target with macros, split once: the literal pieces, with the macro between each two. */
interface Template {
  pieces: string[];
  names: LinkMacro[];
}

/**
 * The targets of a link with macros, compiled once when the link is cached. `link` is the link with
 * every macro in its targets replaced by a slot, so the usual target code (UTM parameters, the
 * Location's encoding, the rules and variants) works on it unchanged; `expand` then turns the target
 * it picked into the visitor's Location, splitting each distinct target once.
 */
export class LinkMacros {
  readonly link: LinkRow;
  /** the macros the link's targets name, so a visit works out only those (a country lookup, a device) */
  readonly uses: ReadonlySet<LinkMacro>;
  private readonly names: LinkMacro[] = [];
  private readonly templates = new Map<string, Template>();

  constructor(link: LinkRow) {
    const used = new Set<LinkMacro>();
    const shape = <T extends string | null>(text: T): T =>
      (text === null
        ? null
        : text.replace(MACRO, (_, name: LinkMacro) => {
            used.add(name);
            this.names.push(name);
            return slot(this.names.length - 1);
          })) as T;
    this.link = {
      ...link,
      url: shape(link.url),
      iosUrl: shape(link.iosUrl),
      androidUrl: shape(link.androidUrl),
      desktopUrl: shape(link.desktopUrl),
      rules: shape(link.rules),
      variants: shape(link.variants),
    };
    this.uses = used;
  }

  /** The Location of `target` (a target of `this.link`) for a click with these values. */
  expand(target: string, values: MacroValues): string {
    let t = this.templates.get(target);
    if (!t) this.templates.set(target, (t = this.split(target)));
    let out = t.pieces[0]!;
    for (let i = 0; i < t.names.length; i++) out += encodeURIComponent(values[t.names[i]!] ?? "") + t.pieces[i + 1]!;
    return out;
  }

  private split(target: string): Template {
    const pieces: string[] = [];
    const names: LinkMacro[] = [];
    // a macro in the host is never filled (links made before it was refused): a visitor's sub1 must
    // not choose where the link goes; it stays as written, so the link is broken rather than open
    const hostEnd = hostPartEnd(target);
    let last = 0;
    let literal = "";
    for (const m of target.matchAll(SLOT)) {
      const name = this.names[Number(m[1])]!;
      if (m.index < hostEnd) {
        literal += `${target.slice(last, m.index)}{${name}}`;
        last = m.index + m[0].length;
        continue;
      }
      pieces.push(literal + target.slice(last, m.index));
      literal = "";
      names.push(name);
      last = m.index + m[0].length;
    }
    pieces.push(literal + target.slice(last));
    return { pieces, names };
  }
}

/** The values of a click's macros; the country and the device worked out only when a target names them. */
export function macroValues(
  geo: GeoLookup,
  entry: CachedLink,
  req: { ip: string | null; userAgent: string | null },
  clickId: string,
  params: string | null,
): MacroValues {
  const { link, macros } = entry;
  const subs = paramsOf(params);
  return {
    click_id: clickId,
    link_id: String(link.id),
    code: link.code,
    placement_id: entry.placementId == null ? null : String(entry.placementId),
    country: macros?.uses.has("country") ? geo(req.ip).country : null,
    device: macros?.uses.has("device") ? parsedUa(req.userAgent ?? "").device : null,
    sub1: subs.sub1,
    sub2: subs.sub2,
    sub3: subs.sub3,
    sub4: subs.sub4,
    sub5: subs.sub5,
  };
}
