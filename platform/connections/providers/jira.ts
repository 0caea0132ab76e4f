import { endpoint, jsonOf, providerFetch } from "../http";
import type { Credentials, Provider } from "../providers";
import { asProviderRequest, failedCheck, ProviderRefusal } from "../refusals";

/**
 * Jira Cloud (TICKET_MANAGER_TYPE_JIRA, issue 13) through its REST API v3 at the site (BASE_URL), signed in with
 * Basic USERNAME (the account's e-mail) : TOKEN (an API token of that account). The check says who signed in and
 * which project tickets go to; createJiraIssue opens the ticket for a failed deployment.
 */

/** Jira's limits: 255 characters of summary, 32 767 of a text field (cut below it, with room for the note). */
const SUMMARY_MAX = 255;
const DESCRIPTION_MAX = 30_000;

type JiraErrors = { errorMessages?: string[]; errors?: Record<string, string> };

function site(credentials: Credentials) {
  return credentials.fields.BASE_URL ?? "";
}

function jiraFetch(credentials: Credentials, path: string, init: { method?: string; body?: unknown } = {}) {
  const basic = Buffer.from(
    `${credentials.fields.USERNAME ?? ""}:${credentials.secrets.TOKEN ?? ""}`,
  ).toString("base64");
  return providerFetch(endpoint(site(credentials), path), {
    method: init.method ?? "GET",
    headers: {
      Accept: "application/json",
      Authorization: `Basic ${basic}`,
      ...(init.body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

/** Jira's error body ({errorMessages, errors: {field: message}}) as one sentence, or "". */
function jiraReasons(body: unknown): string {
  const { errorMessages = [], errors = {} } = (body ?? {}) as JiraErrors;
  return [...errorMessages, ...Object.entries(errors).map(([field, message]) => `${field}: ${message}`)].join(
    "; ",
  );
}

/** What a 401, 403 or an answer that is not Jira's means; undefined for the statuses the caller explains. */
async function jiraRefusal(
  credentials: Credentials,
  response: Response,
): Promise<ProviderRefusal | undefined> {
  const host = new URL(site(credentials)).host;
  if (response.status === 401) {
    return new ProviderRefusal(
      `Jira (${host}) refused the e-mail or API token: check both (an API token of id.atlassian.com, with the e-mail of its account).`,
      "TOKEN",
    );
  }
  if (
    response.status === 403 &&
    response.headers.get("x-seraph-loginreason")?.includes("AUTHENTICATION_DENIED")
  ) {
    return new ProviderRefusal(
      `Jira (${host}) asks for a CAPTCHA after failed sign-ins: sign in once in a browser, then try again.`,
      "TOKEN",
    );
  }
  const contentType = response.headers.get("content-type") ?? "";
  if (!contentType.includes("json")) {
    return new ProviderRefusal(
      `${host} does not answer like Jira Cloud (HTTP ${response.status}): check the site URL (e.g. https://acme.atlassian.net).`,
      "BASE_URL",
    );
  }
  return undefined;
}

export const jira: Provider = {
  async check(credentials) {
    const projectKey = credentials.fields.PROJECT_KEY ?? "";
    try {
      const myself = await jiraFetch(credentials, "/rest/api/3/myself");
      if (!myself.ok) {
        throw (
          (await jiraRefusal(credentials, myself)) ??
          new ProviderRefusal(
            `Jira answered ${myself.status}: ${jiraReasons(await jsonOf(myself))}`,
            "BASE_URL",
          )
        );
      }
      const user = (await jsonOf(myself)) as { displayName?: string; emailAddress?: string } | undefined;
      const who = user?.displayName ?? credentials.fields.USERNAME ?? "";

      const projectResponse = await jiraFetch(
        credentials,
        `/rest/api/3/project/${encodeURIComponent(projectKey)}`,
      );
      if (projectResponse.status === 404) {
        await projectResponse.body?.cancel();
        throw new ProviderRefusal(
          `Jira has no project "${projectKey}", or ${who} cannot browse it.`,
          "PROJECT_KEY",
        );
      }
      if (!projectResponse.ok) {
        throw (
          (await jiraRefusal(credentials, projectResponse)) ??
          new ProviderRefusal(
            `Jira answered ${projectResponse.status} for the project ${projectKey}: ${jiraReasons(await jsonOf(projectResponse))}`,
            "PROJECT_KEY",
          )
        );
      }
      const project = (await jsonOf(projectResponse)) as { key?: string; name?: string } | undefined;
      return {
        ok: true,
        message: `Jira accepted ${who}, who can open tickets in ${project?.name ?? projectKey}.`,
        details: [
          `Signed in as ${who}${user?.emailAddress ? ` (${user.emailAddress})` : ""}`,
          `Project: ${project?.name ?? projectKey} (${project?.key ?? projectKey})`,
        ],
      };
    } catch (error) {
      return failedCheck(error, "BASE_URL", credentials);
    }
  },
};

// ---------------------------------------------------------------------------------------------------------------
// Tickets

type AdfInline =
  | { type: "text"; text: string; marks?: Array<{ type: "link"; attrs: { href: string } }> }
  | { type: "hardBreak" };

/** One line's text with its http(s) addresses as links (a sentence's punctuation after one is not part of it). */
function inlineNodes(line: string): AdfInline[] {
  const nodes: AdfInline[] = [];
  let at = 0;
  for (const match of line.matchAll(/https?:\/\/[^\s<>"]*[^\s<>".,;:!?')\]]/g)) {
    const start = match.index ?? 0;
    if (start > at) nodes.push({ type: "text", text: line.slice(at, start) });
    nodes.push({ type: "text", text: match[0], marks: [{ type: "link", attrs: { href: match[0] } }] });
    at = start + match[0].length;
  }
  if (at < line.length) nodes.push({ type: "text", text: line.slice(at) });
  return nodes;
}

/**
 * Plain text as an Atlassian Document (what REST v3 takes for a description): blank lines separate paragraphs,
 * line breaks stay, addresses become links. Empty text nodes are invalid in ADF, so empty lines carry none.
 */
export function toAtlassianDocument(text: string) {
  const paragraphs = text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n+/)
    .filter((paragraph) => paragraph.trim());
  return {
    type: "doc" as const,
    version: 1 as const,
    content: paragraphs.map((paragraph) => ({
      type: "paragraph" as const,
      content: paragraph
        .split("\n")
        .flatMap((line, index): AdfInline[] => [
          ...(index > 0 ? [{ type: "hardBreak" as const }] : []),
          ...inlineNodes(line),
        ]),
    })),
  };
}

export type JiraTicket = { summary: string; description: string; labels: string[] };

/**
 * Opens a Jira issue in the connection's project: a Bug, or a Task where the project has no Bug type. Throws
 * ProviderRequestError with Jira's reason in plain words.
 */
export function createJiraIssue(
  credentials: Credentials,
  ticket: JiraTicket,
): Promise<{ key: string; url: string }> {
  return asProviderRequest([credentials], async () => {
    const projectKey = credentials.fields.PROJECT_KEY ?? "";
    const typesResponse = await jiraFetch(
      credentials,
      `/rest/api/3/issue/createmeta/${encodeURIComponent(projectKey)}/issuetypes`,
    );
    if (typesResponse.status === 404) {
      throw new ProviderRefusal(
        `Jira has no project "${projectKey}", or this account cannot create issues in it.`,
      );
    }
    if (!typesResponse.ok) {
      throw (
        (await jiraRefusal(credentials, typesResponse)) ??
        new ProviderRefusal(
          `Jira answered ${typesResponse.status}: ${jiraReasons(await jsonOf(typesResponse))}`,
        )
      );
    }
    const meta = (await jsonOf(typesResponse)) as
      | { issueTypes?: Array<{ id: string; name: string }>; values?: Array<{ id: string; name: string }> }
      | undefined;
    const types = meta?.issueTypes ?? meta?.values ?? [];
    const named = (name: string) => types.find((type) => type.name.toLowerCase() === name);
    const issueType = named("bug") ?? named("task");
    if (!issueType) {
      throw new ProviderRefusal(
        `The Jira project ${projectKey} has neither a Bug nor a Task issue type: add one of them to the project.`,
      );
    }

    const summary =
      ticket.summary.length > SUMMARY_MAX ? `${ticket.summary.slice(0, SUMMARY_MAX - 1)}…` : ticket.summary;
    const description =
      ticket.description.length > DESCRIPTION_MAX
        ? `${ticket.description.slice(0, DESCRIPTION_MAX)}\n\n… (cut: the rest is longer than a Jira description may be)`
        : ticket.description;
    // Jira labels are single words.
    const labels = ticket.labels.map((label) => label.trim().replace(/\s+/g, "-")).filter(Boolean);
    const created = await jiraFetch(credentials, "/rest/api/3/issue", {
      method: "POST",
      body: {
        fields: {
          project: { key: projectKey },
          issuetype: { id: issueType.id },
          summary,
          description: toAtlassianDocument(description),
          labels,
        },
      },
    });
    if (created.status === 403) {
      await created.body?.cancel();
      throw new ProviderRefusal(`This Jira account may not create issues in the project ${projectKey}.`);
    }
    if (!created.ok) {
      const refusal = await jiraRefusal(credentials, created);
      if (refusal) throw refusal;
      throw new ProviderRefusal(`Jira refused the issue: ${jiraReasons(await jsonOf(created))}`);
    }
    const issue = (await jsonOf(created)) as { key?: string } | undefined;
    if (!issue?.key) throw new ProviderRefusal("Jira created the issue but did not say its key.");
    return { key: issue.key, url: `${site(credentials)}/browse/${encodeURIComponent(issue.key)}` };
  });
}
