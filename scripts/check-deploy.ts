/**
 * The container files, checked where no container can run (CI here has no Docker): deploy/Dockerfile
 * is parsed by `dockerfile-ast` (the parser of the Docker language server) and held to what the
 * docs promise; deploy/compose.yaml is parsed as YAML (Bun's own parser) and its services checked
 * against the shipped haproxy.cfg. `bun run scripts/check-deploy.ts` prints each problem and exits 1
 * if there is one.
 */
import { DockerfileParser, Env, Keyword, type Instruction } from "dockerfile-ast";
import { startCommand } from "./start-command";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const KEYWORDS = new Set<string>(Object.values(Keyword));

/** The problems of a Dockerfile's text; `root` is the build context (the repository). */
export function checkDockerfile(text: string, root = ROOT): string[] {
  const problems: string[] = [];
  const file = DockerfileParser.parse(text);
  const instructions = file.getInstructions();
  if (!instructions.length) return ["Dockerfile: no instructions"];
  for (const i of instructions) {
    const line = i.getRange().start.line + 1;
    const keyword = i.getKeyword().toUpperCase();
    if (!KEYWORDS.has(keyword)) problems.push(`Dockerfile:${line}: unknown instruction ${i.getKeyword()}`);
    else if (!i.getArgumentsContent()?.trim()) problems.push(`Dockerfile:${line}: ${keyword} without arguments`);
    // an exec form must be a JSON array, or Docker runs it through a shell as a string
    const content = i.getArgumentsContent() ?? "";
    const exec = keyword === "HEALTHCHECK" ? /\bCMD\s+(\[[\s\S]*\])\s*$/.exec(content)?.[1] : /^\s*(\[[\s\S]*\])\s*$/.exec(content)?.[1];
    if (exec && ["CMD", "ENTRYPOINT", "HEALTHCHECK", "RUN"].includes(keyword) && !execForm(exec))
      problems.push(`Dockerfile:${line}: ${keyword}'s exec form is not a JSON array of strings`);
  }
  const froms = file.getFROMs();
  if (!froms.length || instructions[0]!.getKeyword().toUpperCase() !== "FROM")
    problems.push("Dockerfile: must start with FROM (after ARGs and directives)");
  for (const f of froms) {
    if (!f.getImageName()?.startsWith("oven/bun"))
      problems.push(`Dockerfile:${f.getRange().start.line + 1}: FROM ${f.getImageName()} is not Bun's official image (oven/bun)`);
    // a floating tag (latest, 1, 1.4) changes the runtime under a rebuild: an exact release, or a digest
    else if (!f.getImageDigest() && !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(f.getImageTag() ?? ""))
      problems.push(
        `Dockerfile:${f.getRange().start.line + 1}: FROM ${f.getImage()} is a floating tag; name an exact release (oven/bun:1.4.5) or a digest`,
      );
  }
  // what holds for the image that runs: the instructions after the last FROM
  const lastFrom = froms.at(-1)?.getRange().start.line ?? 0;
  const final = instructions.filter((i) => i.getRange().start.line >= lastFrom);
  const last = (k: string) => final.filter((i) => i.getKeyword().toUpperCase() === k).at(-1);
  const user = last("USER")?.getArgumentsContent()?.trim();
  if (!user || /^(root|0)(:|$)/.test(user)) problems.push("Dockerfile: the final image must switch to a user other than root (USER)");
  const health = last("HEALTHCHECK")?.getArgumentsContent() ?? "";
  if (!health.includes("/livez")) problems.push("Dockerfile: the final image needs a HEALTHCHECK on /livez");
  if (!last("CMD") && !last("ENTRYPOINT")) problems.push("Dockerfile: the final image has no CMD");
  problems.push(...startProblems(last("CMD"), final, root));
  for (const copy of file.getCOPYs()) {
    const args = copy.getArguments().map((a) => a.getValue());
    if (copy.getFromFlag()) continue; // from another stage
    if (args.slice(0, -1).includes("."))
      problems.push(
        `Dockerfile:${copy.getRange().start.line + 1}: COPY . copies the whole context (tests, a local .env); name what the service runs`,
      );
    for (const src of args.slice(0, -1))
      if (!src.startsWith("--") && src !== "." && !existsSync(join(root, src)))
        problems.push(`Dockerfile:${copy.getRange().start.line + 1}: COPY source ${src} does not exist`);
  }
  return problems;
}

