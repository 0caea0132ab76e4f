import type { CloudProvider } from "#contract/cloud-providers";
import { addonNames, type Addon, type CostEstimate } from "#contract/environments";

/**
 * The embedded platform's price catalogue, in US dollars per month (730 hours). It is deterministic data, not a
 * live price list: the same provider, region and add-ons always give the same estimate.
 *
 * - Every environment has a Kubernetes control plane and a NAT gateway (the provider's list prices in its cheapest
 *   US region), multiplied by the region's market factor.
 * - Add-ons are the platform's own services and cost the same everywhere.
 * - Services add their own lines once they exist. An existing environment's estimate is its add-ons and its
 *   services (addonsMonthlyCost): a Kubernetes or network service prices its control plane or NAT gateways.
 */
export const baselinePrices: Record<CloudProvider, { item: string; monthlyCost: number }[]> = {
  AWS: [
    { item: "Kubernetes control plane (EKS)", monthlyCost: 73 },
    { item: "NAT gateway", monthlyCost: 32.85 },
  ],
  GCP: [
    { item: "Kubernetes control plane (GKE)", monthlyCost: 73 },
    { item: "Cloud NAT gateway", monthlyCost: 32.12 },
  ],
  AZURE: [
    { item: "Kubernetes control plane (AKS Standard)", monthlyCost: 73 },
    { item: "NAT gateway", monthlyCost: 32.85 },
  ],
  // A container host is the user's own machine: the platform adds nothing to run it.
  CONTAINERS: [],
};

export const addonPrices: Record<Addon["name"], number> = {
  observability: 25,
  "log-retention": 10,
  backups: 15,
  "vulnerability-scanning": 20,
  "cost-alerts": 5,
};

export type Market = "us" | "canada" | "europe" | "asia-pacific" | "middle-east-africa" | "south-america";

export const marketFactors: Record<Market, number> = {
  us: 1,
  canada: 1.05,
  europe: 1.1,
  "asia-pacific": 1.15,
  "middle-east-africa": 1.2,
  "south-america": 1.35,
};

/** Region code patterns per provider and market; every region of the contract's catalogues matches one. */
const marketPatterns: Record<CloudProvider, [RegExp, Market][]> = {
  AWS: [
    [/^us-/, "us"],
    [/^ca-/, "canada"],
    [/^eu-/, "europe"],
    [/^ap-/, "asia-pacific"],
    [/^(me|af|il)-/, "middle-east-africa"],
    [/^sa-/, "south-america"],
  ],
  GCP: [
    [/^us-/, "us"],
    [/^northamerica-/, "canada"],
    [/^europe-/, "europe"],
    [/^(asia|australia)-/, "asia-pacific"],
    [/^(me|africa)-/, "middle-east-africa"],
    [/^southamerica-/, "south-america"],
  ],
  AZURE: [
    [/us\d?$/, "us"],
    [/^canada/, "canada"],
    [/europe$|^uk|^france|^germany|^switzerland|^norway|^sweden|^poland|^italy/, "europe"],
    [/india$|asia$|^japan|^korea|^australia/, "asia-pacific"],
    [/^uae|^qatar|^southafrica/, "middle-east-africa"],
    [/^brazil/, "south-america"],
  ],
  // Its one "region", the host itself: priced at list (what services would cost is for the containers driver).
  CONTAINERS: [[/^local$/, "us"]],
};

export function marketOf(provider: CloudProvider, region: string): Market | null {
  return marketPatterns[provider].find(([pattern]) => pattern.test(region))?.[1] ?? null;
}

const cents = (value: number) => Math.round(value * 100) / 100;

/** The add-ons' lines, in catalogue order, once each, whatever order the caller named them in. */
function addonLines(addons: readonly Addon["name"][]) {
  return addonNames
    .filter((name) => addons.includes(name))
    .map((name) => ({ item: `Add-on: ${name}`, monthlyCost: addonPrices[name] }));
}

/**
 * What an existing environment costs a month on its own: its add-ons. The baseline's cluster and NAT gateway are
 * services it may not have: its Kubernetes and network services carry their prices once it has them.
 */
export function addonsMonthlyCost(addons: readonly Addon["name"][]): number {
  return cents(addonLines(addons).reduce((sum, line) => sum + line.monthlyCost, 0));
}

/**
 * The monthly estimate of a new environment (the create page): the cluster and network its services usually need,
 * in the region's market, and its add-ons. The region must be one of the provider's (checked by the caller).
 */
export function estimateEnvironmentCost({
  cloudProvider,
  region,
  addons,
}: {
  cloudProvider: CloudProvider;
  region: string;
  addons: readonly Addon["name"][];
}): CostEstimate {
  const market = marketOf(cloudProvider, region);
  if (!market) throw new Error(`no market for ${cloudProvider} region ${region}`);
  const factor = marketFactors[market];
  const breakdown = [
    ...baselinePrices[cloudProvider].map(({ item, monthlyCost }) => ({
      item,
      monthlyCost: cents(monthlyCost * factor),
    })),
    ...addonLines(addons),
  ];
  return {
    currency: "USD",
    monthlyCost: cents(breakdown.reduce((sum, line) => sum + line.monthlyCost, 0)),
    breakdown,
  };
}
