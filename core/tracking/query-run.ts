/**
 * The query trackers of one index as the matcher evaluates them on a post. Terms are shared: a term
 * that several trackers have is checked once per post (word boundaries, forms, the rest of a
 * phrase), and NEAR's word numbers are found once per post, whichever trackers ask. Each tracker
 * still pays its own budget for what it asks, as if it had done the work alone, so whether a
 * tracker is skipped on a post never depends on the other trackers.
 */
import type { Occurrences } from "./occurrences";
import { evaluate } from "./query";
import { checkTerm, nearInOrder, OVER_BUDGET, WORK_BUDGET, WordPositions, type CompiledQuery, type TermCheck } from "./query-match";

class Spent extends Error {}

/** Word numbers of a term's occurrences in a post: where each starts and where it ends. */
interface Spans {
  start: Int32Array;
  end: Int32Array;
}

export class QueryRunner {
  private readonly ids = new Map<TermCheck, number>();
  private readonly terms: TermCheck[] = [];
  /** per term: its slot as the matcher filed it while building (see `freeze`) */
  private readonly refs: number[] = [];
  private slots = new Int32Array(0);
  /** per tracker: its terms' ids are termIds[termStart[t] .. termStart[t + 1]) */
  private readonly starts: number[] = [0];
  private readonly flat: number[] = [];
  private termStart = new Int32Array(0);
  private termIds = new Int32Array(0);
  private maxTerms = 0;

  // the post being matched
  private post = 0;
  private checkedStamp = new Int32Array(0);
  private checked: number[][] = [];
  private spanStamp = new Int32Array(0);
  private spans: Spans[] = [];
  private text = "";
  private occurrences: Occurrences | null = null;
  private words: WordPositions | null = null;

  // the tracker being evaluated
  private base = 0;
  private left = 0;
  private round = 0;
  private seen = new Int32Array(0);
  private spanSeen = new Int32Array(0);
  private order: number[] = [];
  private readonly has = (k: number) => this.hits(k).length > 0;
  private readonly near = (a: number, b: number, distance: number) => {
    const sa = this.span(a);
    const sb = this.span(b);
    this.spend(2 * (sa.start.length + sb.start.length));
    return nearInOrder(sa.end, sb.start, distance) || nearInOrder(sb.end, sa.start, distance);
  };

  /**
   * Files the next tracker's query (trackers come in order; null for a plain one). `refOf` gives a
   * new term's slot as the matcher files it. Returns the ids of the query's terms.
   */
  add(query: CompiledQuery | null, refOf: (term: TermCheck) => number): number[] {
    const ids = (query?.terms ?? []).map((term) => {
      let id = this.ids.get(term);
      if (id === undefined) {
        this.ids.set(term, (id = this.terms.length));
        this.terms.push(term);
        this.refs.push(refOf(term));
      }
      return id;
    });
    this.flat.push(...ids);
    this.starts.push(this.flat.length);
    this.maxTerms = Math.max(this.maxTerms, ids.length);
    return ids;
  }

  /** A term's ref as filed by `add`. */
  refOf(id: number): number {
    return this.refs[id]!;
  }

  /** Ends the build: `slotOf` turns a ref into the slot the Occurrences hold it under (-1: never occurs). */
  freeze(slotOf: (ref: number) => number): void {
    this.slots = Int32Array.from(this.refs, slotOf);
    this.termStart = Int32Array.from(this.starts);
    this.termIds = Int32Array.from(this.flat);
    this.checkedStamp = new Int32Array(this.terms.length);
    this.spanStamp = new Int32Array(this.terms.length);
    this.checked = new Array(this.terms.length);
    this.spans = new Array(this.terms.length);
    this.seen = new Int32Array(this.maxTerms);
    this.spanSeen = new Int32Array(this.maxTerms);
  }

  /** Starts a post: `text` (NFKC) and where the slots occurred in it. */
  begin(text: string, occurrences: Occurrences): void {
    this.post++;
    this.text = text;
    this.occurrences = occurrences;
    this.words = null;
  }

  /** Work the last evaluated tracker spent (more than WORK_BUDGET when it was skipped). */
  get spent(): number {
    return WORK_BUDGET - this.left;
  }

  /** Evaluates tracker `t`'s query on the post: the match to show, null, or OVER_BUDGET. */
  evaluate(t: number, query: CompiledQuery): { start: number; end: number } | null | typeof OVER_BUDGET {
    this.base = this.termStart[t]!;
    this.left = WORK_BUDGET;
    this.round++;
    this.order.length = 0;
    try {
      if (!evaluate(query.root, this.has, this.near)) return null;
      let best: number[] | null = null;
      for (const k of query.positive) {
        const list = this.hits(k);
        if (list.length && (!best || list[0]! < best[0]!)) best = list;
      }
      // a match shown by no positive term (a double negation): the first term found
      for (const k of best ? [] : this.order) {
        best = this.hits(k);
        if (best.length) break;
      }
      return best?.length ? { start: best[0]!, end: best[1]! } : null;
    } catch (e) {
      if (e instanceof Spent) return OVER_BUDGET;
      throw e;
    }
  }

  private spend(units: number): void {
    this.left -= units;
    if (this.left < 0) throw new Spent();
  }

  /** The checked occurrences of the tracker's term `k` ([start, end) pairs, in text order). */
  private hits(k: number): number[] {
    const id = this.termIds[this.base + k]!;
    if (this.seen[k] !== this.round) {
      this.seen[k] = this.round;
      this.order.push(k);
      this.spend(this.occurrences!.count(this.slots[id]!) * this.terms[id]!.words.length);
    }
    if (this.checkedStamp[id] === this.post) return this.checked[id]!;
    const raw = this.occurrences!.list(this.slots[id]!);
    const list: number[] = [];
    for (let i = 0; i < raw.length; i += 2) {
      const end = checkTerm(this.terms[id]!, this.text, raw[i]!, raw[i + 1]!);
      if (end !== -1) list.push(raw[i]!, end);
    }
    this.checkedStamp[id] = this.post;
    this.checked[id] = list;
    return list;
  }

  private span(k: number): Spans {
    const list = this.hits(k);
    if (this.spanSeen[k] !== this.round) {
      this.spanSeen[k] = this.round;
      this.spend(list.length / 2);
    }
    const id = this.termIds[this.base + k]!;
    if (this.spanStamp[id] === this.post) return this.spans[id]!;
    const words = (this.words ??= new WordPositions(this.text));
    const out = { start: new Int32Array(list.length / 2), end: new Int32Array(list.length / 2) };
    for (let i = 0; i < list.length; i += 2) {
      out.start[i / 2] = words.at(list[i]!);
      out.end[i / 2] = words.at(list[i + 1]! - 1);
    }
    this.spanStamp[id] = this.post;
    this.spans[id] = out;
    return out;
  }
}
