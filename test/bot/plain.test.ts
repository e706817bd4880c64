/** Errors in the words of the person editing (bot/plain.ts): no field path, items counted from 1. */
import { expect, test } from "bun:test";
import { fieldName, plainProblem } from "../../bot/plain";
import { AppError, FieldError, ValidationError } from "../../core/errors";

test("field paths become the options' names; list items count from 1 as the screens count", () => {
  expect(fieldName("expires_at")).toBe("the expiry");
  expect(fieldName("variants[2].weight")).toBe("variant 3, weight");
  expect(fieldName("rules[0].if.country[1]")).toBe("rule 1, country 2");
  expect(fieldName("rules[4].if.query.utm_source")).toBe("rule 5, query, UTM source");
  expect(fieldName("some_new_field")).toBe("some new field");
});

test("a problem is one sentence per field; an error without fields keeps its message", () => {
  expect(plainProblem(new FieldError("password", "must be 4 to 128 characters"))).toBe("The password must be 4 to 128 characters.");
  expect(
    plainProblem(
      new ValidationError("two", [
        { field: "max_clicks", message: "must be a positive whole number" },
        { field: "url", message: "is empty." },
      ]),
    ),
  ).toBe("The click cap must be a positive whole number.\nThe target URL is empty.");
  expect(plainProblem(new AppError(409, "tag_exists", 'You already have a tag named "x"'))).toBe('You already have a tag named "x"');
});
