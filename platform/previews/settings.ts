import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { previewMessages, type PreviewSettings, type PreviewSettingsRequest } from "#contract/previews";
import type { Database } from "../db/index";
import { connections, previews, previewSettings, resources } from "../db/schema";
import type { SecretCipher } from "../lib/cipher";
import { invalidFields } from "../lib/errors";
import { pushSourceOf } from "../deploy-on-push/source";
import { newHookSecret } from "../deploy-on-push/signature";

export type PreviewSettingsRow = typeof previewSettings.$inferSelect;

/** Binds a setting's sealed secret to its webhook (additional authenticated data): copied elsewhere, it does not open. */
const secretContextOf = (webhookId: string) => `preview-webhook:${webhookId}`;

export function previewSecretOf(cipher: SecretCipher, row: PreviewSettingsRow): string {
  return cipher.decrypt(row.sealedSecret, secretContextOf(row.webhookId));
}

export async function previewSettingsOf(tx: Database, environmentId: string) {
  const [row] = await tx
    .select()
    .from(previewSettings)
    .where(eq(previewSettings.environmentId, environmentId));
  return row;
}

export function previewSettingsView(row: PreviewSettingsRow, webhookUrl: string): PreviewSettings {
  return {
    enabled: row.enabled,
    connectionId: row.connectionId,
    repository: row.repository,
    applicationIds: row.applicationIds,
    namePattern: row.namePattern,
    maxPreviews: row.maxPreviews,
    idleDays: row.idleDays,
    seedCommand: row.seedCommand,
    webhookUrl,
    secretCreatedAt: row.secretCreatedAt.toISOString(),
  };
}

/** The repository an application's GitHub source builds, as GitHub names it (`owner/name`). */
export function fullRepositoryName(repository: string, organization: string | undefined): string {
  return repository.includes("/") || !organization ? repository : `${organization}/${repository}`;
}

/**
 * Checks a setting against the organization's connections and the environment's applications, with field errors
 * in the form's words; the environment must not be a preview itself.
 */
async function assertValid(
  tx: Database,
  { organizationId, environmentId }: { organizationId: string; environmentId: string },
  request: PreviewSettingsRequest,
) {
  const [isPreview] = await tx
    .select({ id: previews.id })
    .from(previews)
    .where(eq(previews.environmentId, environmentId));
  if (isPreview) throw invalidFields({ enabled: [previewMessages.notPreviewable] });
  const [connection] = await tx
    .select()
    .from(connections)
    .where(and(eq(connections.id, request.connectionId), eq(connections.organizationId, organizationId)));
  if (connection?.kind !== "VERSION_CONTROL_TYPE_GITHUB") {
    throw invalidFields({ connectionId: [previewMessages.notGitHubConnection] });
  }
  const chosen = await tx
    .select()
    .from(resources)
    .where(and(eq(resources.environmentId, environmentId), inArray(resources.id, request.applicationIds)));
  if (chosen.length !== new Set(request.applicationIds).size) {
    throw invalidFields({ applicationIds: [previewMessages.unknownApplication] });
  }
  for (const application of chosen) {
    const source = application.serviceType === "application" ? pushSourceOf(application.config) : null;
    const builds = source
      ? fullRepositoryName(source.repository, connection.fields.ORGANIZATION).toLowerCase()
      : null;
    if (!source || source.connectionId !== connection.id || builds !== request.repository.toLowerCase()) {
      throw invalidFields({
        applicationIds: [previewMessages.notGitHubApplication(application.name, request.repository)],
      });
    }
  }
}

/** Saves the setting; the first save makes the webhook and its secret, which is returned this once. */
export async function savePreviewSettings(
  tx: Database,
  cipher: SecretCipher,
  scope: { organizationId: string; environmentId: string },
  request: PreviewSettingsRequest,
  now: Date,
): Promise<{ row: PreviewSettingsRow; secret?: string }> {
  await assertValid(tx, scope, request);
  const values = {
    enabled: request.enabled,
    connectionId: request.connectionId,
    repository: request.repository,
    applicationIds: [...new Set(request.applicationIds)],
    namePattern: request.namePattern,
    maxPreviews: request.maxPreviews,
    idleDays: request.idleDays,
    seedCommand: request.seedCommand,
  };
  const existing = await previewSettingsOf(tx, scope.environmentId);
  if (existing) {
    const [row] = await tx
      .update(previewSettings)
      .set(values)
      .where(eq(previewSettings.environmentId, scope.environmentId))
      .returning();
    if (!row) throw new Error("the preview setting disappeared");
    return { row };
  }
  const webhookId = randomUUID();
  const secret = newHookSecret();
  const [row] = await tx
    .insert(previewSettings)
    .values({
      ...values,
      environmentId: scope.environmentId,
      webhookId,
      sealedSecret: cipher.encrypt(secret, secretContextOf(webhookId)),
      secretCreatedAt: now,
      createdAt: now,
    })
    .returning();
  if (!row) throw new Error("the preview setting was not saved");
  return { row, secret };
}
