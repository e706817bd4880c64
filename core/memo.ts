/**
 * A bounded memo for pure functions of a string (User-Agent parsing, bot detection, IP lookups):
 * traffic repeats the same few values, so the hot path and the click flusher mostly hit the map.
 * When full, the oldest entries are dropped (insertion order).
 */
export function memoize<T>(fn: (key: string) => T, max = 5000): (key: string) => T {
  const cache = new Map<string, T>();
  return (key: string) => {
    let v = cache.get(key);
    if (v === undefined && !cache.has(key)) {
      v = fn(key);
      if (cache.size >= max) cache.delete(cache.keys().next().value!);
      cache.set(key, v);
    }
    return v as T;
  };
}
