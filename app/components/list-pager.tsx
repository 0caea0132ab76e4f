import { Group, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import { Button } from "~/components/button";

/** A paged list's count ("3 services · page 1 of 2") and its Previous / Next links. */
export function ListPager({
  total,
  noun,
  page,
  pages,
  pathOf,
}: {
  total: number;
  /** Singular; the plural adds an s. */
  noun: string;
  page: number;
  pages: number;
  pathOf: (page: number) => string;
}) {
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed" aria-live="polite">
        {total === 1 ? `1 ${noun}` : `${total} ${noun}s`}
        {pages > 1 ? ` · page ${page} of ${pages}` : ""}
      </Text>
      {pages > 1 ? (
        <Group gap="xs" component="nav" aria-label="Pages">
          <Button
            component={Link}
            to={pathOf(page - 1)}
            variant="secondary"
            size="small"
            disabled={page <= 1}
            aria-disabled={page <= 1}
          >
            Previous
          </Button>
          <Button
            component={Link}
            to={pathOf(page + 1)}
            variant="secondary"
            size="small"
            disabled={page >= pages}
            aria-disabled={page >= pages}
          >
            Next
          </Button>
        </Group>
      ) : null}
    </Group>
  );
}
