// The date pickers (@mantine/dates, dayjs) and their style sheet load with the page or the choice that shows them
// (the audit log, a cost page's custom range), not with the first visit (docs/decisions/014-first-visit-bytes.md);
// the server still renders them.
import datesStyles from "@mantine/dates/styles.css?url";
import { Center, Loader } from "@mantine/core";
import { lazy, Suspense } from "react";
import type { DateRangeFieldsProps } from "./date-range-fields";
import { loadStyleSheet } from "./load-style-sheet";

const Fields = lazy(() =>
  Promise.all([import("./date-range-fields"), loadStyleSheet(datesStyles)]).then(([module]) => ({
    default: module.DateRangeFields,
  })),
);

export function DateRangeFields(props: DateRangeFieldsProps) {
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
