import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credentials } from "../providers";
import { ProviderRequestError } from "../providers";
import {
  closedPortUrl,
  leakedSecrets,
  providerContext,
  startFakeJira,
  startTestServer,
  type FakeJira,
  type TestServer,
} from "../../testing/provider-servers";
import { createJiraIssue, jira, toAtlassianDocument } from "./jira";

const TOKEN = "ATATT3x-jira-S3CRET-0001";
const WRONG = "ATATT3x-wrong-S3CRET-0002";
const secrets = [TOKEN, WRONG];
const context = providerContext();

let site: FakeJira;
let notJira: TestServer;

beforeAll(async () => {
  site = await startFakeJira({
    email: "ada@acme.test",
    token: TOKEN,
    displayName: "Ada Lovelace",
    projects: [
      { key: "PLAT", name: "Platform", issueTypes: ["Task", "Bug", "Epic"] },
      { key: "OPS", name: "Operations", issueTypes: ["Story", "Task"] },
      { key: "DOCS", name: "Documentation", issueTypes: ["Page"] },
    ],
  });
  notJira = await startTestServer({ "GET /": () => ({ body: "<html>intranet</html>" }) });
});
afterAll(async () => {
  await site.close();
  await notJira.close();
});

function connection(projectKey: string, { token = TOKEN, baseUrl = site.url } = {}): Credentials {
  return {
    kind: "TICKET_MANAGER_TYPE_JIRA",
    method: "api-token",
    fields: { BASE_URL: baseUrl, USERNAME: "ada@acme.test", PROJECT_KEY: projectKey },
    secrets: { TOKEN: token },
  };
}

async function refusal(promise: Promise<unknown>): Promise<ProviderRequestError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProviderRequestError);
  expect(leakedSecrets(error, secrets)).toEqual([]);
  return error as ProviderRequestError;
}

const ticket = {
  summary: "Deployment of api failed in production",
  description:
    "The deployment failed.\nLogs: https://console.acme.test/logs/42\n\nDiff:\n- image: 1.0\n+ image: 1.1",
  labels: ["cloud console", "deployment-failed"],
};

describe("the Jira check", () => {
  it("says who signed in and which project the tickets go to", async () => {
    const before = site.requests.length;
    const result = await jira.check(connection("PLAT"), context);
    expect(result).toEqual({
      ok: true,
      message: "Jira accepted Ada Lovelace, who can open tickets in Platform.",
      details: ["Signed in as Ada Lovelace (ada@acme.test)", "Project: Platform (PLAT)"],
    });
    const [myself, project] = site.requests.slice(before);
    expect(myself?.path).toBe("/rest/api/3/myself");
    expect(myself?.headers.authorization).toBe(
      `Basic ${Buffer.from(`ada@acme.test:${TOKEN}`).toString("base64")}`,
    );
    expect(project?.path).toBe("/rest/api/3/project/PLAT");
  });

  it("says Jira refused a wrong e-mail or token, on the token field", async () => {
    const result = await jira.check(connection("PLAT", { token: WRONG }), context);
    expect(result).toEqual({
      ok: false,
      message: `Jira (${new URL(site.url).host}) refused the e-mail or API token: check both (an API token of id.atlassian.com, with the e-mail of its account).`,
      details: [],
      field: "TOKEN",
    });
    expect(leakedSecrets(result, secrets)).toEqual([]);
  });

  it("says the project key is unknown, on the project key field", async () => {
    const result = await jira.check(connection("NOPE"), context);
    expect(result).toMatchObject({
      ok: false,
      message: 'Jira has no project "NOPE", or Ada Lovelace cannot browse it.',
      field: "PROJECT_KEY",
    });
  });

  it("points at the site URL when it is not Jira", async () => {
    const result = await jira.check(connection("PLAT", { baseUrl: notJira.url }), context);
    expect(result).toMatchObject({ ok: false, field: "BASE_URL" });
    expect(result.message).toBe(
      `${new URL(notJira.url).host} does not answer like Jira Cloud (HTTP 404): check the site URL (e.g. https://acme.atlassian.net).`,
    );
  });

  it("says a host that refuses connections or does not exist cannot be reached", async () => {
    const closed = await closedPortUrl();
    expect(await jira.check(connection("PLAT", { baseUrl: closed }), context)).toEqual({
      ok: false,
      message: `Could not reach ${new URL(closed).host}: the connection was refused.`,
      details: [],
      field: "BASE_URL",
    });
    const unknown = await jira.check(connection("PLAT", { baseUrl: "http://nothing.invalid" }), context);
    expect(unknown).toMatchObject({ ok: false, field: "BASE_URL" });
    expect(unknown.message).toMatch(/^Could not reach nothing\.invalid: its name/);
  });
});

