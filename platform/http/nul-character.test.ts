import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { environmentPaths } from "#contract/environments";
import { apiErrorSchema } from "#contract/error-body";
import { apiErrorCodes } from "#contract/errors";
import { servicePaths } from "#contract/services";
import { tenantPaths } from "#contract/tenants";
import { NUL_CHARACTER_MESSAGE } from "#contract/validation";
import { openTestApi, uniqueName, type TestApi } from "../testing/http-harness";

let api: TestApi;
beforeAll(async () => {
  api = await openTestApi();
});
afterAll(() => api.close());

/**
 * U+0000 cannot be stored in PostgreSQL text: it used to reach the database, fail with a 500 and have the whole
 * batch's plaintext values logged. Every text field and query parameter now refuses it with a 400 field error.
 */
describe("U+0000 in what a caller sends", () => {
  async function expectNulRefused(response: Response, field: string) {
    expect(response.status).toBe(400);
    expect(apiErrorSchema.parse(await response.json())).toEqual({
      message: NUL_CHARACTER_MESSAGE,
      code: apiErrorCodes.validationFailed,
      fieldErrors: { [field]: [NUL_CHARACTER_MESSAGE] },
    });
  }

  it("is refused in an environment's description, a variable's value and an organization's name, storing nothing", async () => {
    const { user, organization } = await api.createMember();
    const environment = await api.createEnvironment(organization.tenantId);
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const before = await api.countRows();
      await expectNulRefused(
        await api.call("PUT", environmentPaths.config(organization.tenantId, environment.id), {
          token: user.token,
          json: {
            description: "before\u0000after",
            autoDeploy: false,
            deletionProtection: false,
            maintenanceWindow: { day: "sunday", hour: 3 },
          },
        }),
        "description",
      );
      await expectNulRefused(
        await api.call("POST", environmentPaths.variables(organization.tenantId, environment.id), {
          token: user.token,
          json: {
            envVariables: [
              { name: "API_KEY", value: "plaintext-secret-1", secret: true },
              { name: "BROKEN", value: "plaintext\u0000secret-2", secret: true },
            ],
          },
        }),
        "envVariables.1.value",
      );
      await expectNulRefused(
        await api.call("POST", tenantPaths.create(), {
          token: user.token,
          json: { tenant: { name: uniqueName("acme"), displayName: "Acme\u0000Corp" } },
        }),
        "tenant.displayName",
      );
      expect(await api.countRows()).toEqual(before);
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  });

  it("is refused in the search text of the services list and of the logs", async () => {
    const { user, organization } = await api.createMember({ role: "read-only" });
    const environment = await api.createEnvironment(organization.tenantId);
    await expectNulRefused(
      await api.call("GET", servicePaths.list(organization.tenantId, environment.id, { text: "\u0000" }), {
        token: user.token,
      }),
      "text",
    );
    await expectNulRefused(
      await api.call(
        "GET",
        servicePaths.logs(organization.tenantId, environment.id, randomUUID(), {
          logType: "SEARCH",
          text: "a\u0000",
        }),
        { token: user.token },
      ),
      "text",
    );
  });
});
