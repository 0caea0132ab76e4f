import type * as z from "zod";
import { isBusyStage } from "#contract/service-catalogue";
import { type certificateResponseSchema } from "#contract/services";
import type { ServiceConfig } from "#contract/service-configs";
import type { Stage } from "#contract/stages";
import { accountIdOf } from "../cloud/simulated/resource";
import type { resources } from "../db/schema";
import type { EnvironmentRow } from "../environments/records";

export type Certificate = NonNullable<z.input<typeof certificateResponseSchema>["certificate"]>;
type ServiceRow = typeof resources.$inferSelect;

/** A tls service's id as a certificate, which an application's Domain field names (config.domain.certificateId). */
export function certificateIdOf(row: Pick<ServiceRow, "id">, environment: EnvironmentRow): string {
  return `arn:aws:acm:${environment.region}:${accountIdOf(environment.name)}:certificate/${row.id}`;
}

/** How long a public ACM certificate is valid. */
export const CERTIFICATE_VALIDITY_DAYS = 395;

/**
 * A tls service as a certificate: ISSUED once deployed (also while a redeployment runs), PENDING_VALIDATION while
 * its first deployment runs, FAILED when it failed; drafts and canceled requests are no certificate (null).
 */
export function certificateOf(row: ServiceRow, environment: EnvironmentRow): Certificate | null {
  const stage = row.stage as Stage;
  let status: Certificate["status"];
  if (stage === "STAGE_COMPLETED" || stage === "STAGE_SYNCING") status = "ISSUED";
  else if (stage === "STAGE_FAILED") status = "FAILED";
  else if (isBusyStage(stage)) status = row.deployedAt ? "ISSUED" : "PENDING_VALIDATION";
  else return null;
  const config = row.config as Partial<ServiceConfig<"tls">>;
  const expiresAt =
    status === "ISSUED" && row.deployedAt
      ? new Date(row.deployedAt.getTime() + CERTIFICATE_VALIDITY_DAYS * 86_400_000).toISOString()
      : null;
  return {
    id: certificateIdOf(row, environment),
    resourceId: row.id,
    domain: config.domain ?? "",
    subjectAlternativeNames: config.subjectAlternativeNames ?? [],
    status,
    expiresAt,
  };
}
