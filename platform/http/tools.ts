import { eq } from "drizzle-orm";
import { Hono } from "hono";
import {
  accountPaths,
  awsAccountIdText,
  cloudConnectionJobSchema,
  createCloudConnectionJobRequestSchema,
  generateTerraformPaths,
  initializeAccountResponseSchema,
  toolErrorCodes,
  toolErrorMessages,
} from "#contract/tools";
import type { Database } from "../db/index";
import { toolAccounts } from "../db/schema";
import { TerraformUnavailableError, TooManyActiveJobsError, type TerraformJobs } from "../terraform/jobs";
import { currentUser, type AuthenticatedEnv } from "./auth";
import { HttpError } from "./errors";
import { notFound } from "../lib/errors";
import { readJsonBody, sendJson } from "./validation";
import { signedIn } from "./permissions";
import { documentRoutes } from "./documented";

/**
 * POST /account/initialize-account, POST /v2/tools/generate-terraform and GET /v2/tools/generate-terraform/:jobId.
 * The tools belong to the signed-in user, not to an organization: a user without one can use them, and a job is
 * visible to its creator only (anyone else gets the same 404 as for an unknown id).
 */
export function toolRoutes({ db, jobs }: { db: Database; jobs: TerraformJobs }) {
  const routes = new Hono<AuthenticatedEnv>();

  routes.post(accountPaths.initialize(), signedIn(), async (c) => {
    const user = currentUser(c);
    const [created] = await db
      .insert(toolAccounts)
      .values({ userId: user.id })
      .onConflictDoNothing({ target: toolAccounts.userId })
      .returning();
    const account =
      created ?? (await db.select().from(toolAccounts).where(eq(toolAccounts.userId, user.id)))[0];
    if (!account) throw new Error("the tool account was neither created nor found");
    return sendJson(
      c,
      initializeAccountResponseSchema,
      { account: { userId: user.id, email: user.email, initializedAt: account.initializedAt.toISOString() } },
      created ? 201 : 200,
    );
  });

  routes.post(generateTerraformPaths.create(), signedIn(), async (c) => {
    const user = currentUser(c);
    const request = await readJsonBody(c, createCloudConnectionJobRequestSchema);
    const [account] = await db
      .select({ userId: toolAccounts.userId })
      .from(toolAccounts)
      .where(eq(toolAccounts.userId, user.id));
    if (!account) {
      throw new HttpError(409, {
        message: toolErrorMessages.accountNotInitialized,
        code: toolErrorCodes.accountNotInitialized,
      });
    }
    try {
      const job = await jobs.create(user.id, {
        accountId: awsAccountIdText(request.awsAccountID),
        region: request.awsAccountRegion,
      });
      return sendJson(c, cloudConnectionJobSchema, job, 201);
    } catch (error) {
      if (error instanceof TooManyActiveJobsError) {
        throw new HttpError(429, {
          message: toolErrorMessages.tooManyActiveJobs(error.limit),
          code: toolErrorCodes.tooManyActiveJobs,
        });
      }
      if (error instanceof TerraformUnavailableError) {
        console.error(error.message, error.cause);
        throw new HttpError(503, { message: error.message });
      }
      throw error;
    }
  });

  routes.get(`${generateTerraformPaths.create()}/:jobId`, signedIn(), async (c) => {
    const job = await jobs.find(currentUser(c).id, c.req.param("jobId"));
    if (!job) throw notFound(toolErrorMessages.jobNotFound);
    return sendJson(c, cloudConnectionJobSchema, job);
  });

  documentRoutes(routes, {
    [`POST ${accountPaths.initialize()}`]: {
      responses: { 200: initializeAccountResponseSchema, 201: initializeAccountResponseSchema },
    },
    [`POST ${generateTerraformPaths.create()}`]: {
      body: createCloudConnectionJobRequestSchema,
      responses: { 201: cloudConnectionJobSchema },
    },
    [`GET ${generateTerraformPaths.create()}/:jobId`]: { responses: { 200: cloudConnectionJobSchema } },
  });
  return routes;
}
