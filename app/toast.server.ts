import { randomUUID } from "node:crypto";
import { createCookie, data, redirect, type Cookie } from "@remix-run/node";
import * as z from "zod";
import { getEnv } from "~/env.server";
import { toastVariants, type Toast, type ToastInput } from "~/toast";

/**
 * The one way a server response carries a toast: a signed flash cookie, set by an action's (or loader's)
 * response, read and cleared by the root loader, shown once by the Toaster in root.
 */
export const TOAST_COOKIE_NAME = "toast";

export function createToastCookie({ secrets, secure }: { secrets: string[]; secure: boolean }): Cookie {
  return createCookie(TOAST_COOKIE_NAME, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure,
    secrets,
    // A flash: shown by the next page load, forgotten soon if none follows.
    maxAge: 60,
  });
}

const toastSchema = z.object({
  id: z.string().min(1),
  variant: z.enum(toastVariants).default("default"),
  title: z.string().optional(),
  message: z.string().min(1),
  autoClose: z.number().int().positive().optional(),
}) satisfies z.ZodType<Toast, ToastInput & { id: string }>;

let cookie: Cookie | undefined;

function toastCookie(): Cookie {
  const env = getEnv();
  cookie ??= createToastCookie({ secrets: env.sessionSecrets, secure: env.production });
  return cookie;
}

function withId(toast: ToastInput): Toast {
  return toastSchema.parse({ ...toast, id: toast.id ?? randomUUID() });
}

/** A Set-Cookie value carrying `toast` to the next page. */
export async function serializeToast(toast: ToastInput): Promise<string> {
  return toastCookie().serialize(withId(toast));
}

/** `init.headers` plus the toast's Set-Cookie (other cookies, such as a refreshed session, are kept). */
export async function headersWithToast(toast: ToastInput, headers?: HeadersInit): Promise<Headers> {
  const combined = new Headers(headers);
  combined.append("Set-Cookie", await serializeToast(toast));
  return combined;
}

/** A redirect whose next page shows `toast`: `throw await redirectWithToast("/environments", {...}, { headers })`. */
export async function redirectWithToast(
  url: string,
  toast: ToastInput,
  init?: ResponseInit,
): Promise<Response> {
  return redirect(url, { ...init, headers: await headersWithToast(toast, init?.headers) });
}

/** Data for the route plus a toast shown when the page revalidates (for actions that do not redirect). */
export async function dataWithToast<T>(value: T, toast: ToastInput, init?: ResponseInit) {
  return data(value, { ...init, headers: await headersWithToast(toast, init?.headers) });
}

/**
 * The toast the request carries, if any, and the headers that clear it (empty when there was none).
 * A cookie that is tampered with, expired or malformed counts as no toast and is cleared too.
 */
export async function getToast(request: Request): Promise<{ toast: Toast | null; headers: Headers }> {
  const headers = new Headers();
  const cookieHeader = request.headers.get("Cookie");
  if (!cookieHeader || !new RegExp(`(^|;\\s*)${TOAST_COOKIE_NAME}=`).test(cookieHeader)) {
    return { toast: null, headers };
  }
  const parsed = toastSchema.safeParse(await toastCookie().parse(cookieHeader));
  headers.append("Set-Cookie", await toastCookie().serialize("", { maxAge: 0, expires: new Date(0) }));
  return { toast: parsed.success ? parsed.data : null, headers };
}
