import { Center, Loader } from "@mantine/core";
import { lazy, Suspense, type ComponentProps } from "react";

// The application's form (its four sources and every runtime field) is only the configuration tab's: it loads with
// that tab, not with the details page (docs/decisions/014-first-visit-bytes.md). The server renders it in full
// when the tab is opened by its URL.
const Panel = lazy(() =>
  import("./edit-panel").then((module) => ({ default: module.ApplicationConfigPanel })),
);

export function ApplicationConfigPanel(props: ComponentProps<typeof Panel>) {
  return (
    <Suspense
      fallback={
        <Center py="xl" role="status" aria-label="Loading the tab">
          <Loader />
        </Center>
      }
    >
      <Panel {...props} />
    </Suspense>
  );
}
