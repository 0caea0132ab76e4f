import { isRegionOf, type CloudProvider } from "#contract/cloud-providers";
import { defaultRegion } from "~/features/environments/cloud-regions";

type CloudAccount = { value: string; provider: CloudProvider };

/**
 * Where a fastboot runs: the chosen account's provider (AWS, the simulated cloud, without one) and the region asked
 * for when it is that provider's, else the provider's first. An unknown account counts as none; no account asked
 * for at all (not even none, "") is `offered`, the account offered first (a verified container host).
 */
export function placementOf(
  accounts: readonly CloudAccount[],
  asked: { cloudConnectionId?: string | null; region?: string | null },
  offered?: string,
): { cloudProvider: CloudProvider; region: string; cloudConnectionId: string } {
  const chosen = asked.cloudConnectionId ?? offered;
  const account = accounts.find((choice) => choice.value === chosen);
  const cloudProvider = account?.provider ?? "AWS";
  const region =
    asked.region && isRegionOf(cloudProvider, asked.region) ? asked.region : defaultRegion(cloudProvider);
  return { cloudProvider, region, cloudConnectionId: account?.value ?? "" };
}
