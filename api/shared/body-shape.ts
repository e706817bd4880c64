import { AppError } from "../../core/errors";

/**
 * How deep a body's arrays and objects may nest. The deepest body a route takes (a link's redirect
 * rules, a passkey's response) is under ten levels; validating a structure thousands of levels deep
 * recurses until the stack runs out, and stalls every other request meanwhile.
 */
export const MAX_BODY_DEPTH = 32;

/**
 * How many values (array items and object members) a body may hold in all. The largest a route
 * takes is a bulk of 100 links; checking hundreds of thousands of items against a schema takes
 * the thread for a noticeable time.
 */
export const MAX_BODY_VALUES = 10_000;

const tooDeep = () => new AppError(400, "invalid_body", `The request body nests arrays or objects more than ${MAX_BODY_DEPTH} levels deep`);
const tooMany = () => new AppError(400, "invalid_body", `The request body holds more than ${MAX_BODY_VALUES} values`);

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const OPEN_BRACKET = 91;
const CLOSE_BRACE = 125;
const CLOSE_BRACKET = 93;
const COMMA = 44;

/**
 * Throws 400 `invalid_body` when JSON text nests deeper than MAX_BODY_DEPTH or holds more than
 * MAX_BODY_VALUES values, in one pass over the text before anything parses it (a megabyte in a few
 * milliseconds). Brackets inside strings are text; text that is not JSON is left to the parser.
 */
export function assertJsonTextShape(text: string): void {
  let depth = 0;
  let values = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > MAX_BODY_DEPTH) throw tooDeep();
      if (++values > MAX_BODY_VALUES) throw tooMany();
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
    else if (c === COMMA && ++values > MAX_BODY_VALUES) throw tooMany();
  }
}
