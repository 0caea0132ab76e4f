import type { CloudProvider } from "#contract/cloud-providers";

/** The sections of an environment's pages, each a tab of the environment layout. */
export const environmentSections = ["overview", "config", "addons", "variables", "clone"] as const;
export type EnvironmentSection = (typeof environmentSections)[number];

const environmentRoot = (environmentName: string) => `/env/${encodeURIComponent(environmentName)}`;

/** The app's own addresses of the environment pages and their resource routes. */
export const environmentPagePaths = {
  list: "/environments",
  create: "/environments/create",
  /** SPEC §2.2: the create page with `workspaceId` and `mode=clone` clones that environment instead. */
  cloneFrom: (sourceEnvironmentId: string) =>
    `/environments/create?${new URLSearchParams({ workspaceId: sourceEnvironmentId, mode: "clone" })}`,
  estimateCost: ({
    cloudProvider,
    region,
    addons = [],
  }: {
    cloudProvider: CloudProvider;
    region: string;
    addons?: readonly string[];
  }) => {
    const query = new URLSearchParams({ cloudProvider, region });
    for (const addon of addons) query.append("addons", addon);
    return `/environments/estimate-cost?${query}`;
  },
  /** The sample .env template, downloaded as a file. */
  sampleEnvFile: "/environments/sample.env",
  section: (environmentName: string, section: EnvironmentSection = "overview") =>
    section === "overview"
      ? environmentRoot(environmentName)
      : `${environmentRoot(environmentName)}/${section}`,
  delete: (environmentName: string) => `${environmentRoot(environmentName)}/delete`,
  /** POST starts 'Export as Terraform'; GET with an export id polls it. */
  terraformExport: (environmentName: string, exportId?: string) =>
    `${environmentRoot(environmentName)}/terraform-export${exportId ? `?${new URLSearchParams({ id: exportId })}` : ""}`,
  variableValue: (environmentName: string, variableId: string) =>
    `${environmentRoot(environmentName)}/variables/${encodeURIComponent(variableId)}/value`,
};

/** Which tab a pathname under /env/{name} belongs to. */
export function sectionOfPath(pathname: string): EnvironmentSection {
  const [, , , section] = pathname.split("/");
  return environmentSections.find((candidate) => candidate === section) ?? "overview";
}
