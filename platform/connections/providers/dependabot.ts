import { jsonOf } from "../http";
import type { Provider } from "../providers";
import { failedCheck, ProviderRefusal } from "../refusals";
import { githubGet, githubRefusal } from "./github";

/**
 * Dependabot (VULNERABILITY_SCANNER_TYPE_DEPENDABOT, issue 13) reads the organization's Dependabot alerts with the
 * credentials of a GitHub connection of the same organization (GITHUB_CONNECTION_ID): its check is that the
 * GitHub token may list them.
 */
export const dependabot: Provider = {
  async check(credentials, context) {
    const connectionId = credentials.fields.GITHUB_CONNECTION_ID;
    const github = connectionId ? await context.connection(connectionId) : undefined;
    if (github?.kind !== "VERSION_CONTROL_TYPE_GITHUB") {
      return {
        ok: false,
        message: "Choose a GitHub connection of this organization: the one chosen does not exist.",
        details: [],
        field: "GITHUB_CONNECTION_ID",
      };
    }
    const organization = github.fields.ORGANIZATION ?? "";
    try {
      const response = await githubGet(
        github,
        `/orgs/${encodeURIComponent(organization)}/dependabot/alerts?per_page=1`,
      );
      if (response.status === 403 && response.headers.get("x-ratelimit-remaining") !== "0") {
        await response.body?.cancel();
        throw new ProviderRefusal(
          `The GitHub connection's token may not read the Dependabot alerts of ${organization}: give it the "Dependabot alerts" read permission (fine-grained token) or the security_events scope (classic token).`,
          "GITHUB_CONNECTION_ID",
        );
      }
      if (!response.ok) {
        const refusal = await githubRefusal(github, response, {
          notFound: `GitHub has no organization "${organization}", or the GitHub connection's token cannot see it.`,
          tokenField: "GITHUB_CONNECTION_ID",
          notFoundField: "GITHUB_CONNECTION_ID",
        });
        // The GitHub connection's own fields are fixed on that connection: this form only chooses it.
        throw new ProviderRefusal(
          refusal.field ? `${refusal.message} Fix it on the GitHub connection.` : refusal.message,
          refusal.field && "GITHUB_CONNECTION_ID",
        );
      }
      const alerts =
        ((await jsonOf(response)) as
          | Array<{
              number: number;
              repository?: { name?: string };
              security_advisory?: { severity?: string; summary?: string };
            }>
          | undefined) ?? [];
      const latest = alerts[0];
      const severity = latest?.security_advisory?.severity;
      return {
        ok: true,
        message: `The GitHub connection's token may read the Dependabot alerts of ${organization}.`,
        details: [
          `Organization: ${organization}`,
          latest
            ? `Latest alert: #${latest.number}${severity ? ` (${severity})` : ""} in ${latest.repository?.name}: ${latest.security_advisory?.summary}`
            : "No Dependabot alerts yet",
        ],
      };
    } catch (error) {
      return failedCheck(error, "GITHUB_CONNECTION_ID", github, credentials);
    }
  },
};
