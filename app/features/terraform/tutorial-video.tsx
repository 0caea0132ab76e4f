import { Stack, Text } from "@mantine/core";

/** The video and its poster ship in public/terraform (scripts/make-tutorial-video.sh renders them). */
export const TUTORIAL_VIDEO = {
  src: "/terraform/tutorial.webm",
  poster: "/terraform/tutorial-poster.png",
  title: "How Terraform generation works",
};

/** The embedded tutorial: connect, authorize the read-only role, download. */
export function TutorialVideo() {
  return (
    <Stack gap={4}>
      <video
        controls
        preload="metadata"
        poster={TUTORIAL_VIDEO.poster}
        src={TUTORIAL_VIDEO.src}
        aria-label={TUTORIAL_VIDEO.title}
        data-testid="tutorial-video"
        style={{
          width: "100%",
          maxWidth: 640,
          aspectRatio: "16 / 9",
          borderRadius: 4,
          background: "#6E27D5",
        }}
      />
      <Text size="sm" c="dimmed">
        {TUTORIAL_VIDEO.title}
      </Text>
    </Stack>
  );
}
