import * as z from "zod";
import { serviceTypeSchema } from "./services";
import { stageSchema } from "./stage-schema";

// A module of its own: only the infrastructure overview needs it, and every services page downloads
// contract/services.ts (scripts/check-first-visit-bytes.mjs). Its path is servicePaths.map.

/**
 * GET infrastructure-map: how the environment fits together (decision 037). Every service is a node; a link says
 * that an application runs on a cluster (the cost allocation's placement), uses another service (a variable of it
 * names that service's attribute) or serves its domain with a certificate.
 */
export const environmentMapLinkKinds = ["runs-on", "uses", "certificate"] as const;
export const environmentMapSchema = z.object({
  nodes: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      serviceType: serviceTypeSchema,
      stage: stageSchema,
      /** A TLS certificate's domain, an application's custom domain; null otherwise. */
      domain: z.string().nullable(),
    }),
  ),
  links: z.array(z.object({ from: z.string(), to: z.string(), kind: z.enum(environmentMapLinkKinds) })),
});
export type EnvironmentMap = z.infer<typeof environmentMapSchema>;
