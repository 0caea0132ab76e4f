import type { ConnectionKind } from "#contract/connections";
import type { Provider } from "./providers";
import { dockerRegistry, githubContainerRegistry } from "./providers/container-registry";
import { datadog } from "./providers/datadog";
import { dependabot } from "./providers/dependabot";
import { github } from "./providers/github";
import { jira } from "./providers/jira";
import { middleware } from "./providers/middleware";

/** Each kind's provider (platform/connections/providers/). */
export const providers: Partial<Record<ConnectionKind, Provider>> = {
  OBSERVABILITY_PROVIDER_TYPE_DATADOG: datadog,
  DOCKER: dockerRegistry,
  GITHUB: githubContainerRegistry,
  VERSION_CONTROL_TYPE_GITHUB: github,
  VULNERABILITY_SCANNER_TYPE_DEPENDABOT: dependabot,
  OBSERVABILITY_PROVIDER_TYPE_MIDDLEWARE: middleware,
  TICKET_MANAGER_TYPE_JIRA: jira,
};