describe("createJiraIssue", () => {
  it("opens a Bug with the description as an Atlassian document and returns its address", async () => {
    const created = await createJiraIssue(connection("PLAT"), ticket);
    expect(created).toEqual({ key: "PLAT-1", url: `${site.url}/browse/PLAT-1` });
    const issue = site.issues.find((one) => one.key === created.key);
    expect(issue?.fields).toMatchObject({
      project: { key: "PLAT" },
      issuetype: { id: "10001" },
      summary: ticket.summary,
      labels: ["cloud-console", "deployment-failed"],
      description: toAtlassianDocument(ticket.description),
    });
  });

  it("opens a Task where the project has no Bug type", async () => {
    const created = await createJiraIssue(connection("OPS"), ticket);
    expect(site.issues.find((one) => one.key === created.key)?.fields.issuetype).toEqual({ id: "10101" });
  });

  it("says when the project has neither a Bug nor a Task type", async () => {
    const error = await refusal(createJiraIssue(connection("DOCS"), ticket));
    expect(error.message).toBe(
      "The Jira project DOCS has neither a Bug nor a Task issue type: add one of them to the project.",
    );
  });

  it("cuts a summary longer than Jira takes", async () => {
    const created = await createJiraIssue(connection("PLAT"), { ...ticket, summary: "x".repeat(400) });
    const summary = site.issues.find((one) => one.key === created.key)?.fields.summary;
    expect(summary).toHaveLength(255);
  });

  it("gives Jira's reason when it refuses the issue", async () => {
    const error = await refusal(createJiraIssue(connection("PLAT"), { ...ticket, summary: " " }));
    expect(error.message).toBe("Jira refused the issue: summary: You must specify a summary of the issue.");
  });

  it("says a wrong token, an unknown project and an unreachable site in plain words", async () => {
    const wrong = await refusal(createJiraIssue(connection("PLAT", { token: WRONG }), ticket));
    expect(wrong.message).toContain("refused the e-mail or API token");
    const unknown = await refusal(createJiraIssue(connection("NOPE"), ticket));
    expect(unknown.message).toBe('Jira has no project "NOPE", or this account cannot create issues in it.');
    const closed = await closedPortUrl();
    const unreachable = await refusal(createJiraIssue(connection("PLAT", { baseUrl: closed }), ticket));
    expect(unreachable.message).toBe(`Could not reach ${new URL(closed).host}: the connection was refused.`);
  });
});

describe("toAtlassianDocument", () => {
  it("keeps paragraphs and line breaks and links addresses, without the punctuation after them", () => {
    expect(toAtlassianDocument("First line\nhttps://a.test/x, then text\n\n\nSecond")).toEqual({
      type: "doc",
      version: 1,
      content: [
        {
          type: "paragraph",
          content: [
            { type: "text", text: "First line" },
            { type: "hardBreak" },
            {
              type: "text",
              text: "https://a.test/x",
              marks: [{ type: "link", attrs: { href: "https://a.test/x" } }],
            },
            { type: "text", text: ", then text" },
          ],
        },
        { type: "paragraph", content: [{ type: "text", text: "Second" }] },
      ],
    });
  });

  it("writes no empty text node for an empty line", () => {
    expect(toAtlassianDocument("a\n\u0020\nb").content).toHaveLength(2);
    expect(toAtlassianDocument("")).toEqual({ type: "doc", version: 1, content: [] });
  });
});
