import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { anEnvironment } from "~/features/environments/test-factories";
import { FAKE_PLATFORM_URL, fakePlatform } from "./fake-platform.test-support";
import { deleteEnvironment } from "./environments.server";

const BASE_URL = FAKE_PLATFORM_URL;
const one = `${BASE_URL}/api/v2/organizations/t1/environments/w1`;

const { server, api } = fakePlatform();

describe("deleteEnvironment", () => {
  it("says the environment is deleted when the platform answers 204", async () => {
    server.use(http.delete(one, () => new HttpResponse(null, { status: 204 })));
    expect(await deleteEnvironment(api, "t1", "w1")).toBe("deleted");
  });

  it("says it is being deleted when the platform answers 202 while its services are torn down", async () => {
    const environment = anEnvironment({
      name: "staging",
      stage: "STAGE_IN_PROGRESS",
      deletion: { stage: "STAGE_IN_PROGRESS", message: "Deleting" },
    });
    server.use(http.delete(one, () => HttpResponse.json({ environment }, { status: 202 })));
    expect(await deleteEnvironment(api, "t1", "w1")).toBe("deleting");
  });
});
