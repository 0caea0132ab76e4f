import type { ConnectionKind } from "#contract/connections";
import type { Provider } from "./providers";
import { datadog } from "./providers/datadog";

/** Each kind's provider (platform/connections/providers/). */
export const providers: Partial<Record<ConnectionKind, Provider>> = {
  OBSERVABILITY_PROVIDER_TYPE_DATADOG: datadog,
};
