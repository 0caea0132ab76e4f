import { describe, expect, it } from "vitest";
import * as z from "zod";
import { formConstraint } from "./form-constraint";

describe("formConstraint", () => {
  it("marks required exactly the fields whose schema refuses an empty value", () => {
    const schema = z.object({
      name: z.string().min(1, "Name is required"),
      note: z.string().max(10),
      nickname: z.string().min(1).optional(),
      count: z.number(),
      enabled: z.boolean(),
      source: z.discriminatedUnion("kind", [
        z.object({ kind: z.literal("image"), image: z.string().min(1) }),
        z.object({ kind: z.literal("git"), branch: z.string().default("main") }),
      ]),
      tags: z.array(z.object({ key: z.string().min(1), value: z.string() })),
      extra: z.object({ inner: z.string().min(1) }).optional(),
    });
    const required = Object.fromEntries(
      Object.entries(formConstraint(schema)).map(([name, rule]) => [name, rule.required]),
    );
    expect(required).toMatchObject({
      name: true,
      note: false,
      nickname: false,
      count: true,
      // A switch is off or on: it has no empty value to refuse.
      enabled: false,
      "source.kind": true,
      "source.image": true,
      "source.branch": false,
      "tags[].key": true,
      "tags[].value": false,
      "extra.inner": false,
    });
  });
});
