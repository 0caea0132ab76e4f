import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { Hono } from "hono";
import * as z from "zod";
import {
  SECRET_MASK,
  createEnvironmentVariablesRequestSchema,
  deleteEnvironmentVariablesRequestSchema,
  environmentErrorMessages,
  environmentVariableListSchema,
  environmentVariableNameSchema,
  importEnvironmentVariablesRequestSchema,
  referencedServicesSchema,
  updateEnvironmentVariablesRequestSchema,
} from "#contract/environments";
import type { Database } from "../db/index";
import { environmentVariables } from "../db/schema";
import { servicesReferencing } from "../services/references";
import {
  plaintextOf,
  storedValue,
  toVariable,
  variablesOf,
  type VariableRow,
} from "../environments/variables";
import { SecretDecryptionError, type SecretCipher } from "../lib/cipher";
import { HttpError } from "./errors";
import { DomainError, conflict, invalidFields, notFound } from "../lib/errors";
import { assertSettingsEditable, findEnvironment } from "./environments";
import { currentOrganization, type OrganizationEnv } from "./tenancy";
import { readJsonBody, readQuery, sendJson } from "./validation";
import { permit } from "./permissions";
import { documentRoutes } from "./documented";

const variableIdSchema = z.guid();

const listQuerySchema = z.object({
  /** The id of the one secret whose plaintext the list carries. */
  reveal: z.guid("reveal must be the id of a variable").optional(),
});

const referencedServicesParamsSchema = z.object({ name: environmentVariableNameSchema });

function variableNotFound(fieldErrors?: Record<string, string[]>): DomainError {
  const error = notFound(environmentErrorMessages.variableNotFound);
  return fieldErrors ? new DomainError("not-found", { ...error.body, fieldErrors }) : error;
}

/** Reports each later occurrence of a repeated key at its index. */
function repeatedAt<T>(items: readonly T[], keyOf: (item: T) => string, fieldOf: (index: number) => string) {
  const fieldErrors: Record<string, string[]> = {};
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const key = keyOf(item);
    if (seen.has(key)) fieldErrors[fieldOf(index)] = [];
    seen.add(key);
  });
  return fieldErrors;
}

function withMessage(fieldErrors: Record<string, string[]>, message: string) {
  return Object.fromEntries(Object.keys(fieldErrors).map((field) => [field, [message]]));
}

/**
 * /v2/organizations/:tenantId/environments/:environmentId/environment-variables. Names are unique per
 * environment; every write is one transaction with the environment row locked, so a batch is applied whole or not
 * at all and concurrent batches cannot both take a name. Secret values are stored sealed (AES-256-GCM).
 */
