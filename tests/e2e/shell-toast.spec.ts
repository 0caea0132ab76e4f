import { expect, test } from "@playwright/test";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

test("an action's redirect carries a success toast, shown bottom right, that hides after 3 s", async ({
  page,
}) => {
  const name = `toast-${Date.now().toString(36)}`;
  await signIn(page, "ada@example.com", "/environments/create");
  await waitForHydration(page);
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create environment" }).click();

  // Submitting the changed form is not leaving it: no unsaved-changes question.
  await expect(page).toHaveURL(new RegExp(`/env/${name}$`));
  await expect(page.getByRole("dialog", { name: "You have unsaved changes" })).toHaveCount(0);

  const toast = page.getByRole("alert").filter({ hasText: `Environment ${name} created` });
  await expect(toast).toBeVisible();
  await expect(toast).toHaveAttribute("data-toast-variant", "success");
  const box = await toast.boundingBox();
  const viewport = page.viewportSize();
  expect(box && viewport).toBeTruthy();
  if (box && viewport) {
    expect(box.x + box.width).toBeGreaterThan(viewport.width - 48);
    expect(box.x).toBeGreaterThan(viewport.width / 2);
    expect(box.y + box.height).toBeGreaterThan(viewport.height - 48);
  }

  // The flash cookie was cleared: reloading does not show the toast again.
  await expect(toast).toBeHidden({ timeout: 6_000 });
  await page.reload();
  await expect(page.getByTestId("environment-title")).toHaveText(name);
  await expect(page.getByText(`Environment ${name} created`)).toHaveCount(0);
  expect((await page.context().cookies()).some((cookie) => cookie.name === "toast")).toBe(false);
});
