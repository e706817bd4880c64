/** Time comes from here so tests can move it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can set and advance. */
export class ManualClock implements Clock {
  private t: number;
  constructor(start: Date | string | number = "2026-01-15T12:00:00Z") {
    this.t = new Date(start).getTime();
  }
  now() {
    return new Date(this.t);
  }
  set(to: Date | string | number) {
    this.t = new Date(to).getTime();
  }
  advance(ms: number) {
    this.t += ms;
  }
}
