// @vitest-environment happy-dom
import { MantineProvider } from "@mantine/core";
import { parseWithZod } from "@conform-to/zod/v4";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { previewMessages, type PreviewSettings } from "#contract/previews";
import { theme } from "~/theme";
import { PreviewSettingsForm, previewSettingsFormSchema } from "./preview-settings-form";

afterEach(cleanup);

const connectionId = "0b9f4c9e-7c1b-4a7e-9f55-3d2f0e6f1a01";
const webId = "5f0d2a41-2c65-4b6e-8a3f-1e2d3c4b5a60";
const settings: PreviewSettings = {
  enabled: true,
  connectionId,
  repository: "acme/web",
  applicationIds: [webId],
  namePattern: "pr-{number}",
  maxPreviews: 3,
  idleDays: 7,
  seedCommand: "npm run seed",
  webhookUrl: "http://localhost:4606/api/webhooks/github/previews/abc",
  secretCreatedAt: "2026-03-02T09:00:00.000Z",
};

function renderForm(props: Partial<Parameters<typeof PreviewSettingsForm>[0]> = {}) {
  render(
    <MantineProvider theme={theme} env="test">
      <PreviewSettingsForm
        settings={settings}
        connections={[{ id: connectionId, name: "github-acme" }]}
        applications={[
          { id: webId, name: "web" },
          { id: "6a1e3b52-3d76-4c7f-9b4a-2f3e4d5c6b71", name: "api" },
        ]}
        canConfigure
        submitting={false}
        {...props}
      />
    </MantineProvider>,
  );
}

describe("PreviewSettingsForm", () => {
  it("shows the setting with its applications ticked, and the webhook's secret once when just made", () => {
    renderForm({ secret: "s3cret-once" });
    expect((screen.getByLabelText(/^Repository/) as HTMLInputElement).value).toBe("acme/web");
    expect((screen.getByLabelText("web") as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText("api") as HTMLInputElement).checked).toBe(false);
    expect((screen.getByLabelText(/^Seed command/) as HTMLInputElement).value).toBe("npm run seed");
    expect(screen.getByText(/Optional: run once, in a preview's first deployment/)).toBeTruthy();
    const shown = screen.getByTestId("preview-webhook-secret").textContent ?? "";
    expect(shown).toContain("s3cret-once");
    expect(shown).toContain(settings.webhookUrl);
  });

  it("is read-only without environments.configure", () => {
    renderForm({ canConfigure: false });
    expect(screen.getByLabelText(/^Repository/).closest("fieldset")?.disabled).toBe(true);
    expect(screen.getByRole("button", { name: "Save preview setting" }).getAttribute("aria-disabled")).toBe(
      "true",
    );
  });

  it("says in words what a submitted setting lacks", () => {
    const form = new FormData();
    form.set("connectionId", connectionId);
    form.set("repository", "web");
    form.set("namePattern", "pr");
    form.set("maxPreviews", "3");
    form.set("idleDays", "40");
    const submission = parseWithZod(form, { schema: previewSettingsFormSchema });
    expect(submission.status).toBe("error");
    const errors = submission.status === "error" ? submission.error : {};
    expect(errors).toMatchObject({
      repository: [previewMessages.repository],
      applicationIds: [previewMessages.noApplications],
      namePattern: [previewMessages.namePattern],
      idleDays: [previewMessages.idleDays],
    });
  });

  it("keeps a seed command that is too long as typed, saying why", () => {
    const typed = `npm run seed -- ${"x".repeat(1020)}`;
    const form = new FormData();
    form.set("enabled", "on");
    form.set("connectionId", connectionId);
    form.set("repository", "acme/web");
    form.append("applicationIds", webId);
    form.set("namePattern", "pr-{number}");
    form.set("maxPreviews", "3");
    form.set("idleDays", "7");
    form.set("seedCommand", typed);
    const submission = parseWithZod(form, { schema: previewSettingsFormSchema });
    expect(submission.status).toBe("error");
    renderForm({ lastResult: submission.reply() });
    expect((screen.getByLabelText(/^Seed command/) as HTMLInputElement).value).toBe(typed);
    expect(screen.getByText(previewMessages.seedCommand)).toBeTruthy();
  });
});
