import { describe, expect, it } from "vitest";
import { suggestTenantName, tenantNameSchema } from "./tenants";

describe("the identifier made from an organization's name", () => {
  it("keeps letters and digits, lowercased, joined by single hyphens", () => {
    expect(suggestTenantName("Acme Corp, Inc.")).toBe("acme-corp-inc");
    expect(suggestTenantName("  Dave's   Lab 2  ")).toBe("dave-s-lab-2");
  });

  it("drops accents instead of cutting the word at them", () => {
    expect(suggestTenantName("Crème Brûlée Ltd")).toBe("creme-brulee-ltd");
  });

  it("is a valid identifier whenever the name has three letters or digits, even when long", () => {
    for (const name of ["Crème Brûlée Ltd", "x".repeat(39) + " y", "Zoë & Co"]) {
      expect(tenantNameSchema.safeParse(suggestTenantName(name)).success).toBe(true);
    }
  });
});
