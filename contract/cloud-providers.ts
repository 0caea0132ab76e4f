import { awsRegions } from "./aws-regions";

/**
 * SPEC §3 cloud providers; Azure is offered only when the `azure-connection` flag is on. CONTAINERS goes beyond
 * SPEC's list (issue 26, docs/decisions/058-container-driver.md): containers on a Docker or Podman engine, always
 * on a container host connection (never simulated), in its one "region", the host itself.
 */
export const cloudProviders = ["AWS", "GCP", "AZURE", "CONTAINERS"] as const;
export type CloudProvider = (typeof cloudProviders)[number];

export type Region = { code: string; label: string };

/** The GCP region catalogue (SPEC §3, about 40). */
export const gcpRegions: Region[] = [
  { code: "us-central1", label: "Iowa" },
  { code: "us-east1", label: "South Carolina" },
  { code: "us-east4", label: "Northern Virginia" },
  { code: "us-east5", label: "Columbus" },
  { code: "us-south1", label: "Dallas" },
  { code: "us-west1", label: "Oregon" },
  { code: "us-west2", label: "Los Angeles" },
  { code: "us-west3", label: "Salt Lake City" },
  { code: "us-west4", label: "Las Vegas" },
  { code: "northamerica-northeast1", label: "Montréal" },
  { code: "northamerica-northeast2", label: "Toronto" },
  { code: "northamerica-south1", label: "Querétaro" },
  { code: "southamerica-east1", label: "São Paulo" },
  { code: "southamerica-west1", label: "Santiago" },
  { code: "europe-central2", label: "Warsaw" },
  { code: "europe-north1", label: "Finland" },
  { code: "europe-north2", label: "Stockholm" },
  { code: "europe-southwest1", label: "Madrid" },
  { code: "europe-west1", label: "Belgium" },
  { code: "europe-west2", label: "London" },
  { code: "europe-west3", label: "Frankfurt" },
  { code: "europe-west4", label: "Netherlands" },
  { code: "europe-west6", label: "Zurich" },
  { code: "europe-west8", label: "Milan" },
  { code: "europe-west9", label: "Paris" },
  { code: "europe-west10", label: "Berlin" },
  { code: "europe-west12", label: "Turin" },
  { code: "me-central1", label: "Doha" },
  { code: "me-central2", label: "Dammam" },
  { code: "me-west1", label: "Tel Aviv" },
  { code: "africa-south1", label: "Johannesburg" },
  { code: "asia-east1", label: "Taiwan" },
  { code: "asia-east2", label: "Hong Kong" },
  { code: "asia-northeast1", label: "Tokyo" },
  { code: "asia-northeast2", label: "Osaka" },
  { code: "asia-northeast3", label: "Seoul" },
  { code: "asia-south1", label: "Mumbai" },
  { code: "asia-south2", label: "Delhi" },
  { code: "asia-southeast1", label: "Singapore" },
  { code: "asia-southeast2", label: "Jakarta" },
  { code: "australia-southeast1", label: "Sydney" },
  { code: "australia-southeast2", label: "Melbourne" },
];

/** The Azure region catalogue (SPEC §3, about 33). */
export const azureRegions: Region[] = [
  { code: "eastus", label: "East US" },
  { code: "eastus2", label: "East US 2" },
  { code: "centralus", label: "Central US" },
  { code: "northcentralus", label: "North Central US" },
  { code: "southcentralus", label: "South Central US" },
  { code: "westcentralus", label: "West Central US" },
  { code: "westus", label: "West US" },
  { code: "westus2", label: "West US 2" },
  { code: "westus3", label: "West US 3" },
  { code: "canadacentral", label: "Canada Central" },
  { code: "canadaeast", label: "Canada East" },
  { code: "brazilsouth", label: "Brazil South" },
  { code: "northeurope", label: "North Europe" },
  { code: "westeurope", label: "West Europe" },
  { code: "uksouth", label: "UK South" },
  { code: "ukwest", label: "UK West" },
  { code: "francecentral", label: "France Central" },
  { code: "germanywestcentral", label: "Germany West Central" },
  { code: "switzerlandnorth", label: "Switzerland North" },
  { code: "norwayeast", label: "Norway East" },
  { code: "swedencentral", label: "Sweden Central" },
  { code: "polandcentral", label: "Poland Central" },
  { code: "italynorth", label: "Italy North" },
  { code: "uaenorth", label: "UAE North" },
  { code: "qatarcentral", label: "Qatar Central" },
  { code: "southafricanorth", label: "South Africa North" },
  { code: "centralindia", label: "Central India" },
  { code: "southindia", label: "South India" },
  { code: "eastasia", label: "East Asia" },
  { code: "southeastasia", label: "Southeast Asia" },
  { code: "japaneast", label: "Japan East" },
  { code: "koreacentral", label: "Korea Central" },
  { code: "australiaeast", label: "Australia East" },
];

/** A container host has no regions: its containers run where its engine does. */
export const containerHostRegions: Region[] = [{ code: "local", label: "The host's engine" }];

export const regionsByProvider: Record<CloudProvider, readonly Region[]> = {
  AWS: awsRegions,
  GCP: gcpRegions,
  AZURE: azureRegions,
  CONTAINERS: containerHostRegions,
};

export function isRegionOf(provider: CloudProvider, code: string): boolean {
  return regionsByProvider[provider].some((region) => region.code === code);
}
