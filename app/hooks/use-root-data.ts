import { useRouteLoaderData } from "@remix-run/react";
import type { loader } from "~/root";

/** The root loader's data (toast, sidebar preference, device); undefined when the root loader failed. */
export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}
