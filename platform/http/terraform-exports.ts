import { Hono } from "hono";
import { terraformExportErrorMessages, terraformExportResponseSchema } from "#contract/terraform-exports";
import type { Database } from "../db/index";
import { awsAccountOf } from "../connections/aws-accounts";
import type { Operations } from "../operations/operations";
import { currentUser } from "./auth";
import { findEnvironment } from "./environments";
import { conflict, notFound } from "../lib/errors";
import { permit } from "./permissions";
import { currentOrganization, type OrganizationEnv } from "./tenancy";
import { sendJson } from "./validation";
import { documentRoutes } from "./documented";

/**
 * POST .../environments/{w}/terraform-export and GET .../terraform-export/{id} (terraformExportPaths): 'Export as Terraform' of an environment in an AWS
 * account (platform/terraform/environment-exports.ts). Exporting needs `terraform.generate` in the environment,
 * following an export only seeing it; an environment of another organization is a 404 like an unknown one.
 */
export function terraformExportRoutes({ db, engine }: { db: Database; engine: Operations }) {
  const routes = new Hono<OrganizationEnv>();
  const exports = engine.terraformExports;
  routes.post("/terraform-export", permit("terraform.generate"), async (c) => {
    const environment = await findEnvironment(
      db,
      currentOrganization(c).tenantId,
      c.req.param("environmentId") ?? "",
    );
    if (!(await awsAccountOf(db, environment))) throw conflict(terraformExportErrorMessages.notInAwsAccount);
    const created = await db.transaction((tx) =>
      exports.create(tx, environment.id, currentUser(c).id, engine.now()),
    );
    engine.runner.wake();
    return sendJson(c, terraformExportResponseSchema, { terraformExport: created }, 201);
  });

  routes.get("/terraform-export/:exportId", permit("organization.view"), async (c) => {
    const environment = await findEnvironment(
      db,
      currentOrganization(c).tenantId,
      c.req.param("environmentId") ?? "",
    );
    const found = await exports.find(db, environment.id, c.req.param("exportId"), engine.now());
    if (!found) throw notFound(terraformExportErrorMessages.exportNotFound);
    return sendJson(c, terraformExportResponseSchema, { terraformExport: found });
  });

  documentRoutes(routes, {
    "POST /terraform-export": { responses: { 201: terraformExportResponseSchema } },
    "GET /terraform-export/:exportId": { responses: { 200: terraformExportResponseSchema } },
  });
  return routes;
}
