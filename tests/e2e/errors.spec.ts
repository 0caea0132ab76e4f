import { expect, test } from "@playwright/test";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

test("a page whose loader fails shows the error page, and 'Take me home' leads back into the app", async ({
  page,
}) => {
  await signIn(page, "ada@example.com", "/environments");
  await waitForHydration(page);
  const stagingData = /\/env\/staging\.data/;
  await page.route(stagingData, (route) =>
    route.fulfill({ status: 500, contentType: "text/plain", body: "down" }),
  );

  await page.getByRole("link", { name: "staging", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Oops! Something went wrong" })).toBeVisible();
  await expect(page.getByText("Refresh the page and try again.")).toBeVisible();

  await page.unroute(stagingData);
  await page.getByRole("link", { name: "Take me home" }).click();
  await expect(page).toHaveURL(/\/env\/[a-z-]+$/);
  await expect(page.getByTestId("environment-title")).toBeVisible();
});
