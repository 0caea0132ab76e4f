import { regionsByProvider, type CloudProvider } from "#contract/cloud-providers";

export const cloudProviderLabels: Record<CloudProvider, string> = {
  AWS: "AWS",
  GCP: "Google Cloud",
  AZURE: "Azure",
  CONTAINERS: "Containers",
};

/**
 * SPEC §3: AWS and GCP always; Azure only while the `azure-connection` flag is on. Containers on a container host
 * always (issue 26: beyond SPEC's list, decision 058).
 */
export function availableCloudProviders({ azureEnabled }: { azureEnabled: boolean }): CloudProvider[] {
  return azureEnabled ? ["AWS", "GCP", "AZURE", "CONTAINERS"] : ["AWS", "GCP", "CONTAINERS"];
}

/** The provider's catalogue as select options, each shown with its label and its code. */
export function regionOptions(provider: CloudProvider): { value: string; label: string }[] {
  return regionsByProvider[provider].map((region) => ({
    value: region.code,
    label: `${region.label} · ${region.code}`,
  }));
}

/** The catalogue's label of a region code, or the code itself when the catalogue does not know it. */
export function regionLabel(provider: CloudProvider, code: string): string {
  return regionsByProvider[provider].find((region) => region.code === code)?.label ?? code;
}

/** The region a form starts with: the first of the catalogue (for AWS, us-east-1). */
export function defaultRegion(provider: CloudProvider): string {
  return regionsByProvider[provider][0]?.code ?? "";
}
