import { and, asc, eq, sql } from "drizzle-orm";
import { Hono, type Context } from "hono";
import * as z from "zod";
import {
  chartListSchema,
  chartRepositoryMessages,
  chartVersionListSchema,
} from "#contract/chart-repositories";
import {
  chartRepositoryListSchema,
  chartRepositoryResponseSchema,
  createChartRepositoryRequestSchema,
  serviceErrorMessages,
} from "#contract/services";
import {
  ChartIndexError,
  chartSummariesOf,
  createChartIndexReader,
  type ChartIndex,
  type ChartIndexReader,
} from "../charts/chart-index";
import type { Database } from "../db/index";
import { chartRepositories } from "../db/schema";
import { HttpError } from "./errors";
import { conflict, conflictOn, invalidFields, notFound } from "../lib/errors";
import { findEnvironment } from "./environments";
import { flagsOfTenant } from "../feature-flags/flags";
import { permit } from "./permissions";
import { currentOrganization, type OrganizationEnv } from "./tenancy";
import { readJsonBody, sendJson } from "./validation";
import { documentRoutes } from "./documented";

type ChartRepositoryRow = typeof chartRepositories.$inferSelect;

const repositoryIdSchema = z.guid();
const isOci = (url: string) => url.startsWith("oci://");

const toChartRepository = (row: ChartRepositoryRow) => ({
  id: row.id,
  name: row.name,
  url: row.url,
  createdAt: row.createdAt.toISOString(),
});

/**
 * An environment's chart repositories (SPEC §7 GET/POST chart-repositories) and, behind the private-chart-apps flag,
 * the charts and versions their Helm indexes list (issue 15), under /v2/organizations/:tenantId/environments/
 * :environmentId/chart-repositories. Saving an http(s) repository first fetches its index, as `helm repo add` does:
 * a repository that cannot be listed is refused with the reason on its URL field.
 */
export function chartRepositoryRoutes({
  db,
  indexes = createChartIndexReader(),
}: {
  db: Database;
  indexes?: ChartIndexReader;
}) {
  const routes = new Hono<OrganizationEnv>();

  const environmentOf = (c: Context<OrganizationEnv>) =>
    findEnvironment(db, currentOrganization(c).tenantId, c.req.param("environmentId") ?? "");

  routes.get("/chart-repositories", permit("organization.view"), async (c) => {
    const environment = await environmentOf(c);
    const rows = await db
      .select()
      .from(chartRepositories)
      .where(eq(chartRepositories.environmentId, environment.id))
      // Byte order, so PGlite and PostgreSQL servers with other default collations list names identically.
      .orderBy(asc(sql`${chartRepositories.name} collate "C"`));
    return sendJson(c, chartRepositoryListSchema, { chartRepositories: rows.map(toChartRepository) });
  });

  routes.post("/chart-repositories", permit("environments.configure"), async (c) => {
    const environment = await environmentOf(c);
    const { name, url } = await readJsonBody(c, createChartRepositoryRequestSchema);
    const nameTaken = async () => {
      const [taken] = await db
        .select({ id: chartRepositories.id })
        .from(chartRepositories)
        .where(and(eq(chartRepositories.environmentId, environment.id), eq(chartRepositories.name, name)));
      return Boolean(taken);
    };
    // The name first: it is cheap, and a taken one needs no trip to the repository.
    if (await nameTaken()) throw conflictOn("name", serviceErrorMessages.chartRepositoryNameTaken);
    let index: ChartIndex | undefined;
    if (!isOci(url)) {
      try {
        index = await indexes.fetch(url);
      } catch (error) {
        if (error instanceof ChartIndexError) throw invalidFields({ url: [error.message] });
        throw error;
      }
    }
    const [created] = await db.transaction((tx) =>
      tx
        .insert(chartRepositories)
        .values({ environmentId: environment.id, name, url })
        .onConflictDoNothing({ target: [chartRepositories.environmentId, chartRepositories.name] })
        .returning(),
    );
    if (!created) throw conflictOn("name", serviceErrorMessages.chartRepositoryNameTaken);
    if (index) indexes.remember(created, index);
    return sendJson(c, chartRepositoryResponseSchema, { chartRepository: toChartRepository(created) }, 201);
  });

  /** The repository's index, for a listing: behind the flag, in this environment, fetched or cached. */
  async function indexOf(c: Context<OrganizationEnv>): Promise<ChartIndex> {
    const environment = await environmentOf(c);
    if (!(await flagsOfTenant(db, environment.tenantId))["private-chart-apps"]) {
      throw notFound(chartRepositoryMessages.flagOff);
    }
    const repositoryId = c.req.param("repositoryId") ?? "";
    const [repository] = repositoryIdSchema.safeParse(repositoryId).success
      ? await db
          .select()
          .from(chartRepositories)
          .where(
            and(eq(chartRepositories.id, repositoryId), eq(chartRepositories.environmentId, environment.id)),
          )
      : [];
    if (!repository) throw notFound(chartRepositoryMessages.notFound);
    if (isOci(repository.url)) throw conflict(chartRepositoryMessages.ociHasNoIndex);
    try {
      return await indexes.read(repository);
    } catch (error) {
      if (error instanceof ChartIndexError) throw new HttpError(502, { message: error.message });
      throw error;
    }
  }

  routes.get("/chart-repositories/:repositoryId/charts", permit("organization.view"), async (c) => {
    const index = await indexOf(c);
    return sendJson(c, chartListSchema, { charts: chartSummariesOf(index), generatedAt: index.generatedAt });
  });

  routes.get(
    "/chart-repositories/:repositoryId/charts/:chart/versions",
    permit("organization.view"),
    async (c) => {
      const index = await indexOf(c);
      const chart = c.req.param("chart");
      const versions = index.charts.get(chart);
      if (!versions) throw notFound(chartRepositoryMessages.chartNotFound);
      return sendJson(c, chartVersionListSchema, { chart, versions });
    },
  );

  documentRoutes(routes, {
    "GET /chart-repositories": { responses: { 200: chartRepositoryListSchema } },
    "POST /chart-repositories": {
      body: createChartRepositoryRequestSchema,
      responses: { 201: chartRepositoryResponseSchema },
    },
    "GET /chart-repositories/:repositoryId/charts": { responses: { 200: chartListSchema } },
    "GET /chart-repositories/:repositoryId/charts/:chart/versions": {
      responses: { 200: chartVersionListSchema },
    },
  });
  return routes;
}
