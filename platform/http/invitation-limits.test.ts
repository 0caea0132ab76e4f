import type { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiErrorSchema } from "#contract/error-body";
import { invitationPaths } from "#contract/invitations";
import { eq } from "drizzle-orm";
import { plans } from "#contract/users";
import { invitationSends, organizations } from "../db/schema";
import { openTestApi, type TestApi, type TestMember } from "../testing/http-harness";
import { createApiApp } from "./app";

let api: TestApi;

beforeAll(async () => {
  api = await openTestApi();
});

afterAll(async () => {
  await api?.close();
});

const HOUR_S = 60 * 60;

/** An admin of an organization whose plan's members (open invitations count) are not what these tests reach. */
async function adminOnEnterprise(): Promise<TestMember> {
  const admin = await api.createMember({ role: "admin" });
  await api.db
    .update(organizations)
    .set({ plan: plans.ENTERPRISE.id })
    .where(eq(organizations.id, admin.organization.organizationId));
  return admin;
}

/** Addresses no other test uses: the per-address limit counts across organizations. */
function addresses(prefix: string, count: number): string[] {
  const run = Math.random().toString(36).slice(2, 8);
  return Array.from({ length: count }, (_, index) => `${prefix}-${run}-${index}@example.com`);
}

/** Invites through `app`: the test API's, or a second one over the same database. */
function invite(admin: TestMember, emails: string[], app: Hono = api.app) {
  return app.request(`/api${invitationPaths.list(admin.organization.tenantId)}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${admin.user.token}` },
    body: JSON.stringify({ emails, grants: [{ role: "developer", environmentIds: null }] }),
  });
}

function resend(admin: TestMember, email: string) {
  return api.call("POST", invitationPaths.reinvite(admin.organization.tenantId), {
    token: admin.user.token,
    json: { email },
  });
}

/** The 429's plain message and its Retry-After in seconds. */
async function refusal(response: Response) {
  expect(response.status).toBe(429);
  const body = apiErrorSchema.parse(await response.json());
  expect(body.fieldErrors).toBeUndefined();
  return { message: body.message, retryAfter: Number(response.headers.get("Retry-After")) };
}

/** Sends the organization made before this test, `ago` seconds back, as the limits read them. */
async function sentBefore(admin: TestMember, emails: string[], ago: number) {
  const sentAt = new Date(Date.now() - ago * 1000);
  await api.db
    .insert(invitationSends)
    .values(emails.map((email) => ({ organizationId: admin.organization.organizationId, email, sentAt })));
}

describe("invitation limits per organization", () => {
  it("takes 50 invitations in an hour and refuses the 51st with 429, Retry-After and when to try again", async () => {
    const admin = await adminOnEnterprise();
    expect((await invite(admin, addresses("hour", 50))).status).toBe(201);

    const [late] = addresses("hour-late", 1);
    const { message, retryAfter } = await refusal(await invite(admin, [late ?? ""]));
    expect(message).toBe(
      "This organization has sent 50 invitations in the last hour, the most allowed. Try again in 60 minutes.",
    );
    expect(retryAfter).toBeGreaterThan(HOUR_S - 60);
    expect(retryAfter).toBeLessThanOrEqual(HOUR_S);
    const listed = await api.call(
      "GET",
      `${invitationPaths.list(admin.organization.tenantId)}?email=${late}`,
      {
        token: admin.user.token,
      },
    );
    expect(await listed.json()).toEqual({ invitations: [] });
  });

  it("refuses a batch that would pass the hour's limit as a whole, and takes what fits", async () => {
    const admin = await adminOnEnterprise();
    await sentBefore(admin, addresses("earlier", 45), 10 * 60);
    const { message, retryAfter } = await refusal(await invite(admin, addresses("batch", 10)));
    expect(message).toContain("This organization has sent 45 invitations in the last hour");
    expect(message).toContain("Try again in 50 minutes.");
    expect(retryAfter).toBeGreaterThan(49 * 60);
    expect(retryAfter).toBeLessThanOrEqual(50 * 60);
    expect((await invite(admin, addresses("fits", 5))).status).toBe(201);
  });

  it("refuses more than 200 invitations in a day, naming the day's limit and when the oldest drops out", async () => {
    const admin = await adminOnEnterprise();
    await sentBefore(admin, addresses("morning", 100), 20 * HOUR_S);
    await sentBefore(admin, addresses("noon", 100), 5 * HOUR_S);
    const { message, retryAfter } = await refusal(await invite(admin, addresses("evening", 1)));
    expect(message).toBe(
      "This organization has sent 200 invitations in the last 24 hours, the most allowed. Try again in 4 hours.",
    );
    expect(retryAfter).toBeGreaterThan(4 * HOUR_S - 60);
    expect(retryAfter).toBeLessThanOrEqual(4 * HOUR_S);
  });

  it("counts from the database: a second platform process on it sees the first one's invitations", async () => {
    const admin = await adminOnEnterprise();
    expect((await invite(admin, addresses("first", 50))).status).toBe(201);
    const second = createApiApp({ db: api.db, config: api.config, jwks: api.tokens.jwks });
    expect((await invite(admin, addresses("second", 1), second)).status).toBe(429);
  });
});

describe("invitation limits per address", () => {
  it("sends one address at most 3 invitations a day across organizations, then names it and when to try again", async () => {
    const [target = ""] = addresses("target", 1);
    for (let index = 0; index < 3; index += 1) {
      const admin = await adminOnEnterprise();
      expect((await invite(admin, [target])).status).toBe(201);
    }
    const fourth = await adminOnEnterprise();
    const others = addresses("other", 2);
    const { message, retryAfter } = await refusal(await invite(fourth, [...others, target]));
    expect(message).toBe(
      `${target} has been sent 3 invitations in the last 24 hours, the most allowed for one address. Try again in 24 hours.`,
    );
    expect(retryAfter).toBeGreaterThan(24 * HOUR_S - 60);
    // A refused batch sends none of its addresses.
    const listed = await api.call("GET", invitationPaths.list(fourth.organization.tenantId), {
      token: fourth.user.token,
    });
    expect(await listed.json()).toEqual({ invitations: [] });
  });

  it("counts re-sends: the invitation and two re-sends go out, the third re-send is refused", async () => {
    const admin = await adminOnEnterprise();
    const [invitee = ""] = addresses("resent", 1);
    expect((await invite(admin, [invitee])).status).toBe(201);
    expect((await resend(admin, invitee)).status).toBe(200);
    expect((await resend(admin, invitee)).status).toBe(200);
    const { message } = await refusal(await resend(admin, invitee));
    expect(message).toContain(`${invitee} has been sent 3 invitations in the last 24 hours`);
  });
});
