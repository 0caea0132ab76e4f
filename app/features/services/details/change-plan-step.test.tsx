// @vitest-environment happy-dom
import { MantineProvider } from "@mantine/core";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { ChangePlan } from "#contract/change-plans";
import type { ServiceType } from "#contract/service-catalogue";
import { theme } from "~/theme";
import { ChangePlanPreview, ChangePlanStep } from "./change-plan-step";

/* What a change's plan says, before saving and as the form's confirming step: the form's words, old → new. */

const fifo: ChangePlan = {
  inPlace: ["config.messageRetentionDays"],
  replace: ["config.queueType"],
  other: [],
  changes: [
    { path: "config.messageRetentionDays", before: 4, after: 7 },
    { path: "config.queueType", before: "standard", after: "fifo" },
  ],
  loses: ["its messages", "its queue URL"],
  summary: "Replaces the service and deletes its messages",
  confirmationRequired: true,
};
const newDomain: ChangePlan = {
  inPlace: ["config.domain.host", "config.healthCheck.path"],
  replace: [],
  other: [],
  changes: [
    { path: "config.domain.host", before: "shop.example.com", after: "" },
    { path: "config.healthCheck.path", before: "/healthz", after: "/ready" },
    // An application's settings follow its configuration: the platform derives them.
    { path: "settings.networking.customDomain", before: "shop.example.com", after: "" },
  ],
  loses: ["its address"],
  summary: "Gives the service a new address",
  confirmationRequired: true,
};

function renderStep(plan: ChangePlan, serviceType: ServiceType, serviceName: string) {
  render(
    <MantineProvider theme={theme} env="test">
      <ChangePlanStep
        step={{ plan }}
        service={{ serviceType, name: serviceName }}
        intent="save-config"
        submitting={false}
      />
    </MantineProvider>,
  );
  return screen.getByTestId("change-plan");
}

afterEach(cleanup);

describe("a change's plan", () => {
  it("lists each change in the form's words, old → new, with how it lands", () => {
    const step = renderStep(fifo, "queue", "jobs");
    expect(step.textContent).toContain("This change replaces the service and deletes its messages");
    expect(step.textContent).toContain("Queue type: Standard → FIFO (replaces the service)");
    expect(step.textContent).toContain("Message retention (days): 4 → 7 (in place)");
    expect(step.textContent).toContain("Lost with the service it replaces: its messages, its queue URL");
    expect(step.textContent).not.toContain("queueType");
    expect(screen.getByRole("button", { name: "Replace and deploy" })).toBeTruthy();
  });

  it("says an application's new address, and asks for its name without claiming a replacement", () => {
    const step = renderStep(newDomain, "application", "shop");
    expect(step.textContent).toContain("This change gives the service a new address");
    expect(step.textContent).toContain("Domain: shop.example.com → none (in place)");
    expect(step.textContent).toContain("Health check: Path: /healthz → /ready (in place)");
    expect(step.textContent).not.toContain("created anew");
    expect(step.textContent).not.toContain("Custom domain");
    expect(screen.getByLabelText("Type shop to confirm")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Deploy with the new address" })).toBeTruthy();
  });

  it("says the same before saving, as the form changes", () => {
    render(
      <MantineProvider theme={theme} env="test">
        <ChangePlanPreview plan={fifo} serviceType="queue" />
      </MantineProvider>,
    );
    expect(screen.getByTestId("change-plan-preview").textContent).toBe(
      "Deploying: Replaces the service and deletes its messages (Queue type: Standard → FIFO, replaces the service; " +
        "Message retention (days): 4 → 7, in place; loses its messages, its queue URL).",
    );
  });
});
