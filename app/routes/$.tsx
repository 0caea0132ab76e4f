import { redirect } from "@remix-run/node";

/** Any path the app does not know goes to /404 (SPEC §2.1). */
export function loader() {
  return redirect("/404");
}

/** A form posted to a path the app does not know: nothing here takes it (a 404, not Remix's 405). */
export function action() {
  return new Response("Not Found: there is no page at this address.", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}
