/** Domain errors: thrown from core, mapped once to the contract's JSON error body at the edge. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: { field: string; message: string }[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(message: string, details?: { field: string; message: string }[]) {
    super(400, "validation_error", message, details);
  }
}
/** 400 for one field: `new FieldError("url", "must be an absolute http(s) URL")`. */
export class FieldError extends ValidationError {
  constructor(field: string, message: string) {
    super(`${field}: ${message}`, [{ field, message }]);
  }
}
/** 400 invalid_query: a tracker query that does not parse; the message names the position. */
export class InvalidQuery extends AppError {
  constructor(message: string) {
    super(400, "invalid_query", message, [{ field: "keyword", message }]);
  }
}
/** 400 chat_not_yours: notifications may only go to a channel or group of the account where the bot is an administrator. */
export class ChatNotYours extends AppError {
  constructor() {
    super(
      400,
      "chat_not_yours",
      "Notifications can only go to one of your channels or groups where the bot is an administrator: add the bot there as an administrator first",
    );
  }
}
export class Unauthorized extends AppError {
  constructor(message = "Authentication required", code = "unauthorized") {
    super(401, code, message);
  }
}
export class Forbidden extends AppError {
  constructor(message = "Not allowed", code = "forbidden") {
    super(403, code, message);
  }
}
export class PlanLimit extends AppError {
  constructor(message: string) {
    super(403, "plan_limit", message);
  }
}
/** 404 for missing resources and for resources owned by someone else (never reveal existence). */
export class NotFound extends AppError {
  constructor(what = "Resource") {
    super(404, "not_found", `${what} not found`);
  }
}
export class Conflict extends AppError {
  constructor(message: string, code = "conflict") {
    super(409, code, message);
  }
}
export class Gone extends AppError {
  constructor(message: string, code = "gone") {
    super(410, code, message);
  }
}
export class TooLarge extends AppError {
  constructor(message: string) {
    super(413, "too_large", message);
  }
}
export class RateLimited extends AppError {
  constructor(retryAfterSeconds: number, message = "Too many requests, try again later") {
    super(429, "rate_limited", message, undefined, { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}
export class NotConfigured extends AppError {
  constructor(message: string) {
    super(503, "not_configured", message);
  }
}
/** A dependency (Bot API, SMTP, webhook target) failed. */
export class Upstream extends AppError {
  constructor(message: string, code = "upstream_error", status = 502) {
    super(status, code, message);
  }
}
