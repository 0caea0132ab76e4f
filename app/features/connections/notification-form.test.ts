import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { notificationRulesSchema } from "#contract/connections";
import { notificationRulesFormSchema } from "./notification-form";

function submit(entries: [string, string][]) {
  const formData = new FormData();
  for (const [name, value] of entries) formData.append(name, value);
  return parseWithZod(formData, { schema: notificationRulesFormSchema });
}

describe("the notification rules form", () => {
  it("posts the checked events everywhere, or in the chosen environments", () => {
    const everywhere = submit([
      ["intent", "notifications"],
      ["events", "deployment.failed"],
      ["scope", "all"],
      ["environmentIds", "ignored-when-all"],
    ]);
    if (everywhere.status !== "success") throw new Error(JSON.stringify(everywhere.error));
    expect(everywhere.value).toEqual({ events: ["deployment.failed"], environmentIds: null });
    expect(notificationRulesSchema.parse(everywhere.value)).toEqual(everywhere.value);

    const staging = "7d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
    const chosen = submit([
      ["intent", "notifications"],
      ["events", "deployment.succeeded"],
      ["events", "clone.finished"],
      ["scope", "chosen"],
      ["environmentIds", staging],
    ]);
    if (chosen.status !== "success") throw new Error(JSON.stringify(chosen.error));
    expect(chosen.value).toEqual({
      events: ["deployment.succeeded", "clone.finished"],
      environmentIds: [staging],
    });
  });

  it("asks for an environment when the rules apply to chosen ones, and allows posting nothing", () => {
    const none = submit([
      ["intent", "notifications"],
      ["scope", "chosen"],
    ]);
    if (none.status === "success") throw new Error("expected the form to be refused");
    expect(none.error?.environmentIds).toEqual(["Choose at least one environment, or all environments"]);
    const muted = submit([
      ["intent", "notifications"],
      ["scope", "all"],
    ]);
    expect(muted.status === "success" && muted.value).toEqual({ events: [], environmentIds: null });
  });
});
