import type { SubmissionResult } from "@conform-to/react";
import type { ActionFunctionArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import type { OrganizationClaim } from "#contract/identity";

process.env.SESSION_SECRET = "s".repeat(40);
process.env.AUTH0_DOMAIN = "id.example";
process.env.AUTH0_CLIENT_SECRET = "client-secret";
process.env.PLATFORM_API_URL = "https://platform.example";
process.env.APP_URL = "https://console.example";

const { action } = await import("~/routes/_app.settings.users.roles.new");
const { commitSession, getSession } = await import("~/auth/session.server");

const acme: OrganizationClaim = {
  id: "org_acme",
  name: "acme",
  display_name: "Acme Corp",
  metadata: { tenant_id: "tenant-1" },
};

/** A signed-in member of Acme posting the create-role form. */
async function submit(fields: Record<string, string>) {
  const session = await getSession(new Request("https://console.example/"));
  session.set("user", { sub: "user_bob", name: "Bob", email: "bob@example.com" });
  session.set("organizations", [acme]);
  session.set("tokens", {
    accessToken: "access",
    refreshToken: "refresh",
    expiresAt: Date.now() + 3_600_000,
  });
  const cookie = (await commitSession(session)).split(";")[0] ?? "";
  const request = new Request("https://console.example/settings/users/roles/new", {
    method: "POST",
    headers: { Cookie: cookie },
    body: new URLSearchParams(fields),
  });
  const result = await action({ request, params: {}, context: {} } as ActionFunctionArgs);
  return result as unknown as { data: SubmissionResult; init: ResponseInit | null };
}

describe("creating a role with values over their maximum", () => {
  it("answers the field errors without sending the values back beyond each field's maximum", async () => {
    const { data, init } = await submit({
      name: "n".repeat(100_000),
      description: "d".repeat(100_000),
      permissions: "services.deploy",
    });
    expect(init?.status).toBe(400);
    expect(data.error?.name).toEqual(["Name must be at most 60 characters"]);
    expect(data.error?.description).toEqual(["Description must be at most 255 characters"]);
    expect(data.initialValue).toEqual({
      name: "n".repeat(60),
      description: "d".repeat(255),
      permissions: "services.deploy",
    });
  });
});
