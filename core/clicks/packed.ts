import { clickIdOf, splitClickId, type ClickNo } from "./click-id";

/** What the redirect knows about a click; the rest (geo, device, uniqueness) is worked out when writing. */
export interface PendingClick {
  linkId: number;
  clickedAt: Date;
  ip: string | null;
  userAgent: string | null;
  referer: string | null;
  isBot: boolean;
  botName: string | null;
  /** index of the redirect rule that sent the visitor (null: none) */
  rule?: number | null;
  /** index of the A/B variant the visitor got (null: none) */
  variant?: number | null;
  /** under PRIVACY_IP truncate/none: the keyed visitor hash that decides uniqueness instead of IP + User-Agent */
  visitor?: string | null;
  /** under PRIVACY_IP truncate/none: `country\ncity` of the full address, looked up on the request */
  geo?: string | null;
  /** the click's id (click-id.ts); a click recorded by the redirect carries it in parts instead (clickPrefix, clickNo) */
  clickId?: string | null;
  /** the click id's prefix and number (click-id.ts's nextClickNo): kept so, the id is made by the writer */
  clickPrefix?: string;
  clickNo?: number;
  /** the short link's own sub1…sub5 and fbclid query parameters, joined by `\n` (clickParams); null when it had none */
  params?: string | null;
  /**
   * the short link's own query string as the visitor sent it (without `?`; null when none), from
   * which the writer reads sub1…sub5 and fbclid; a query longer than MAX_CHARS.query is read on the
   * request instead (`params`)
   */
  query?: string | null;
}

/** A click with its place in the click journal (0 when it was not journaled). */
export type JournalClick = PendingClick & { seq: number };

/**
 * A batch of clicks as two typed arrays and a table of its distinct strings (traffic repeats the same
 * user agents and addresses). It is what the click sink queues, what crosses to the writer thread (the
 * arrays are moved, not copied) and what the writer reads: facts about a string are worked out once
 * per batch, not once per click.
 */
export interface PackedClicks {
  /** per click: link id, clicked-at ms, is-bot (0/1), rule and variant index (-1 = null), journal sequence number (0 = not journaled), click number (-1: the click-id reference is the whole id, or none) */
  nums: Float64Array;
  /** per click: ip, user agent, referer, bot name, visitor hash, geo, click id (its prefix, with a click number), params, query, each as 1 + its index in `strings` (0 = null) */
  refs: Uint32Array;
  strings: string[];
}

/** Numbers and string references per click in a PackedClicks. */
export const NUMS = 7;
export const REFS = 9;

/**
 * Clicks packed as they are recorded: the request thread keeps no object per click between writes
 * (thousands of live click objects and their header strings cost the garbage collector more than the
 * packing does), only numbers in typed arrays and each distinct string once.
 */
export class ClickPacker {
  private nums = new Float64Array(NUMS * 1024);
  private refs = new Uint32Array(REFS * 1024);
  private strings: string[] = [];
  private index = new Map<string, number>();
  length = 0;

  private ref(s: string | null): number {
    if (s === null) return 0;
    let i = this.index.get(s);
    if (i === undefined) this.index.set(s, (i = this.strings.push(s)));
    return i;
  }

  add(c: PendingClick, seq = 0): void {
    const i = this.length++;
    if (i * NUMS >= this.nums.length) {
      const nums = new Float64Array(this.nums.length * 2);
      nums.set(this.nums);
      this.nums = nums;
      const refs = new Uint32Array(this.refs.length * 2);
      refs.set(this.refs);
      this.refs = refs;
    }
    this.nums[i * NUMS] = c.linkId;
    this.nums[i * NUMS + 1] = c.clickedAt.getTime();
    this.nums[i * NUMS + 2] = c.isBot ? 1 : 0;
    this.nums[i * NUMS + 3] = c.rule ?? -1;
    this.nums[i * NUMS + 4] = c.variant ?? -1;
    this.nums[i * NUMS + 5] = seq;
    this.refs[i * REFS] = this.ref(c.ip);
    this.refs[i * REFS + 1] = this.ref(c.userAgent);
    this.refs[i * REFS + 2] = this.ref(c.referer);
    this.refs[i * REFS + 3] = this.ref(c.botName);
    this.refs[i * REFS + 4] = this.ref(c.visitor ?? null);
    this.refs[i * REFS + 5] = this.ref(c.geo ?? null);
    const id = clickNoOf(c);
    this.nums[i * NUMS + 6] = id ? id.clickNo : -1;
    this.refs[i * REFS + 6] = this.ref(id ? id.clickPrefix : (c.clickId ?? null));
    this.refs[i * REFS + 7] = this.ref(c.params ?? null);
    this.refs[i * REFS + 8] = this.ref(c.query ?? null);
  }