export function environmentVariableRoutes({ db, secrets }: { db: Database; secrets: SecretCipher }) {
  const routes = new Hono<OrganizationEnv>();

  function view(row: VariableRow, reveal = false) {
    try {
      return toVariable(secrets, row, { reveal });
    } catch (error) {
      if (error instanceof SecretDecryptionError) {
        throw new HttpError(500, { message: environmentErrorMessages.secretUnreadable });
      }
      throw error;
    }
  }

  routes.get(
    "/",
    permit((c) => (c.req.query("reveal") ? "secrets.reveal" : "organization.view")),
    async (c) => {
      const { tenantId } = currentOrganization(c);
      const { reveal } = readQuery(c, listQuerySchema);
      const environment = await findEnvironment(db, tenantId, c.req.param("environmentId") ?? "");
      const rows = await variablesOf(db, environment.id);
      if (reveal && !rows.some((row) => row.id === reveal)) throw variableNotFound();
      return sendJson(c, environmentVariableListSchema, {
        envVariables: rows.map((row) => view(row, row.id === reveal)),
      });
    },
  );

  routes.post("/", permit("variables.write"), async (c) => {
    const { tenantId } = currentOrganization(c);
    const { envVariables } = await readJsonBody(c, createEnvironmentVariablesRequestSchema);
    const repeated = repeatedAt(
      envVariables,
      (variable) => variable.name,
      (index) => `envVariables.${index}.name`,
    );
    if (Object.keys(repeated).length) {
      throw invalidFields(withMessage(repeated, environmentErrorMessages.variableNameRepeated));
    }

    const created = await db.transaction(async (tx) => {
      const environment = await findEnvironment(tx, tenantId, c.req.param("environmentId") ?? "", {
        lock: "update",
      });
      await assertSettingsEditable(tx, environment.id);
      const taken = new Set(
        (
          await tx
            .select({ name: environmentVariables.name })
            .from(environmentVariables)
            .where(
              and(
                eq(environmentVariables.environmentId, environment.id),
                inArray(
                  environmentVariables.name,
                  envVariables.map((variable) => variable.name),
                ),
              ),
            )
        ).map((row) => row.name),
      );
      const clashes: Record<string, string[]> = {};
      envVariables.forEach((variable, index) => {
        if (taken.has(variable.name))
          clashes[`envVariables.${index}.name`] = [environmentErrorMessages.variableNameTaken];
      });
      if (Object.keys(clashes).length) throw conflict(environmentErrorMessages.variableNameTaken, clashes);

      const now = new Date();
      return tx
        .insert(environmentVariables)
        .values(
          envVariables.map((variable) => {
            const id = randomUUID();
            return {
              id,
              environmentId: environment.id,
              name: variable.name,
              secret: variable.secret,
              ...storedValue(secrets, { environmentId: environment.id, variableId: id, ...variable }),
              createdAt: now,
              updatedAt: now,
            };
          }),
        )
        .returning();
    });
    const byName = new Map(created.map((row) => [row.name, row]));
    return sendJson(
      c,
      environmentVariableListSchema,
      { envVariables: envVariables.flatMap(({ name }) => byName.get(name) ?? []).map((row) => view(row)) },
      201,
    );
  });

  routes.put("/", permit("variables.write"), async (c) => {
    const { tenantId } = currentOrganization(c);
    const { envVariables } = await readJsonBody(c, updateEnvironmentVariablesRequestSchema);
    const repeated = repeatedAt(
      envVariables,
      (variable) => variable.id,
      (index) => `envVariables.${index}.id`,
    );
    if (Object.keys(repeated).length) {
      throw invalidFields(withMessage(repeated, environmentErrorMessages.variableRepeated));
    }

    const updated = await db.transaction(async (tx) => {
      const environment = await findEnvironment(tx, tenantId, c.req.param("environmentId") ?? "", {
        lock: "update",
      });
      await assertSettingsEditable(tx, environment.id);
      const rows = await variablesOf(tx, environment.id);
      const byId = new Map(rows.map((row) => [row.id, row]));

      const missing: Record<string, string[]> = {};
      envVariables.forEach((variable, index) => {
        if (!variableIdSchema.safeParse(variable.id).success || !byId.has(variable.id))
          missing[`envVariables.${index}.id`] = [environmentErrorMessages.variableNotFound];
      });
      if (Object.keys(missing).length) throw variableNotFound(missing);

      // The names after the whole batch, so renames that swap or chain names are judged on the result.
      const finalNames = new Map(rows.map((row) => [row.id, row.name]));
      for (const variable of envVariables) if (variable.name) finalNames.set(variable.id, variable.name);
      const holders = new Map<string, number>();
      for (const name of finalNames.values()) holders.set(name, (holders.get(name) ?? 0) + 1);
      const clashes: Record<string, string[]> = {};
      envVariables.forEach((variable, index) => {
        if (variable.name && (holders.get(variable.name) ?? 0) > 1)
          clashes[`envVariables.${index}.name`] = [environmentErrorMessages.variableNameTaken];
      });
      if (Object.keys(clashes).length) throw conflict(environmentErrorMessages.variableNameTaken, clashes);

      const now = new Date();
      const renamed = envVariables.filter(
        (variable) => variable.name && variable.name !== byId.get(variable.id)?.name,
      );
      // A name is unique at every statement, so renamed rows first move out of the way (hyphens never occur in
      // variable names).
      for (const variable of renamed) {
        await tx
          .update(environmentVariables)
          .set({ name: `renaming-${variable.id}` })
          .where(eq(environmentVariables.id, variable.id));
      }
      const results: VariableRow[] = [];
      for (const variable of envVariables) {
        const row = byId.get(variable.id);
        if (!row) throw new Error("a checked variable is missing");
        const secret = variable.secret ?? row.secret;
        // The mask is what a form shows for a secret it never revealed: sending it back changes nothing.
        const keepsValue = variable.value === undefined || (variable.value === SECRET_MASK && row.secret);
        let stored: { value: string | null; encryptedValue: string | null };
        if (keepsValue && secret === row.secret) {
          stored = { value: row.value, encryptedValue: row.encryptedValue };
        } else {
          let value: string;
          try {
            value = keepsValue ? plaintextOf(secrets, row) : (variable.value ?? "");
          } catch (error) {
            if (!(error instanceof SecretDecryptionError)) throw error;
            throw new HttpError(500, { message: environmentErrorMessages.secretUnreadable });
          }
          stored = storedValue(secrets, { environmentId: environment.id, variableId: row.id, value, secret });
        }
        const [saved] = await tx
          .update(environmentVariables)
          .set({ name: variable.name ?? row.name, secret, ...stored, updatedAt: now })
          .where(eq(environmentVariables.id, row.id))
          .returning();
        if (!saved) throw new Error("the locked variable was not updated");
        results.push(saved);
      }
      return results;
    });
    return sendJson(c, environmentVariableListSchema, { envVariables: updated.map((row) => view(row)) });
  });

  /** A .env import: every entry checked first, then all written in one transaction (upsert by name). */
  routes.put("/import", permit("variables.write"), async (c) => {
    const { tenantId } = currentOrganization(c);
    const { envVariables } = await readJsonBody(c, importEnvironmentVariablesRequestSchema);
    const repeated = repeatedAt(
      envVariables,
      (variable) => variable.name,
      (index) => `envVariables.${index}.name`,
    );
    if (Object.keys(repeated).length) {
      throw invalidFields(withMessage(repeated, environmentErrorMessages.variableNameRepeated));
    }

    const written = await db.transaction(async (tx) => {
      const environment = await findEnvironment(tx, tenantId, c.req.param("environmentId") ?? "", {
        lock: "update",
      });
      await assertSettingsEditable(tx, environment.id);
      const existing = new Map((await variablesOf(tx, environment.id)).map((row) => [row.name, row]));
      const now = new Date();
      const results: VariableRow[] = [];
      const added: (typeof environmentVariables.$inferInsert)[] = [];
      for (const variable of envVariables) {
        const row = existing.get(variable.name);
        if (!row) {
          const id = randomUUID();
          added.push({
            id,
            environmentId: environment.id,
            name: variable.name,
            secret: variable.secret,
            ...storedValue(secrets, { environmentId: environment.id, variableId: id, ...variable }),
            createdAt: now,
            updatedAt: now,
          });
          continue;
        }
        const stored = storedValue(secrets, {
          environmentId: environment.id,
          variableId: row.id,
          value: variable.value,
          secret: row.secret,
        });
        const [saved] = await tx
          .update(environmentVariables)
          .set({ ...stored, updatedAt: now })
          .where(eq(environmentVariables.id, row.id))
          .returning();
        if (!saved) throw new Error("the locked variable was not updated");
        results.push(saved);
      }
      if (added.length) results.push(...(await tx.insert(environmentVariables).values(added).returning()));
      return results;
    });
    const byName = new Map(written.map((row) => [row.name, row]));
    return sendJson(c, environmentVariableListSchema, {
      envVariables: envVariables.flatMap(({ name }) => byName.get(name) ?? []).map((row) => view(row)),
    });
  });

  routes.delete("/", permit("variables.write"), async (c) => {
    const { tenantId } = currentOrganization(c);
    const { envVariableIds } = await readJsonBody(c, deleteEnvironmentVariablesRequestSchema);
    await db.transaction(async (tx) => {
      const environment = await findEnvironment(tx, tenantId, c.req.param("environmentId") ?? "", {
        lock: "update",
      });
      await assertSettingsEditable(tx, environment.id);
      const existing = new Set((await variablesOf(tx, environment.id)).map((row) => row.id));
      const missing: Record<string, string[]> = {};
      envVariableIds.forEach((id, index) => {
        if (!existing.has(id))
          missing[`envVariableIds.${index}`] = [environmentErrorMessages.variableNotFound];
      });
      if (Object.keys(missing).length) throw variableNotFound(missing);
      await tx
        .delete(environmentVariables)
        .where(
          and(
            eq(environmentVariables.environmentId, environment.id),
            inArray(environmentVariables.id, [...new Set(envVariableIds)]),
          ),
        );
    });
    return c.body(null, 204);
  });

  routes.get("/:name/referenced-services", permit("organization.view"), async (c) => {
    const { tenantId } = currentOrganization(c);
    const { name } = readParams(c.req.param("name") ?? "");
    const environment = await findEnvironment(db, tenantId, c.req.param("environmentId") ?? "");
    const [variable] = await db
      .select({ id: environmentVariables.id })
      .from(environmentVariables)
      .where(
        and(eq(environmentVariables.environmentId, environment.id), eq(environmentVariables.name, name)),
      );
    if (!variable) throw variableNotFound();
    return sendJson(c, referencedServicesSchema, {
      services: await servicesReferencing(db, environment.id, name),
    });
  });

  documentRoutes(routes, {
    "GET /": { query: listQuerySchema, responses: { 200: environmentVariableListSchema } },
    "POST /": {
      body: createEnvironmentVariablesRequestSchema,
      responses: { 201: environmentVariableListSchema },
    },
    "PUT /": {
      body: updateEnvironmentVariablesRequestSchema,
      responses: { 200: environmentVariableListSchema },
    },
    "PUT /import": {
      body: importEnvironmentVariablesRequestSchema,
      responses: { 200: environmentVariableListSchema },
    },
    "DELETE /": { body: deleteEnvironmentVariablesRequestSchema, responses: { 204: null } },
    "GET /:name/referenced-services": { responses: { 200: referencedServicesSchema } },
  });
  return routes;
}

function readParams(name: string) {
  const result = referencedServicesParamsSchema.safeParse({ name });
  if (!result.success) {
    throw invalidFields({ name: result.error.issues.map((issue) => issue.message) });
  }
  return result.data;
}
