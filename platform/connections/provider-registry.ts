import type { ConnectionKind } from "#contract/connections";
import type { Provider } from "./providers";
import { aws } from "./providers/aws";
import { awsEcr } from "./providers/aws-ecr";
import { azure } from "./providers/azure";
import { containerHost } from "./providers/container-host";
import { dockerRegistry, githubContainerRegistry } from "./providers/container-registry";
import { datadog } from "./providers/datadog";
import { dependabot } from "./providers/dependabot";
import { gcp } from "./providers/gcp";
import { gcpArtifactRegistry } from "./providers/gcp-artifact-registry";
import { github } from "./providers/github";
import { jira } from "./providers/jira";
import { middleware } from "./providers/middleware";
import { slack } from "./providers/slack";
import { teams } from "./providers/teams";

/** Each kind's provider (platform/connections/providers/). */
export const providers: Record<ConnectionKind, Provider> = {
  AWS: aws,
  AWS_ECR: awsEcr,
  AZURE: azure,
  CONTAINER_HOST: containerHost,
  GCP: gcp,
  GCP_ARTIFACT_REGISTRY: gcpArtifactRegistry,
  OBSERVABILITY_PROVIDER_TYPE_DATADOG: datadog,
  COMMUNICATION_PLATFORM_TYPE_SLACK: slack,
  COMMUNICATION_PLATFORM_TYPE_TEAMS: teams,
  DOCKER: dockerRegistry,
  GITHUB: githubContainerRegistry,
  VERSION_CONTROL_TYPE_GITHUB: github,
  VULNERABILITY_SCANNER_TYPE_DEPENDABOT: dependabot,
  OBSERVABILITY_PROVIDER_TYPE_MIDDLEWARE: middleware,
  TICKET_MANAGER_TYPE_JIRA: jira,
};
