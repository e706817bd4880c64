/**
 * Asks `<origin>/livez` over HTTP from its own process (as a load balancer's probe would), a request
 * every PACE_MS at most (never two at once), until its stdin closes; prints "probing" once WARM_UP answers came (its
 * own start-up is not the service's), then, at the end, the answer times in ms after those as a JSON array. For the tests that no work stalls the service.
 */
const origin = process.argv[2]!;
let on = true;
void (async () => {
  for await (const _ of Bun.stdin.stream());
  on = false;
})();
const WARM_UP = 50;
/** dense enough to see any stall of 100 ms many times over, without taking a core from the service */
const PACE_MS = 2;
const times: number[] = [];
while (on) {
  const started = performance.now();
  const res = await fetch(`${origin}/livez`);
  await res.text();
  if (res.status !== 200) throw new Error(`/livez answered ${res.status}`);
  times.push(performance.now() - started);
  if (times.length === WARM_UP) console.log("probing");
  await Bun.sleep(PACE_MS);
}
console.log(JSON.stringify(times.slice(WARM_UP)));
