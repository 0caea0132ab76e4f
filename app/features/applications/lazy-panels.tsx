import { Center, Loader } from "@mantine/core";
import { lazy, Suspense, type ComponentProps } from "react";

// The application's form (its four sources and every runtime field) and deploy on push's panel belong to the
// configuration tab of an application: they load with that tab, not with the details page
// (docs/decisions/014-first-visit-bytes.md). The server renders them in full when the tab is opened by its URL.
const ConfigTab = lazy(() =>
  import("./config-tab").then((module) => ({ default: module.ApplicationConfigTab })),
);

export function ApplicationConfigTab(props: ComponentProps<typeof ConfigTab>) {
  return (
    <Suspense
      fallback={
        <Center py="xl" role="status" aria-label="Loading the tab">
          <Loader />
        </Center>
      }
    >
      <ConfigTab {...props} />
    </Suspense>
  );
}