/** An exec form's words (a JSON array of strings, over continued lines), or null when it is not one. */
function execForm(text: string): string[] | null {
  try {
    const parsed: unknown = JSON.parse(text.replace(/\\\n/g, ""));
    return Array.isArray(parsed) && parsed.every((a) => typeof a === "string") ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * The final image runs the service as `bun start` does: its CMD (`cmd`, the last) is the start
 * script's command, and its ENV sets each variable the script sets, to the same value.
 */
function startProblems(cmd: Instruction | undefined, final: Instruction[], root: string): string[] {
  const problems: string[] = [];
  const start = startCommand(root);
  const argv = execForm(cmd?.getArgumentsContent() ?? "");
  // a CMD that is no exec form is named above
  if (argv && JSON.stringify(argv) !== JSON.stringify(start.argv))
    problems.push(`Dockerfile: CMD runs ${JSON.stringify(argv)}, not what \`bun start\` runs (${JSON.stringify(start.argv)})`);
  const env = new Map<string, string | null>();
  for (const e of final.filter((i): i is Env => i instanceof Env)) for (const p of e.getProperties()) env.set(p.getName(), p.getValue());
  for (const [name, value] of Object.entries(start.env))
    if (env.get(name) !== value)
      problems.push(`Dockerfile: ENV ${name} is ${env.get(name) ?? "not set"}, but \`bun start\` sets ${name}=${value}`);
  return problems;
}

type Service = {
  build?: { context?: string; dockerfile?: string };
  image?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  networks?: Record<string, { ipv4_address?: string } | null>;
};

/** The problems of a compose file's text; `deployDir` holds it and what it mounts, `haproxyCfg` the shipped configuration. */
export function checkCompose(text: string, haproxyCfg: string, deployDir = join(ROOT, "deploy")): string[] {
  const problems: string[] = [];
  let doc: { services?: Record<string, Service> };
  try {
    doc = Bun.YAML.parse(text) as typeof doc;
  } catch (e) {
    return [`compose.yaml: not YAML: ${(e as Error).message}`];
  }
  const services = doc?.services ?? {};
  for (const name of ["postgres", "haproxy", "node1", "node2", "node3"])
    if (!services[name]) problems.push(`compose.yaml: no service ${name}`);
  const nodes = Object.entries(services).filter(([, s]) => s.environment?.DATABASE_URL !== undefined);
  const names = new Set<string>();
  const addresses = new Set<string>();
  for (const [name, s] of nodes) {
    const env = s.environment!;
    if (!env.NODE_NAME) problems.push(`compose.yaml: ${name} has no NODE_NAME`);
    else if (names.has(env.NODE_NAME)) problems.push(`compose.yaml: NODE_NAME ${env.NODE_NAME} is used twice`);
    else names.add(env.NODE_NAME);
    if (!/^postgres(ql)?:\/\/[^@]+@postgres[:/]/.test(env.DATABASE_URL!))
      problems.push(`compose.yaml: ${name}'s DATABASE_URL does not name the postgres service`);
    const dockerfile = s.build?.dockerfile && join(deployDir, s.build.context ?? ".", s.build.dockerfile);
    if (!dockerfile || !existsSync(dockerfile)) problems.push(`compose.yaml: ${name} is not built from the Dockerfile`);
    if (!s.volumes?.some((v) => v.endsWith(":/data"))) problems.push(`compose.yaml: ${name} keeps no volume at /data (its click journal)`);
    for (const n of Object.values(s.networks ?? {})) if (n?.ipv4_address) addresses.add(`${n.ipv4_address}:3000`);
  }
  if (nodes.length < 3) problems.push(`compose.yaml: ${nodes.length} nodes with a DATABASE_URL, not three`);
  for (const [name, s] of Object.entries(services))
    for (const v of s.volumes ?? []) {
      const host = v.split(":")[0]!;
      if (host.startsWith(".") && !existsSync(join(deployDir, host)))
        problems.push(`compose.yaml: ${name} mounts ${host}, which does not exist`);
    }
  // the tests run PostgreSQL 15: the compose file runs what was tested
  const pgImage = (services.postgres as Service | undefined)?.image ?? "";
  if (services.postgres && !/^postgres:15(\.|-|$)/.test(pgImage))
    problems.push(`compose.yaml: postgres runs ${pgImage}, not PostgreSQL 15 as the tests do`);
  const haproxy = services.haproxy;
  if (haproxy && !haproxy.volumes?.some((v) => v.startsWith("./haproxy.cfg:")))
    problems.push("compose.yaml: haproxy does not use the shipped haproxy.cfg");
  // the shipped configuration names the nodes by address: each must be a node of this file
  // (each node appears once per backend: named once)
  const servers = new Set([...haproxyCfg.matchAll(/^\s*server\s+(\S+)\s+(\S+)/gm)].map((m) => `${m[1]} ${m[2]}`));
  for (const [name, address] of [...servers].map((s) => s.split(" ")))
    if (!addresses.has(address!)) problems.push(`compose.yaml: haproxy.cfg's server ${name} (${address}) is no node of this file`);
  return problems;
}

if (import.meta.main) {
  const deploy = join(ROOT, "deploy");
  const problems = [
    ...checkDockerfile(readFileSync(join(deploy, "Dockerfile"), "utf8")),
    ...checkCompose(readFileSync(join(deploy, "compose.yaml"), "utf8"), readFileSync(join(deploy, "haproxy.cfg"), "utf8")),
  ];
  for (const p of problems) console.error(p);
  if (problems.length) process.exit(1);
  console.log("deploy/Dockerfile and deploy/compose.yaml: parsed and checked");
}
