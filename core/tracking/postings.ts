/**
 * Who owns each pattern of the matcher's index: per group (a pattern, or a word-forms key), the
 * (tracker, role) pairs, in two flat arrays (start offsets and pairs) rather than one array per
 * group, so a million trackers cost a few bytes each.
 */
export class Postings {
  private groups = new Int32Array(1024);
  private pairs = new Int32Array(2048);
  private count = 0;
  /** per group: its pairs are list[start[g] .. start[g + 1]) */
  start = new Int32Array(1);
  list = new Int32Array(0);

  /** Adds (tracker, role) to group `g`. */
  add(g: number, tracker: number, role: number): void {
    if (this.count === this.groups.length) {
      const groups = new Int32Array(this.count * 2);
      groups.set(this.groups);
      this.groups = groups;
      const pairs = new Int32Array(this.count * 4);
      pairs.set(this.pairs);
      this.pairs = pairs;
    }
    this.groups[this.count] = g;
    this.pairs[2 * this.count] = tracker;
    this.pairs[2 * this.count + 1] = role;
    this.count++;
  }

  /** Lays the pairs out by group (in the order they were added), for `groupCount` groups. */
  freeze(groupCount: number): this {
    const start = new Int32Array(groupCount + 1);
    for (let k = 0; k < this.count; k++) start[this.groups[k]! + 1]!++;
    for (let g = 0; g < groupCount; g++) start[g + 1]! += start[g]!;
    const at = start.slice(0, groupCount);
    const list = new Int32Array(this.count * 2);
    for (let k = 0; k < this.count; k++) {
      const to = 2 * at[this.groups[k]!]!++;
      list[to] = this.pairs[2 * k]!;
      list[to + 1] = this.pairs[2 * k + 1]!;
    }
    this.start = start;
    this.list = list;
    this.groups = new Int32Array(0);
    this.pairs = new Int32Array(0);
    return this;
  }
}
