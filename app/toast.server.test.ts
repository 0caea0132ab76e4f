import { describe, expect, it } from "vitest";

process.env.SESSION_SECRET ??= "t".repeat(40);
process.env.AUTH0_CLIENT_SECRET ??= "client-secret";

const { dataWithToast, getToast, redirectWithToast, TOAST_COOKIE_NAME } = await import("./toast.server");

/** The `name=value` pairs a browser would send back for these Set-Cookie headers. */
function cookieHeaderFrom(response: { headers: Headers }): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

describe("the flash-cookie toast", () => {
  it("travels from a redirect to the next request and is cleared there", async () => {
    const response = await redirectWithToast("/environments", {
      variant: "success",
      message: "Environment qa created",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/environments");
    const setCookie = response.headers.get("Set-Cookie") ?? "";
    expect(setCookie).toMatch(new RegExp(`^${TOAST_COOKIE_NAME}=`));
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);

    const next = new Request("http://localhost/environments", {
      headers: { Cookie: cookieHeaderFrom(response) },
    });
    const { toast, headers } = await getToast(next);
    expect(toast).toMatchObject({ variant: "success", message: "Environment qa created" });
    expect(toast?.id).toEqual(expect.any(String));
    const clearing = headers.get("Set-Cookie") ?? "";
    expect(clearing).toMatch(new RegExp(`^${TOAST_COOKIE_NAME}=;`));
    expect(clearing).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
  });

  it("keeps the other cookies of the response, such as a refreshed session", async () => {
    const response = await redirectWithToast(
      "/environments",
      { message: "Saved" },
      { headers: { "Set-Cookie": "__session=abc; Path=/; HttpOnly" } },
    );
    const cookies = response.headers.getSetCookie();
    expect(cookies).toHaveLength(2);
    expect(cookies[0]).toMatch(/^__session=abc/);
    const { toast } = await getToast(
      new Request("http://localhost/", { headers: { Cookie: cookieHeaderFrom(response) } }),
    );
    expect(toast).toMatchObject({ variant: "default", message: "Saved" });
  });

  it("rides along with data for actions that do not redirect", async () => {
    const result = await dataWithToast(
      { ok: true },
      { variant: "error", title: "Not saved", message: "Try again" },
    );
    expect(result.data).toEqual({ ok: true });
    const headers = new Headers(result.init?.headers);
    const { toast } = await getToast(
      new Request("http://localhost/", { headers: { Cookie: cookieHeaderFrom({ headers }) } }),
    );
    expect(toast).toMatchObject({ variant: "error", title: "Not saved", message: "Try again" });
  });

  it("is nothing, and clears nothing, when the request has no toast cookie", async () => {
    const { toast, headers } = await getToast(
      new Request("http://localhost/", { headers: { Cookie: "__session=abc; sidebar=collapsed" } }),
    );
    expect(toast).toBeNull();
    expect(headers.get("Set-Cookie")).toBeNull();
  });

  it("ignores, and clears, a toast cookie that was tampered with", async () => {
    const response = await redirectWithToast("/", { message: "Genuine" });
    const forged = cookieHeaderFrom(response).replace(/=([^.;]*)/, "=eyJtZXNzYWdlIjoiRm9yZ2VkIn0");
    const { toast, headers } = await getToast(
      new Request("http://localhost/", { headers: { Cookie: forged } }),
    );
    expect(toast).toBeNull();
    expect(headers.get("Set-Cookie")).toMatch(new RegExp(`^${TOAST_COOKIE_NAME}=;`));
  });
});
