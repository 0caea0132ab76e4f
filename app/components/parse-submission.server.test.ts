import * as z from "zod";
import { describe, expect, it } from "vitest";
import { parseSubmission } from "./parse-submission.server";

const schema = z.object({
  name: z.string().trim().min(1).max(5),
  email: z.email().max(12).optional(),
  tags: z.array(z.string().max(3)).max(5),
  config: z.object({ description: z.string().max(4).default("") }),
  port: z.union([z.string().max(2), z.number()]),
  mode: z
    .string()
    .max(6)
    .transform((value) => value.toUpperCase()),
});

function formOf(entries: [string, string][]): FormData {
  const form = new FormData();
  for (const [key, value] of entries) form.append(key, value);
  return form;
}

describe("parseSubmission's replies", () => {
  it("echo each value cut to its field's maximum, nested, listed, optional, unioned and transformed alike", () => {
    const submission = parseSubmission(
      formOf([
        ["name", "x".repeat(100)],
        ["email", `${"a".repeat(100)}@example.com`],
        ["tags", "abcdef"],
        ["tags", "ok"],
        ["config.description", "y".repeat(50)],
        ["port", "12345"],
        ["mode", "z".repeat(40)],
        ["unknown", "kept as sent"],
      ]),
      { schema },
    );
    expect(submission.status).toBe("error");
    expect(submission.reply().initialValue).toEqual({
      name: "xxxxx",
      email: "aaaaaaaaaaaa",
      tags: ["abc", "ok"],
      config: { description: "yyyy" },
      port: "12",
      mode: "zzzzzz",
      unknown: "kept as sent",
    });
  });

  it("echo values within their maxima unchanged", () => {
    const submission = parseSubmission(formOf([["name", "ok"]]), { schema });
    expect(submission.reply().initialValue).toMatchObject({ name: "ok" });
  });
});
