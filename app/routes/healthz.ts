/** Liveness for the container's HEALTHCHECK and load balancers: the server runs and has a valid configuration. */
export function loader() {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
