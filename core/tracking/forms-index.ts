/**
 * The matcher's word-forms terms, filed by the keys of their first word (word-forms.ts): a term
 * whose first word has forms occurs wherever a post's word shares one of its keys. Terms with the
 * same keys share one key set (a slot of the matcher's Occurrences). A post's words are read in
 * the matcher's one pass (post-scan.ts), which keeps each distinct word's key sets in its cache of
 * words (the dictionary is asked once per distinct word), so a word that is no form of any term
 * costs nothing beyond the hash and the probe the automaton's reading of it needs anyway.
 */
import { normalise } from "./normalise";
import { Postings } from "./postings";
import { textForms, type FormKeys } from "./word-forms";

export class FormsIndex {
  private readonly setIds = new Map<FormKeys, number>();
  /** per key: the key sets holding it */
  private readonly byKey = new Map<string, number[]>();
  /** per key set: the trackers whose anchor it is (pairs: tracker, 0) */
  private owners = new Postings();

  get size(): number {
    return this.setIds.size;
  }

  /** The id of the key set `keys` (interned by word-forms.ts, so equal sets are one array). */
  setOf(keys: FormKeys): number {
    let id = this.setIds.get(keys);
    if (id === undefined) {
      this.setIds.set(keys, (id = this.setIds.size));
      for (const key of keys) {
        const sets = this.byKey.get(key);
        if (sets) sets.push(id);
        else this.byKey.set(key, [id]);
      }
    }
    return id;
  }

  /** Files tracker `t` as waiting for key set `set`: an occurrence makes it a candidate. */
  anchor(set: number, t: number): void {
    this.owners.add(set, t, 0);
  }

  freeze(): void {
    this.owners = this.owners.freeze(this.setIds.size);
  }

  /** Calls `candidate` with the trackers anchored on key set `set`. */
  candidates(set: number, candidate: (t: number) => void): void {
    const { start: from, list } = this.owners;
    for (let p = 2 * from[set]!; p < 2 * from[set + 1]!; p += 2) candidate(list[p]!);
  }

  /** The key sets a post's word (as written) belongs to. */
  setsOf(word: string): number[] {
    const out: number[] = [];
    for (const key of textForms(word, normalise) ?? []) for (const set of this.byKey.get(key) ?? []) if (!out.includes(set)) out.push(set);
    return out;
  }
}
