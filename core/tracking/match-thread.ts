/** The matcher's thread entry (match-worker.ts). */
import { serveMatcher } from "./match-worker";

serveMatcher();
