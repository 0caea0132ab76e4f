import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTeamsServer, type TeamsServer } from "../../testing/chat-servers";
import type { Credentials, ProviderContext } from "../providers";
import { teams } from "./teams";

let tenant: TeamsServer;
beforeAll(async () => {
  tenant = await startTeamsServer({
    hooks: ["live-hook"],
    tokens: { "graph-live-token": true, "graph-read-only": false },
    channels: ["team-1/channel-1"],
  });
});
afterAll(() => tenant.close());

const context: ProviderContext = {
  awsExternalId: "unused",
  organizationName: "Acme Robotics",
  appUrl: "https://console.acme.test",
  connection: () => Promise.resolve(undefined),
};

const webhook = (url: string): Credentials => ({
  kind: "COMMUNICATION_PLATFORM_TYPE_TEAMS",
  method: "webhook",
  fields: {},
  secrets: { WEBHOOK_URL: url },
});
const graph = (token: string, channel: string): Credentials => ({
  kind: "COMMUNICATION_PLATFORM_TYPE_TEAMS",
  method: "token",
  fields: { CHANNEL: channel, BASE_URL: tenant.url },
  secrets: { TOKEN: token },
});

describe("Teams through an incoming webhook", () => {
  it("posts the test message as a card linking to the app", async () => {
    const before = tenant.delivered.length;
    const result = await teams.check(webhook(tenant.webhookUrl("live-hook")), context);
    expect(result.ok).toBe(true);
    const [card] = tenant.delivered.slice(before);
    expect(card).toMatchObject({
      "@type": "MessageCard",
      text: "Connection test from Acme Robotics: notifications will arrive here",
      potentialAction: [{ targets: [{ uri: "https://console.acme.test/settings/connections" }] }],
    });
  });

  it("points at the webhook URL when Teams does not know it", async () => {
    const result = await teams.check(webhook(tenant.webhookUrl("removed-hook")), context);
    expect(result).toMatchObject({ ok: false, field: "WEBHOOK_URL" });
    expect(result.message).toContain("Teams answered 404: Webhook not found.");
    expect(result.message).not.toContain("removed-hook");
  });

  it("says why when Teams answers 200 without posting", async () => {
    tenant.failNext(1, { status: 200, body: "Microsoft Teams endpoint returned HTTP error 413" });
    const result = await teams.check(webhook(tenant.webhookUrl("live-hook")), context);
    expect(result).toEqual({
      ok: false,
      message: "Teams did not post the message (200): Microsoft Teams endpoint returned HTTP error 413",
      details: [],
    });
  });
});

describe("Teams through Microsoft Graph", () => {
  it("posts the test message to the team's channel with the token", async () => {
    const before = tenant.requests.length;
    const result = await teams.check(graph("graph-live-token", "team-1/channel-1"), context);
    expect(result.ok).toBe(true);
    const [request] = tenant.requests.slice(before);
    expect(request?.path).toBe("/v1.0/teams/team-1/channels/channel-1/messages");
    expect(request?.headers.authorization).toBe("Bearer graph-live-token");
    expect(request?.body).toContain("Connection test from Acme Robotics: notifications will arrive here");
  });

  it.each([
    ["graph-expired", "team-1/channel-1", "InvalidAuthenticationToken", "TOKEN"],
    ["graph-read-only", "team-1/channel-1", "Forbidden", "TOKEN"],
    ["graph-live-token", "team-1/channel-9", "NotFound", "CHANNEL"],
  ])("explains %s on %s (%s) and points at %s", async (token, channel, code, field) => {
    const result = await teams.check(graph(token, channel), context);
    expect(result).toMatchObject({ ok: false, field });
    expect(result.message).toContain(`(${code})`);
    expect(result.message).not.toContain(token);
  });
});
