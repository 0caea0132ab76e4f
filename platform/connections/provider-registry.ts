import type { ConnectionKind } from "#contract/connections";
import type { Provider } from "./providers";
import { aws } from "./providers/aws";
import { awsEcr } from "./providers/aws-ecr";
import { azure } from "./providers/azure";
import { datadog } from "./providers/datadog";
import { gcp } from "./providers/gcp";
import { gcpArtifactRegistry } from "./providers/gcp-artifact-registry";

/** Each kind's provider (platform/connections/providers/). */
export const providers: Partial<Record<ConnectionKind, Provider>> = {
  AWS: aws,
  AWS_ECR: awsEcr,
  AZURE: azure,
  GCP: gcp,
  GCP_ARTIFACT_REGISTRY: gcpArtifactRegistry,
  OBSERVABILITY_PROVIDER_TYPE_DATADOG: datadog,
};
