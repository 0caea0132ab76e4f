import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { budgetFormSchema } from "./budget-forms";

function parse(fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return parseWithZod(form, { schema: budgetFormSchema });
}

describe("the budgets page's forms", () => {
  it("create the organization's budget when no environment is chosen, or an environment's", () => {
    expect(parse({ intent: "create", amount: "1500.50" })).toMatchObject({
      status: "success",
      value: { intent: "create", amount: 1500.5 },
    });
    const environmentId = "0b6a7f4e-5c1d-4e8a-9f2b-3c4d5e6f7a8b";
    expect(parse({ intent: "create", environmentId, amount: "20" })).toMatchObject({
      status: "success",
      value: { environmentId, amount: 20 },
    });
  });

  it("tell a missing, negative or fractional-cent amount on the field, keeping what was typed", () => {
    const missing = parse({ intent: "create", amount: "" });
    expect(missing.status).toBe("error");
    expect(missing.reply().error).toMatchObject({ amount: ["Amount is a required field"] });
    const negative = parse({ intent: "update", budgetId: "b1", amount: "-5" });
    expect(negative.reply().error).toMatchObject({ amount: ["Amount must be a positive number"] });
    expect(negative.reply().initialValue).toMatchObject({ amount: "-5" });
    expect(parse({ intent: "create", amount: "1.001" }).reply().error).toMatchObject({
      amount: ["Amount must be in whole cents"],
    });
  });
});
