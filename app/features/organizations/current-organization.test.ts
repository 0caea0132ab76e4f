import { afterEach, describe, expect, it, vi } from "vitest";
import type { OrganizationClaim } from "#contract/identity";
import { resolveOrganization, subdomainOrganizationName } from "./current-organization";

const organization = (id: string, name: string, tenantId?: string): OrganizationClaim => ({
  id,
  name,
  display_name: name.toUpperCase(),
  metadata: tenantId ? { tenant_id: tenantId } : {},
});
const acme = organization("org_acme", "acme-corp", "t-acme");
const globex = organization("org_globex", "globex", "t-globex");
const initech = organization("org_initech", "initech", "t-initech");
const all = [acme, globex, initech];

afterEach(() => vi.restoreAllMocks());

describe("resolveOrganization (SPEC §4 order)", () => {
  it("takes the switchOrg parameter first, by id or by name", () => {
    const options = { storedId: "org_globex", hostname: "initech.console.example" };
    expect(resolveOrganization(all, { ...options, switchOrg: "org_acme" })?.id).toBe("org_acme");
    expect(resolveOrganization(all, { ...options, switchOrg: "acme-corp" })?.id).toBe("org_acme");
  });

  it("then the stored organization", () => {
    expect(
      resolveOrganization(all, {
        switchOrg: null,
        storedId: "org_globex",
        hostname: "initech.console.example",
      })?.id,
    ).toBe("org_globex");
  });

  it("then the organization named by the subdomain", () => {
    expect(resolveOrganization(all, { hostname: "initech.console.example" })?.id).toBe("org_initech");
  });

  it("then the first", () => {
    expect(resolveOrganization(all, { hostname: "localhost" })?.id).toBe("org_acme");
  });

  it("ignores candidates the user does not belong to", () => {
    expect(
      resolveOrganization([globex], {
        switchOrg: "org_acme",
        storedId: "org_initech",
        hostname: "acme-corp.x.io",
      })?.id,
    ).toBe("org_globex");
  });

  it("is null without organizations, and skips (and logs) one without a tenant", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(resolveOrganization([], { hostname: "localhost" })).toBeNull();
    expect(resolveOrganization([organization("org_x", "x"), globex], { hostname: "localhost" })?.id).toBe(
      "org_globex",
    );
    expect(log).toHaveBeenCalledWith(expect.stringContaining("org_x"));
  });
});

describe("subdomainOrganizationName", () => {
  it.each([
    "localhost",
    "app-dev.console.example",
    "staging.console.example",
    "app.console.example",
    "127.0.0.1",
  ])("finds no organization in %s", (hostname) => expect(subdomainOrganizationName(hostname)).toBeNull());

  it("reads the first label otherwise", () => {
    expect(subdomainOrganizationName("Acme-Corp.console.example")).toBe("acme-corp");
  });
});