  /** The packed clicks so far (copied out), leaving the packer empty. */
  take(): PackedClicks {
    const out = { nums: this.nums.slice(0, this.length * NUMS), refs: this.refs.slice(0, this.length * REFS), strings: this.strings };
    this.strings = [];
    this.index = new Map();
    this.length = 0;
    return out;
  }
}

/** A click's id in parts: as the redirect recorded it, or split from its string (null: none, or not one clickIdOf makes). */
export function clickNoOf(c: PendingClick): ClickNo | null {
  if (c.clickPrefix !== undefined && c.clickNo !== undefined) return c as ClickNo;
  return c.clickId ? splitClickId(c.linkId, c.clickId) : null;
}

/** The id of click `i` of a batch (null when it has none), made from its parts. */
function clickIdAt(nums: Float64Array, refs: Uint32Array, strings: string[], i: number): string | null {
  const ref = refs[i * REFS + 6]!;
  if (ref === 0) return null;
  const n = nums[i * NUMS + 6]!;
  return n < 0 ? strings[ref - 1]! : clickIdOf(nums[i * NUMS]!, strings[ref - 1]!, n);
}

/** How many clicks a packed batch holds. */
export const packedLength = (b: PackedClicks) => b.nums.length / NUMS;

export function packClicks(clicks: (PendingClick & { seq?: number })[]): PackedClicks {
  const p = new ClickPacker();
  for (const c of clicks) p.add(c, c.seq ?? 0);
  return p.take();
}

export function unpackClicks({ nums, refs, strings }: PackedClicks): JournalClick[] {
  const str = (i: number) => (i === 0 ? null : strings[i - 1]!);
  return Array.from({ length: nums.length / NUMS }, (_, i) => {
    const c: JournalClick = {
      seq: nums[i * NUMS + 5]!,
      linkId: nums[i * NUMS]!,
      clickedAt: new Date(nums[i * NUMS + 1]!),
      isBot: nums[i * NUMS + 2] === 1,
      ip: str(refs[i * REFS]!),
      userAgent: str(refs[i * REFS + 1]!),
      referer: str(refs[i * REFS + 2]!),
      botName: str(refs[i * REFS + 3]!),
    };
    // the optional facts only when set, so a click unpacks as it was recorded
    if (nums[i * NUMS + 3]! >= 0) c.rule = nums[i * NUMS + 3]!;
    if (nums[i * NUMS + 4]! >= 0) c.variant = nums[i * NUMS + 4]!;
    if (refs[i * REFS + 4]) c.visitor = str(refs[i * REFS + 4]!);
    if (refs[i * REFS + 5]) c.geo = str(refs[i * REFS + 5]!);
    if (refs[i * REFS + 6]) c.clickId = clickIdAt(nums, refs, strings, i);
    if (refs[i * REFS + 7]) c.params = str(refs[i * REFS + 7]!);
    if (refs[i * REFS + 8]) c.query = str(refs[i * REFS + 8]!);
    return c;
  });
}

/** The highest journal sequence number in a batch (0 when none of its clicks was journaled). */
export function lastSeqOf(b: PackedClicks): number {
  let max = 0;
  for (let i = 5; i < b.nums.length; i += NUMS) if (b.nums[i]! > max) max = b.nums[i]!;
  return max;
}

/** `a`'s clicks then `b`'s, as one batch (b's string references moved past a's strings). */
export function concatPacked(a: PackedClicks, b: PackedClicks): PackedClicks {
  const nums = new Float64Array(a.nums.length + b.nums.length);
  nums.set(a.nums);
  nums.set(b.nums, a.nums.length);
  const refs = new Uint32Array(a.refs.length + b.refs.length);
  refs.set(a.refs);
  const shift = a.strings.length;
  for (let i = 0; i < b.refs.length; i++) refs[a.refs.length + i] = b.refs[i] === 0 ? 0 : b.refs[i]! + shift;
  return { nums, refs, strings: a.strings.concat(b.strings) };
}

/**
 * The batch without its journaled clicks at or below `mark` (stored already): the batch itself when
 * it has none, so the common case copies nothing. Clicks that were not journaled (seq 0) stay.
 */
export function afterSeq(b: PackedClicks, mark: number): PackedClicks {
  let stale = false;
  for (let i = 5; i < b.nums.length && !stale; i += NUMS) stale = b.nums[i]! > 0 && b.nums[i]! <= mark;
  return stale ? packClicks(unpackClicks(b).filter((c) => c.seq === 0 || c.seq > mark)) : b;
}
