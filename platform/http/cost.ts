import { and, eq } from "drizzle-orm";
import { Hono, type Context } from "hono";
import * as z from "zod";
import {
  budgetListSchema,
  budgetRequestSchema,
  budgetResponseSchema,
  budgetUpdateSchema,
  cloudCostSchema,
  costOverviewSchema,
  costQuerySchema,
  kubernetesCostSchema,
} from "#contract/cost";
import { budgetOfScope, budgetView, listBudgets } from "../cost/budgets";
import { kubernetesCost } from "../cost/kubernetes";
import { accrualPoint, cloudCost, costCsv, costOverview, type CostQueryInput } from "../cost/queries";
import type { Database } from "../db/index";
import { budgets, environments } from "../db/schema";
import { conflictOn, invalidFields, notFound } from "../lib/errors";
import { permit } from "./permissions";
import { currentOrganization, type OrganizationEnv } from "./tenancy";
import { readJsonBody, readQuery, sendJson } from "./validation";
import { documentRoutes } from "./documented";

const ENVIRONMENT_NOT_IN_ORGANIZATION = "Choose an environment of the organization";
const BUDGET_EXISTS = "This scope already has a budget: change its amount instead";
const BUDGET_NOT_FOUND = "Budget not found";

/**
 * What the organization spends (issue 16, decision 035), mounted at /v2/organizations/:tenantId: the overview, the
 * cloud and Kubernetes breakdowns and the CSV export for a window (billing.view), and budgets (billing.manage to
 * change them). Each page's data comes in one call.
 */
export function costRoutes({ db, now }: { db: Database; now: () => Date }) {
  const routes = new Hono<OrganizationEnv>();

  /** The window's query, with an environment filter that must be one of the organization's. */
  async function scopedQuery(c: Context<OrganizationEnv>) {
    const query: CostQueryInput = readQuery(c, costQuerySchema);
    const { organizationId, tenantId } = currentOrganization(c);
    if (query.environmentId) await assertEnvironmentOf(tenantId, query.environmentId);
    return { query, scope: { organizationId, tenantId, environmentId: query.environmentId ?? null } };
  }

  async function assertEnvironmentOf(tenantId: string, environmentId: string) {
    const [environment] = await db
      .select({ id: environments.id })
      .from(environments)
      .where(and(eq(environments.id, environmentId), eq(environments.tenantId, tenantId)));
    if (!environment) throw invalidFields({ environmentId: [ENVIRONMENT_NOT_IN_ORGANIZATION] });
  }

  routes.get("/cost", permit("billing.view"), async (c) => {
    const { query, scope } = await scopedQuery(c);
    return sendJson(c, costOverviewSchema, await costOverview(db, scope, query, now()));
  });

  routes.get("/cost/cloud", permit("billing.view"), async (c) => {
    const { query, scope } = await scopedQuery(c);
    return sendJson(c, cloudCostSchema, await cloudCost(db, scope, query, now()));
  });

  routes.get("/cost/kubernetes", permit("billing.view"), async (c) => {
    const { query, scope } = await scopedQuery(c);
    return sendJson(c, kubernetesCostSchema, await kubernetesCost(db, scope, query, now()));
  });

  routes.get("/cost/export", permit("billing.view"), async (c) => {
    const { query, scope } = await scopedQuery(c);
    const csv = await costCsv(db, scope, query, now());
    const { name } = currentOrganization(c);
    c.header("Content-Type", "text/csv; charset=utf-8");
    c.header("Content-Disposition", `attachment; filename="cost-${name}-${query.window}.csv"`);
    c.header("Cache-Control", "no-store");
    return c.body(csv);
  });

  routes.get("/cost/budgets", permit("billing.view"), async (c) => {
    return sendJson(c, budgetListSchema, await listBudgets(db, currentOrganization(c).organizationId, now()));
  });

  routes.post("/cost/budgets", permit("billing.manage"), async (c) => {
    const body = await readJsonBody(c, budgetRequestSchema);
    const { organizationId, tenantId } = currentOrganization(c);
    if (body.environmentId) await assertEnvironmentOf(tenantId, body.environmentId);
    if (await budgetOfScope(db, organizationId, body.environmentId)) {
      throw conflictOn("environmentId", BUDGET_EXISTS);
    }
    const [row] = await db.transaction((tx) =>
      tx
        .insert(budgets)
        .values({ organizationId, environmentId: body.environmentId, amount: body.amount })
        .onConflictDoNothing()
        .returning(),
    );
    // Another request made the scope's budget in between.
    if (!row) throw conflictOn("environmentId", BUDGET_EXISTS);
    return sendJson(c, budgetResponseSchema, { budget: await viewOf(row) }, 201);
  });

  routes.put("/cost/budgets/:budgetId", permit("billing.manage"), async (c) => {
    const { amount } = await readJsonBody(c, budgetUpdateSchema);
    const [row] = await db.transaction((tx) =>
      tx.update(budgets).set({ amount, updatedAt: now() }).where(budgetOf(c)).returning(),
    );
    if (!row) throw notFound(BUDGET_NOT_FOUND);
    return sendJson(c, budgetResponseSchema, { budget: await viewOf(row) });
  });

  routes.delete("/cost/budgets/:budgetId", permit("billing.manage"), async (c) => {
    const [row] = await db.transaction((tx) =>
      tx.delete(budgets).where(budgetOf(c)).returning({ id: budgets.id }),
    );
    if (!row) throw notFound(BUDGET_NOT_FOUND);
    return c.body(null, 204);
  });

  /** The budget in the path, of the caller's organization; a malformed id matches none. */
  function budgetOf(c: Context<OrganizationEnv>) {
    const budgetId = c.req.param("budgetId") ?? "";
    if (!z.guid().safeParse(budgetId).success) throw notFound(BUDGET_NOT_FOUND);
    return and(eq(budgets.id, budgetId), eq(budgets.organizationId, currentOrganization(c).organizationId));
  }

  async function viewOf(row: typeof budgets.$inferSelect) {
    const names = new Map<string, string>();
    if (row.environmentId) {
      const [environment] = await db
        .select({ name: environments.name })
        .from(environments)
        .where(eq(environments.id, row.environmentId));
      if (environment) names.set(row.environmentId, environment.name);
    }
    return budgetView(db, row, names, await accrualPoint(db, now()));
  }

  documentRoutes(routes, {
    "GET /cost/export": { query: costQuerySchema, responses: { 200: "text/csv" } },
    "GET /cost": { query: costQuerySchema, responses: { 200: costOverviewSchema } },
    "GET /cost/cloud": { query: costQuerySchema, responses: { 200: cloudCostSchema } },
    "GET /cost/kubernetes": { query: costQuerySchema, responses: { 200: kubernetesCostSchema } },
    "GET /cost/budgets": { responses: { 200: budgetListSchema } },
    "POST /cost/budgets": { body: budgetRequestSchema, responses: { 201: budgetResponseSchema } },
    "PUT /cost/budgets/:budgetId": { body: budgetUpdateSchema, responses: { 200: budgetResponseSchema } },
    "DELETE /cost/budgets/:budgetId": { responses: { 204: null } },
  });
  return routes;
}
