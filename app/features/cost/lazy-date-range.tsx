// The date pickers (@mantine/dates, dayjs) and their style sheet load when a custom range is chosen, not with the
// first visit (docs/decisions/014-first-visit-bytes.md), as the audit log's do; the server still renders them.
import datesStyles from "@mantine/dates/styles.css";
import { Center, Loader } from "@mantine/core";
import { lazy, Suspense, type ComponentProps } from "react";
import { loadStyleSheet } from "~/features/services/details/lazy-panels";

const Fields = lazy(() =>
  Promise.all([import("./date-range-fields"), loadStyleSheet(datesStyles)]).then(([module]) => ({
    default: module.DateRangeFields,
  })),
);

export function DateRangeFields(props: ComponentProps<typeof Fields>) {
  return (
    <>
      <link rel="stylesheet" href={datesStyles} />
      <Suspense
        fallback={
          <Center role="status" aria-label="Loading the date pickers">
            <Loader size="sm" />
          </Center>
        }
      >
        <Fields {...props} />
      </Suspense>
    </>
  );
}
