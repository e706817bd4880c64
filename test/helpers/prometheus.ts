/**
 * A strict reader of Prometheus' text exposition format (version 0.0.4), for tests: every line is
 * a `# HELP`, a `# TYPE` or a sample `name{label="value",…} number`, or the test fails naming the line.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: -?\\d+)?$`);
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?/y;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);

export function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  const typed = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    if (line.startsWith("#")) {
      const m = new RegExp(`^# (HELP|TYPE) (${NAME})(?: (.*))?$`).exec(line);
      if (!m) throw new Error(`not Prometheus text: ${line}`);
      if (m[1] === "TYPE") {
        if (!TYPES.has(m[3] ?? "")) throw new Error(`unknown metric type: ${line}`);
        if (typed.has(m[2]!)) throw new Error(`a second TYPE line for ${m[2]}`);
        typed.set(m[2]!, m[3]!);
      }
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not Prometheus text: ${line}`);
    const labels: Record<string, string> = {};
    if (m[2]) {
      LABEL.lastIndex = 0;
      while (LABEL.lastIndex < m[2].length) {
        const l = LABEL.exec(m[2]);
        if (!l) throw new Error(`bad labels in: ${line}`);
        labels[l[1]!] = l[2]!.replace(/\\n/g, "\n").replace(/\\"/g, '"').replace(/\\\\/g, "\\");
      }
    }
    const value = m[3] === "+Inf" ? Infinity : m[3] === "-Inf" ? -Infinity : Number(m[3]);
    if (Number.isNaN(value) && m[3] !== "NaN") throw new Error(`bad value in: ${line}`);
    const family = m[1]!.replace(/_(bucket|sum|count|total|created)$/, "");
    if (!typed.has(m[1]!) && !typed.has(family)) throw new Error(`a sample without a TYPE line: ${line}`);
    samples.push({ name: m[1]!, labels, value });
  }
  return samples;
}

/** The value of the sample named `name` whose labels include `labels`; undefined when there is none. */
export function sampleOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}
