import { expect, test, type Locator, type Page } from "@playwright/test";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

// The live tail asks for new lines every few seconds (TAIL_LOGS_FETCH_INTERVAL_MS); the seeded api writes a line
// every few seconds on each pod.
test.setTimeout(90_000);

const atBottom = (viewport: Locator) =>
  viewport.evaluate((box) => box.scrollHeight - box.scrollTop - box.clientHeight <= 10);
const lastLine = (live: Locator) => live.getByTestId("log-line").last().textContent();
/** The line at the top of the box: what the user reads there. */
const topLine = (viewport: Locator) =>
  viewport.evaluate((box) => {
    const { left, top } = box.getBoundingClientRect();
    return document.elementFromPoint(left + 20, top + 5)?.textContent ?? null;
  });
/** Waits for an answer of the tail's feed that holds lines (each line has a level; an empty answer has none). */
const newLinesArrive = (page: Page) =>
  page.waitForResponse(
    async (response) =>
      response.url().includes("/logs-feed") &&
      // A request the page dropped for a newer one has no body to read.
      (await response.text().then(
        (body) => body.includes('"level"'),
        () => false,
      )),
    { timeout: 30_000 },
  );

test("the live tail follows new lines until the user scrolls up, and jumps back to the latest", async ({
  page,
}) => {
  await signIn(page, "ada@example.com", "/env/production/services");
  const href = await page
    .getByRole("table", { name: "Services" })
    .getByRole("link", { name: "api", exact: true })
    .getAttribute("href");
  await page.goto(`${href}?tab=logs`);
  await waitForHydration(page);
  const live = page.getByRole("log", { name: "Live logs" });
  const viewport = live.getByTestId("log-viewport");
  await expect(page.getByText(/^Following · \d+ lines$/)).toBeVisible();
  await viewport.scrollIntoViewIfNeeded();

  // It opens at the newest line, and a new line comes into view as it arrives.
  await expect.poll(() => atBottom(viewport)).toBe(true);
  const first = await lastLine(live);
  await expect.poll(() => lastLine(live), { timeout: 30_000 }).not.toBe(first);
  expect(await atBottom(viewport)).toBe(true);
  await expect(live.getByTestId("log-line").last()).toBeInViewport();

  // Scrolled up, it stays where the user is while lines keep coming.
  // Set at once (a wheel scrolls smoothly for a while): a hundred lines above the newest.
  await viewport.evaluate((box) => {
    box.scrollTop = box.scrollHeight - box.clientHeight - 2000;
  });
  await expect(page.getByText(/^Scrolled up · \d+ lines$/)).toBeVisible();
  const jump = page.getByRole("button", { name: "Jump to latest" });
  await expect(jump).toBeVisible();
  const before = await topLine(viewport);
  const latestBefore = await page.getByText(/lines$/).textContent();
  await newLinesArrive(page);
  expect(await atBottom(viewport)).toBe(false);
  // The lines the user reads stay in place, even as the oldest drop off the top.
  expect(await topLine(viewport)).toBe(before);
  expect(latestBefore).toMatch(/^Scrolled up/);

  // The control brings it back to the latest line, and it follows again.
  await jump.click();
  await expect(jump).toBeHidden();
  await expect(page.getByText(/^Following · \d+ lines$/)).toBeVisible();
  await expect.poll(() => atBottom(viewport)).toBe(true);
  const latest = await lastLine(live);
  await expect.poll(() => lastLine(live), { timeout: 30_000 }).not.toBe(latest);
  expect(await atBottom(viewport)).toBe(true);
});
