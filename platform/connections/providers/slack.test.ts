import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSlackServer, type SlackServer } from "../../testing/chat-servers";
import type { Credentials, ProviderContext } from "../providers";
import { slack } from "./slack";

let workspace: SlackServer;
beforeAll(async () => {
  workspace = await startSlackServer({
    hooks: ["live-hook"],
    revoked: ["revoked-hook"],
    archived: ["archived-hook"],
    tokens: { "xoxb-live-token": ["#deployments"] },
    channels: ["#deployments", "#general"],
  });
});
afterAll(() => workspace.close());

const context: ProviderContext = {
  awsExternalId: "unused",
  organizationName: "Acme Robotics",
  appUrl: "https://console.acme.test",
  connection: () => Promise.resolve(undefined),
};

const webhook = (url: string): Credentials => ({
  kind: "COMMUNICATION_PLATFORM_TYPE_SLACK",
  method: "webhook",
  fields: {},
  secrets: { WEBHOOK_URL: url },
});
const bot = (token: string, channel: string, baseUrl = workspace.apiUrl): Credentials => ({
  kind: "COMMUNICATION_PLATFORM_TYPE_SLACK",
  method: "token",
  fields: { CHANNEL: channel, BASE_URL: baseUrl },
  secrets: { TOKEN: token },
});

describe("Slack through an incoming webhook", () => {
  it("posts the test message and says it arrived", async () => {
    const before = workspace.delivered.length;
    const result = await slack.check(webhook(workspace.webhookUrl("live-hook")), context);
    expect(result).toMatchObject({ ok: true, message: expect.stringContaining("test message") });
    const [posted] = workspace.delivered.slice(before);
    expect(posted?.text).toContain("Connection test from Acme Robotics: notifications will arrive here");
    expect(JSON.stringify(posted?.blocks)).toContain("<https://console.acme.test/settings/connections|");
  });

  it.each([
    ["unknown-hook", "no_service"],
    ["revoked-hook", "invalid_token"],
    ["archived-hook", "channel_is_archived"],
  ])("explains Slack's refusal of %s (%s) and points at the webhook URL", async (hook, code) => {
    const result = await slack.check(webhook(workspace.webhookUrl(hook)), context);
    expect(result).toMatchObject({ ok: false, field: "WEBHOOK_URL" });
    expect(result.message).toContain(`(${code})`);
    expect(result.message).not.toContain(hook);
  });

  it("says Slack's status when it fails for its own reasons, without blaming a field", async () => {
    workspace.failNext(1, { status: 500, body: "rollup_error" });
    const result = await slack.check(webhook(workspace.webhookUrl("live-hook")), context);
    expect(result).toEqual({ ok: false, message: "Slack answered 500: rollup_error", details: [] });
  });

  it("says the host is unreachable when nothing listens there", async () => {
    const gone = await startSlackServer();
    const url = gone.webhookUrl("live-hook");
    await gone.close();
    const result = await slack.check(webhook(url), context);
    expect(result).toMatchObject({ ok: false, field: "WEBHOOK_URL" });
    expect(result.message).toMatch(/^Could not reach 127\.0\.0\.1:\d+: the connection was refused\.$/);
  });
});

describe("Slack through a bot token", () => {
  it("posts the test message to the channel with the token", async () => {
    const before = workspace.requests.length;
    const result = await slack.check(bot("xoxb-live-token", "#deployments"), context);
    expect(result.ok).toBe(true);
    const [request] = workspace.requests.slice(before);
    expect(request?.headers.authorization).toBe("Bearer xoxb-live-token");
    expect(JSON.parse(request?.body ?? "{}")).toMatchObject({
      channel: "#deployments",
      text: expect.stringContaining("notifications will arrive here"),
    });
  });

  it.each([
    ["xoxb-wrong", "#deployments", "invalid_auth", "TOKEN"],
    ["xoxb-live-token", "#nowhere", "channel_not_found", "CHANNEL"],
    ["xoxb-live-token", "#general", "not_in_channel", "CHANNEL"],
  ])("explains %s in %s (%s) and points at %s", async (token, channel, code, field) => {
    const result = await slack.check(bot(token, channel), context);
    expect(result).toMatchObject({ ok: false, field });
    expect(result.message).toContain(`(${code})`);
    expect(result.message).not.toContain(token);
  });

  it("points at the API URL when it does not answer like Slack", async () => {
    const result = await slack.check(
      bot("xoxb-live-token", "#deployments", `${workspace.url}/elsewhere`),
      context,
    );
    expect(result).toMatchObject({ ok: false, field: "BASE_URL" });
    expect(result.message).toContain("404");
  });
});
