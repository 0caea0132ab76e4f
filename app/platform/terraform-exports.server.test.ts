import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { terraformExportErrorMessages } from "#contract/terraform-exports";
import { isPlatformError } from "./client.server";
import { FAKE_PLATFORM_URL, fakePlatform } from "./fake-platform.test-support";
import { getTerraformExport, startTerraformExport } from "./terraform-exports.server";

const BASE_URL = FAKE_PLATFORM_URL;
const environment = `${BASE_URL}/api/v2/organizations/t1/environments/w1`;

const { server, api } = fakePlatform();

const started = {
  id: "7b0c1c4e-0d6f-4a57-9a43-2f0b4c3d2e1f",
  environmentId: "w1",
  status: "IN_PROGRESS",
  details: null,
  downloadURL: null,
  downloadURLExpirationTime: 0,
  resourceCount: null,
  createdAt: "2026-01-01T00:00:00Z",
};

describe("Terraform exports client", () => {
  it("starts an export of the environment and polls it by id", async () => {
    server.use(
      http.post(`${environment}/terraform-export`, () =>
        HttpResponse.json({ terraformExport: started }, { status: 201 }),
      ),
      http.get(`${environment}/terraform-export/${started.id}`, () =>
        HttpResponse.json({
          terraformExport: {
            ...started,
            status: "COMPLETED",
            downloadURL: "http://x/y.zip",
            resourceCount: 3,
          },
        }),
      ),
    );
    expect(await startTerraformExport(api, "t1", "w1")).toEqual(started);
    expect(await getTerraformExport(api, "t1", "w1", started.id)).toMatchObject({
      status: "COMPLETED",
      downloadURL: "http://x/y.zip",
      resourceCount: 3,
    });
  });

  it("throws the platform's refusal of an environment in no AWS account with its message", async () => {
    server.use(
      http.post(`${environment}/terraform-export`, () =>
        HttpResponse.json(
          { message: terraformExportErrorMessages.notInAwsAccount, code: "CONFLICT" },
          { status: 409 },
        ),
      ),
    );
    const error = await startTerraformExport(api, "t1", "w1").catch((caught: unknown) => caught);
    expect(isPlatformError(error) && error.status).toBe(409);
    expect(isPlatformError(error) && error.message).toBe(terraformExportErrorMessages.notInAwsAccount);
  });
});
