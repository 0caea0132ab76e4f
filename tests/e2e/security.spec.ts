import { expect, test } from "@playwright/test";
import { signIn } from "../setup/sign-in";

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
  expect(session?.value.length ?? 0).toBeLessThan(4096);
  const html = await page.content();
  expect(html).not.toMatch(/eyJ[\w-]+\.eyJ[\w-]+\./);
  expect(await page.evaluate(() => document.cookie)).not.toContain("__session");
});
