import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { createEnvironment, openEnvironment, uniqueEnvironmentName } from "../setup/environments";
import { waitForHydration } from "../setup/hydration";
import { signIn, signInThroughForm } from "../setup/sign-in";

test("pages carry the security headers and no script may be evaluated from strings", async ({ page }) => {
  const response = await page.goto("/404");
  const headers = response?.headers() ?? {};
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+'/);
  expect(headers["content-security-policy"]).not.toContain("unsafe-eval");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["x-content-type-options"]).toBe("nosniff");
});

test("the session lives in an httpOnly, SameSite=Lax cookie and no token reaches the page", async ({
  page,
  context,
}) => {
  await signIn(page, "ada@example.com");
  const session = (await context.cookies()).find((cookie) => cookie.name === "__session");
  expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax" });
  expect(session?.value.length ?? 0).toBeLessThan(3584);
  // Encrypted, not only signed: a copy of the cookie does not show the tokens or the user.
  const value = decodeURIComponent(session?.value ?? "");
  const decoded = Buffer.from(value.split(".")[0] ?? "", "base64").toString("latin1");
  for (const readable of [value, decoded]) {
    expect(readable).not.toMatch(/eyJ[\w-]+\.eyJ|accessToken|ada@example\.com/);
  }
  const html = await page.content();
  expect(html).not.toMatch(/eyJ[\w-]+\.eyJ[\w-]+\./);
  expect(await page.evaluate(() => document.cookie)).not.toContain("__session");
});

/** A page of another site on the same host (another port: same-site, so SameSite=Lax cookies still go along). */
const FOREIGN_ORIGIN = `http://localhost:${Number(process.env.E2E_APP_PORT ?? 3310) + 1}`;

test("a form auto-submitted from a page on another port cannot delete an environment", async ({ page }) => {
  await signIn(page, "ada@example.com");
  const name = uniqueEnvironmentName("csrf");
  await createEnvironment(page, name);

  const target = new URL(`/env/${name}/delete`, page.url()).href;
  await page.route(`${FOREIGN_ORIGIN}/attack.html`, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<form method="post" action="${target}"><input name="confirmation" value="${name}"></form>
<script>document.forms[0].submit()</script>`,
    }),
  );
  const refused = page.waitForResponse((response) => response.url() === target);
  await page.goto(`${FOREIGN_ORIGIN}/attack.html`);
  expect((await refused).status()).toBe(403);

  await openEnvironment(page, name);
});

test("every write from another origin is refused with 403: organization switch, upload, page action", async ({
  page,
}) => {
  await signIn(page, "ada@example.com");
  const foreign = { headers: { Origin: FOREIGN_ORIGIN } };
  const writes = [
    "/organizations/switch",
    "/env/production/services/serverless-upload",
    "/environments/create",
    "/env/production/delete",
  ];
  for (const path of writes) {
    const response = await page.request.post(path, { ...foreign, form: { organizationId: "x" } });
    expect(response.status(), path).toBe(403);
  }
  // The same write from the app's own origin gets past the gate to the action, which then judges the form.
  const own = await page.request.post("/organizations/switch", {
    headers: { Origin: new URL(page.url()).origin },
    form: { organizationId: "x" },
    maxRedirects: 0,
  });
  expect(own.status()).not.toBe(403);
});

test("redirects and static files carry the security headers too", async ({ request }) => {
  const redirect = await request.get("/", { maxRedirects: 0 });
  expect(redirect.status()).toBe(302);
  const page = await (await request.get("/404")).text();
  const stylesheet = /href="(\/build\/[^"]+\.css)"/.exec(page)?.[1] ?? "no stylesheet on the page";
  const asset = await request.get(stylesheet);
  expect(asset.status()).toBe(200);
  for (const response of [redirect, asset]) {
    const headers = response.headers();
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["x-frame-options"]).toBe("DENY");
  }
  expect(redirect.headers()["cache-control"]).toBe("no-store");
  expect(asset.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
});

test("a body over its limit is refused with 413 before the action reads it, and an unknown path's POST is a 404", async ({
  page,
}) => {
  await signIn(page, "bob@example.com");
  const own = { Origin: new URL(page.url()).origin };
  const tooLarge = await page.request.post("/settings/users/roles/new", {
    headers: { ...own, "Content-Type": "application/x-www-form-urlencoded" },
    data: `name=${"n".repeat(2 * 1024 * 1024)}`,
    maxRedirects: 0,
  });
  expect(tooLarge.status()).toBe(413);
  expect(await tooLarge.text()).toBe("The request is too large: at most 1 MB may be sent.");

  const unknown = await page.request.post("/no-such-page", {
    headers: own,
    form: { a: "b" },
    maxRedirects: 0,
  });
  expect(unknown.status()).toBe(404);
  expect(await unknown.text()).not.toContain("Unexpected Server Error");
});

test("the applications page runs its inline script under the page's CSP, without hydration errors", async ({
  page,
}) => {
  await signIn(page, "ada@example.com");
  await page.evaluate(() => window.localStorage.setItem("persist:app-listing-view-type", "grid"));
  // The browser's own favicon request (answered by the 404 page) is not this page's concern.
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) {
      problems.push(message.text());
    }
  });
  page.on("pageerror", (error) => problems.push(error.message));
  await page.goto("/env/production/applications");
  await waitForHydration(page);
  // The stored choice applied before paint by the inline script, and kept by the hydrated page.
  await expect(page.getByTestId("applications")).toHaveAttribute("data-view", "grid");
  expect(problems).toEqual([]);
});

/**
 * Signs Ada in through the form (a sign-in of its own: logging out revokes what it granted, which the saved session
 * must not lose), copies her session cookie into another browser, which it opens, then runs `logout` in her page
 * and expects the copy to be signed out too.
 */
async function expectLogoutEndsACopyOfTheSession(
  { page, context, browser }: { page: Page; context: BrowserContext; browser: Browser },
  logout: () => Promise<void>,
) {
  await signInThroughForm(page, "ada@example.com");
  const session = (await context.cookies()).find((cookie) => cookie.name === "__session");
  expect(session).toBeDefined();
  const thief = await browser.newContext();
  try {
    await thief.addCookies(session ? [session] : []);
    const stolen = await thief.newPage();
    await stolen.goto("/environments");
    await expect(stolen.getByRole("table", { name: "Environments" })).toBeVisible();

    await logout();

    await stolen.goto("/environments");
    await expect(stolen.getByLabel("Password")).toBeVisible();
    await expect(stolen.getByRole("table", { name: "Environments" })).toHaveCount(0);
  } finally {
    await thief.close();
  }
}

test("a copy of the session cookie taken before logout stops working at logout", async ({
  page,
  context,
  browser,
}) => {
  await expectLogoutEndsACopyOfTheSession({ page, context, browser }, async () => {
    await page.goto("/auth/logout");
    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page.getByLabel("Password")).toBeVisible();
  });
});

test("POST /auth/logout alone ends a copy of the session, before the browser reaches the provider's logout", async ({
  page,
  context,
  browser,
}) => {
  await expectLogoutEndsACopyOfTheSession({ page, context, browser }, async () => {
    // The app's logout, without following its redirect to the identity provider's /v2/logout.
    const logout = await page.request.post("/auth/logout", {
      headers: { Origin: new URL(page.url()).origin },
      maxRedirects: 0,
    });
    expect(logout.status()).toBe(302);
    expect(logout.headers()["location"]).toContain("/v2/logout");
  });
});
