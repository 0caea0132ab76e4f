import * as z from "zod";
import {
  applicationConfigSchemaWith,
  githubSourceSchema,
  helmChartSourceBaseSchema,
  publicImageSourceSchema,
  registryImageSourceSchema,
} from "./application-config";
import { helmValuesProblem } from "./helm-values";
import { configDiffSchema, serviceNameSchema } from "./services";
import { stageSchema } from "./stage-schema";

/**
 * Applications (issue 15, SPEC §2.2 Applications, §7 infrastructure): the create form's schema (Helm values checked
 * by ./helm-values.ts), versions and roll back. The configuration's fields are in ./application-config.ts (imported by the
 * services pages, so kept free of the YAML parser this module brings).
 */

export const helmChartSourceSchema = helmChartSourceBaseSchema.superRefine((source, context) => {
  const message = helmValuesProblem(source.values);
  if (message) context.addIssue({ code: "custom", path: ["values"], message });
});

export const applicationSourceSchema = z.discriminatedUnion("kind", [
  publicImageSourceSchema,
  registryImageSourceSchema,
  githubSourceSchema,
  helmChartSourceSchema,
]);

/** The application's configuration, checked in full: what POST and PUT infrastructure check an application with. */
export const applicationConfigSchema = applicationConfigSchemaWith(applicationSourceSchema);

/**
 * The create form (conform + zod): a name and the configuration; `intent` says Save (a draft) or Deploy. The app
 * posts `{ serviceType: "application", name, config, launch: intent === "deploy" }` to POST infrastructure.
 */
export const createApplicationFormSchema = z.object({
  name: serviceNameSchema,
  config: applicationConfigSchema,
  intent: z.enum(["save", "deploy"]),
});
export type CreateApplicationForm = z.infer<typeof createApplicationFormSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Versions and roll back

/**
 * A version is one deployment of the application (an entry of its history that deployed): the image it ran, by
 * digest, and the configuration it ran with. The newest successful one is `running`.
 */
export const applicationVersionSchema = z.object({
  /** The history entry's id. */
  id: z.string(),
  /** 1 for the first deployment, then 2, 3, ... */
  number: z.number().int().positive(),
  action: z.string(),
  actor: z.string(),
  at: z.string(),
  outcome: stageSchema.nullable(),
  /** The image the deployment pulled or built (a reference), and its digest once known. */
  image: z.string().nullable(),
  imageDigest: z.string().nullable(),
  /** Whether this version is the one running now. */
  running: z.boolean(),
  /** The version a rollback deployed, when this deployment is a rollback. */
  rollbackOf: z.number().int().positive().nullable(),
  config: z.record(z.string(), z.unknown()),
});
export type ApplicationVersion = z.infer<typeof applicationVersionSchema>;
export const applicationVersionListSchema = z.object({ versions: z.array(applicationVersionSchema) });

/** GET versions/{versionId}: the version and what rolling back to it changes against the running one. */
export const applicationVersionResponseSchema = z.object({
  version: applicationVersionSchema,
  /** Paths as in the history's diffs (`config.source.image`); `before` is the running version's value. */
  diff: configDiffSchema,
});

/** POST versions/{versionId}/rollback: the deployment it queued (a history entry like any other). */
export const rollbackResponseSchema = z.object({
  historyId: z.string(),
  stage: stageSchema,
  diff: configDiffSchema,
});

const environmentLevel = (tenantId: string, environmentId: string) =>
  `/v2/organizations/${encodeURIComponent(tenantId)}/environments/${encodeURIComponent(environmentId)}`;
const application = (t: string, w: string, id: string) =>
  `${environmentLevel(t, w)}/infrastructure/${encodeURIComponent(id)}`;

export const applicationPaths = {
  versions: (t: string, w: string, id: string) => `${application(t, w, id)}/versions`,
  version: (t: string, w: string, id: string, versionId: string) =>
    `${application(t, w, id)}/versions/${encodeURIComponent(versionId)}`,
  rollback: (t: string, w: string, id: string, versionId: string) =>
    `${application(t, w, id)}/versions/${encodeURIComponent(versionId)}/rollback`,
};

/**
 * What the platform answers besides servicePaths' calls:
 * - GET infrastructure/{id}/versions → applicationVersionListSchema, newest first (404 for a service that is not an
 *   application of the environment).
 * - GET infrastructure/{id}/versions/{versionId} → applicationVersionResponseSchema (404 for another service's or
 *   unknown version).
 * - POST infrastructure/{id}/versions/{versionId}/rollback (services.deploy, empty body) → 202
 *   rollbackResponseSchema: a Rollback deployment of exactly that version's image digest and configuration; 409
 *   while a deployment runs, 409 when it is the running version, 409 for a version that never deployed.
 */
export const applicationErrorMessages = {
  versionNotFound: "Version not found",
  notAnApplication: "Only an application has versions",
  alreadyRunning: "This version is the one running",
  neverDeployed: "This version never deployed; only a deployed version can be rolled back to",
  sidecarsFlagOff: "Sidecar containers need the multi-container feature",
  helmFlagOff: "Helm charts need the private-chart-apps feature",
  connectionNotFound: "Choose a connection of this organization",
  registryConnection:
    "Choose a container registry connection (Docker, GitHub Container Registry, ECR or Artifact Registry)",
  githubConnection: "Choose a GitHub connection",
  chartRepositoryNotFound: "Choose a chart repository of this environment",
  serviceNotFound: "No service of this environment has this name",
  attributeNotFound: (service: string, attribute: string, names: readonly string[]) =>
    names.length
      ? `${service} has no attribute ${attribute}; it has ${names.join(", ")}`
      : `${service} has no attribute ${attribute}; it has none to reference`,
  variableNotFound: "No environment variable of this environment has this name",
  certificateNotFound: "Choose a certificate of this environment",
  certificateMismatch: "The certificate does not cover the domain",
} as const;
