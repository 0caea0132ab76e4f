import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { AWS_ROLE_ACCESS_NOT_SET_UP } from "#contract/connections";
import { FAKE_PLATFORM_URL, fakePlatform } from "~/platform/fake-platform.test-support";
import { loadEditorData } from "./editor-data.server";

const BASE_URL = FAKE_PLATFORM_URL;
const roleSetupUrl = `${BASE_URL}/api/v2/organizations/t1/connections/aws/role-setup`;
const { server, api } = fakePlatform();

const notSetUp = "Your administrator has not set up role access yet; use access keys.";

describe("the AWS connection form's data", () => {
  it("opens on access keys when the operator has not set up role access, and says why in a user's words", async () => {
    server.use(
      http.get(roleSetupUrl, () =>
        HttpResponse.json({ message: notSetUp, code: AWS_ROLE_ACCESS_NOT_SET_UP }, { status: 503 }),
      ),
    );
    const editor = await loadEditorData(api, "t1", "AWS", null);
    expect(editor).toMatchObject({
      methodId: "keys",
      unavailableMethods: { role: notSetUp },
      roleSetup: null,
    });
    // Asked for by its tab, the role method still opens, to say why it cannot be used.
    expect(await loadEditorData(api, "t1", "AWS", "role")).toMatchObject({
      methodId: "role",
      roleSetup: { kind: "unavailable", message: notSetUp },
    });
  });

  it("opens on the recommended role when it is set up", async () => {
    server.use(
      http.get(roleSetupUrl, () =>
        HttpResponse.json({
          externalId: "e1",
          trustedAccountId: "111122223333",
          templateUrl: "https://example.com/t.json",
          launchStackUrl: "https://console.aws.amazon.com/cloudformation",
        }),
      ),
    );
    const editor = await loadEditorData(api, "t1", "AWS", null);
    expect(editor).toMatchObject({ methodId: "role", unavailableMethods: {}, roleSetup: { kind: "ok" } });
  });
});
