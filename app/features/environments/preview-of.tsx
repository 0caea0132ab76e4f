import { Anchor, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import type { Preview } from "#contract/previews";
import { environmentPagePaths } from "./paths";

/** Under a preview environment's name: what it previews, and the pull request it was made for. */
export function PreviewOf({ preview }: { preview: Preview }) {
  return (
    <Text size="sm" c="dimmed" data-testid="preview-of">
      Preview of{" "}
      <Anchor component={Link} to={environmentPagePaths.section(preview.source.name)}>
        {preview.source.name}
      </Anchor>{" "}
      for pull request{" "}
      <Anchor href={preview.pullRequest.url} target="_blank" rel="noreferrer">
        #{preview.pullRequest.number} {preview.pullRequest.title}
      </Anchor>{" "}
      by {preview.pullRequest.author}
      {preview.url ? (
        <>
          {" · "}
          <Anchor href={preview.url} target="_blank" rel="noreferrer">
            {preview.url}
          </Anchor>
        </>
      ) : null}
    </Text>
  );
}
