import type { ConnectionKind } from "#contract/connections";
import type { Provider } from "./providers";
import { datadog } from "./providers/datadog";
import { slack } from "./providers/slack";
import { teams } from "./providers/teams";

/** Each kind's provider (platform/connections/providers/). */
export const providers: Partial<Record<ConnectionKind, Provider>> = {
  OBSERVABILITY_PROVIDER_TYPE_DATADOG: datadog,
  COMMUNICATION_PLATFORM_TYPE_SLACK: slack,
  COMMUNICATION_PLATFORM_TYPE_TEAMS: teams,
};
