import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";
import { FONT_WEIGHTS, fontPath } from "./fonts";
import { PASSWORD_POLICY, type SignUpErrors } from "./sign-up";

export const PRODUCT_NAME = "Cloud Console";
export const WRONG_CREDENTIALS_MESSAGE = "Wrong email or password.";
export const SIGNED_OUT_TITLE = "You have been signed out";

export const EMAIL_TAKEN_MESSAGE = "An account with this email already exists.";

function waitOf(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  return seconds < 60
    ? `${seconds} second${seconds === 1 ? "" : "s"}`
    : `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/** What the login page says while too many failed attempts keep sign-in locked for `seconds` more. */
export function signInLockedMessage(seconds: number): string {
  return `Sign-in is temporarily locked after too many failed attempts. Try again in ${waitOf(seconds)}.`;
}

/** What the sign-up page says while the client address has used up its attempts for `seconds` more. */
export function signUpLockedMessage(seconds: number): string {
  return `Too many sign-ups and sign-in attempts from your network. Try again in ${waitOf(seconds)}.`;
}

/*
 * The app's look (SPEC §9): Inter, the primary purple #6E27D5 and the error red #E91F04, radius 4. Error text is a
 * darker shade of that red, since #E91F04 on white falls just short of the 4.5:1 contrast small text needs.
 */
const STYLE = `
${FONT_WEIGHTS.map(
  (
    weight,
  ) => `@font-face { font-family: Inter; font-style: normal; font-weight: ${weight}; font-display: swap;
  src: url("${fontPath(weight)}") format("woff2"); }`,
).join("\n")}
:root { color-scheme: light; font-family: Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f8f9fa; color: #212529; }
main { width: min(22rem, calc(100vw - 2rem)); padding: 2rem; background: #fff; border-radius: 4px;
  border: 1px solid #dee2e6; box-shadow: 0 1px 3px rgb(0 0 0 / 0.08); }
h1 { margin: 0 0 0.25rem; font-size: 1.5rem; font-weight: 600; color: #6E27D5; }
p { margin: 0 0 1.25rem; line-height: 1.5; }
.error { padding: 0.75rem; border-radius: 4px; background: #fdecea; color: #b01703; border: 1px solid #E91F04; }
.field-error, .hint { margin: -0.75rem 0 1rem; font-size: 0.875rem; }
.field-error { color: #b01703; }
.hint { color: #495057; }
.switch { margin: 1.25rem 0 0; text-align: center; font-size: 0.875rem; }
a { color: #6E27D5; font-weight: 600; }
label { display: block; margin-bottom: 0.25rem; font-weight: 600; font-size: 0.875rem; }
input { box-sizing: border-box; width: 100%; margin-bottom: 1rem; padding: 0.6rem 0.75rem; font: inherit;
  border: 1px solid #adb5bd; border-radius: 4px; }
input:focus { border-color: #6E27D5; }
input[aria-invalid="true"] { border-color: #E91F04; }
button { width: 100%; padding: 0.7rem; font: inherit; font-weight: 600; color: #fff; background: #6E27D5;
  border: 0; border-radius: 4px; cursor: pointer; }
button:hover { background: #5a1fb0; }
input:focus-visible, button:focus-visible, a:focus-visible { outline: 2px solid #6E27D5; outline-offset: 2px; }
`;

const STYLE_HASH = createHash("sha256").update(STYLE).digest("base64");

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (character) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[character] ?? "",
  );
}

function layout(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${PRODUCT_NAME}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${content}
</main>
</body>
</html>
`;
}

export function renderLoginPage({
  action,
  signUpHref,
  email,
  error,
}: {
  action: string;
  signUpHref: string;
  email: string;
  error?: string;
}): string {
  const invalid = error ? ' aria-invalid="true" aria-describedby="login-error"' : "";
  // Focus goes where typing continues: the password when the address is already known.
  const focusEmail = email ? "" : " autofocus";
  const focusPassword = email ? " autofocus" : "";
  return layout(
    "Sign in",
    `<h1>${PRODUCT_NAME}</h1>
<p>Sign in to continue.</p>
${error ? `<p class="error" id="login-error" role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="${escapeHtml(action)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(email)}"${invalid}${focusEmail}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${invalid}${focusPassword}>
<button type="submit">Sign in</button>
</form>
<p class="switch">New to ${PRODUCT_NAME}? <a href="${escapeHtml(signUpHref)}">Create an account</a></p>`,
  );
}

/** An input with its label and, when it has one, its error below it, tied together for screen readers. */
function field({
  id,
  label,
  type,
  autocomplete,
  value,
  error,
  errorHtml,
  hint,
  autofocus,
}: {
  id: string;
  label: string;
  type: string;
  autocomplete: string;
  value?: string;
  error?: string;
  /** An error that carries markup of its own (a link); already escaped. */
  errorHtml?: string;
  hint?: string;
  autofocus: boolean;
}): string {
  const message = errorHtml ?? (error ? escapeHtml(error) : undefined);
  const describedBy = [hint ? `${id}-hint` : "", message ? `${id}-error` : ""].filter(Boolean).join(" ");
  const attributes = [
    `id="${id}" name="${id}" type="${type}" autocomplete="${autocomplete}" required`,
    value === undefined ? "" : `value="${escapeHtml(value)}"`,
    message ? 'aria-invalid="true"' : "",
    describedBy ? `aria-describedby="${describedBy}"` : "",
    autofocus ? "autofocus" : "",
  ].filter(Boolean);
  return [
    `<label for="${id}">${escapeHtml(label)}</label>`,
    `<input ${attributes.join(" ")}>`,
    hint ? `<p class="hint" id="${id}-hint">${escapeHtml(hint)}</p>` : "",
    message ? `<p class="field-error" id="${id}-error">${message}</p>` : "",
  ]
    .filter(Boolean)
    .join("\n");
}

/**
 * The sign-up form: what was typed comes back except the password, each error sits under its field, and an
 * address that already has an account gets a link to sign in instead.
 */
export function renderSignUpPage({
  action,
  signInHref,
  values,
  errors = {},
  emailTaken = false,
  error,
}: {
  action: string;
  signInHref: string;
  values: { name: string; email: string };
  errors?: SignUpErrors;
  emailTaken?: boolean;
  /** A message about the whole form (too many attempts). */
  error?: string;
}): string {
  const emailTakenHtml = emailTaken
    ? `${escapeHtml(EMAIL_TAKEN_MESSAGE)} <a href="${escapeHtml(signInHref)}">Sign in</a>`
    : undefined;
  const invalid = {
    name: Boolean(errors.name),
    email: Boolean(errors.email || emailTaken),
    password: Boolean(errors.password),
  };
  // Focus goes to the first field to fix, or to the first one on a fresh page.
  const focus = (["name", "email", "password"] as const).find((name) => invalid[name]) ?? "name";
  return layout(
    "Create an account",
    `<h1>${PRODUCT_NAME}</h1>
<p>Create your account.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="${escapeHtml(action)}">
${field({ id: "name", label: "Name", type: "text", autocomplete: "name", value: values.name, error: errors.name, autofocus: focus === "name" })}
${field({ id: "email", label: "Email", type: "email", autocomplete: "email", value: values.email, error: errors.email, errorHtml: emailTakenHtml, autofocus: focus === "email" })}
${field({ id: "password", label: "Password", type: "password", autocomplete: "new-password", error: errors.password, hint: PASSWORD_POLICY, autofocus: focus === "password" })}
<button type="submit">Create account</button>
</form>
<p class="switch">Already have an account? <a href="${escapeHtml(signInHref)}">Sign in</a></p>`,
  );
}

export function renderSignedOutPage(): string {
  return layout(
    SIGNED_OUT_TITLE,
    `<h1>${SIGNED_OUT_TITLE}</h1>
<p>You can close this window.</p>`,
  );
}

export function renderMessagePage({ title, message }: { title: string; message: string }): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}

/**
 * Headers for every HTML page of the identity provider: no script at all, only the page's own style, and
 * forms that may post to this origin and be redirected on to the app (browsers apply form-action to redirects).
 */
export function htmlSecurityHeaders(formTargets: readonly string[]): Record<string, string> {
  return {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": [
      "default-src 'none'",
      `style-src 'sha256-${STYLE_HASH}'`,
      "font-src 'self'",
      `form-action 'self' ${formTargets.join(" ")}`.trim(),
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join("; "),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
  };
}

export function sendHtml(
  res: ServerResponse,
  status: number,
  html: string,
  formTargets: readonly string[] = [],
): void {
  res.writeHead(status, htmlSecurityHeaders(formTargets));
  res.end(html);
}
