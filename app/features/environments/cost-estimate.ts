import type { CloudProvider } from "#contract/cloud-providers";
import type { CostEstimate } from "#contract/environments";

/** What the page shows for a choice of cloud, region and add-ons: the platform's estimate or why there is none. */
export type CostEstimateResult =
  | { kind: "estimate"; estimate: CostEstimate }
  | { kind: "error"; message: string };

/** What an estimate is asked for. */
export type CostChoice = { cloudProvider: CloudProvider; region: string; addons?: readonly string[] };
