/** Preloaded by bunfig.toml: subprocess and browser tests need more than bun's 5 s default on a busy 2-core machine. */
import { setDefaultTimeout } from "bun:test";

setDefaultTimeout(30_000);
