import { Anchor, Box, Group, Loader, Paper, Progress, Stack, Text, Title } from "@mantine/core";
import { Link } from "@remix-run/react";
import { useState } from "react";
import type { CloudConnectionJob } from "#contract/tools";
import { Button } from "~/components/button";
import { useAnalytics } from "~/features/analytics/analytics-provider";
import { PromoCarousel } from "./promo-carousel";
import { promoSlides } from "./promo-slides";
import { relativeDuration } from "./relative-duration";
import { REVOKE_ACCESS_LABEL, RevokeAccessDialog } from "./revoke-access-dialog";
import { TutorialVideo } from "./tutorial-video";
import { useGenerationCard } from "./use-generation-card";

/** SPEC §2.4, §9: the card is 854 px wide. */
export const GENERATION_CARD_WIDTH = 854;

/**
 * SPEC §2.4 infrastructure-code generation and download card. `job` is null until the first poll answers;
 * `framed` draws the card's own border where no surrounding frame does (inside the app shell).
 */
export function TerraformGenerationCard({
  job,
  region,
  startForFreeHref,
  framed,
}: {
  job: CloudConnectionJob | null;
  region: string;
  startForFreeHref: string;
  framed: boolean;
}) {
  const analytics = useAnalytics();
  const downloadUrl = job?.downloadURL ?? null;
  const card = useGenerationCard({
    status: job?.status,
    downloadUrl,
    slideCount: promoSlides.length,
    analytics,
  });
  const [revokeOpened, setRevokeOpened] = useState(false);
  const expiresAt = job?.downloadURLExpirationTime ?? 0;

  return (
    <Paper
      component="section"
      withBorder={framed}
      radius="md"
      p={framed ? "xl" : 0}
      bg={framed ? undefined : "transparent"}
      w={GENERATION_CARD_WIDTH}
      maw="100%"
      aria-label="Terraform generation"
      data-testid="terraform-generation-card"
      data-state={card.state}
    >
      <Stack gap="lg">
        <Title order={2}>
          {card.state === "INITIATED" ? "Generating Terraform" : "Terraform generated successfully"}
        </Title>
        <Stack gap={6}>
          <Progress value={card.progress} size="lg" radius="xl" aria-label="Terraform generation progress" />
          <Text size="sm" c="dimmed">
            This may take a few minutes.
          </Text>
        </Stack>
        <Box>{card.state === "DOWNLOADED" ? <TutorialVideo /> : <PromoCarousel index={card.slide} />}</Box>
        <Group gap="sm">
          {card.downloadPending || !downloadUrl ? (
            // The label stays readable beside the spinner (Mantine's `loading` would hide it).
            <Button disabled aria-busy="true" leftSection={<Loader size="xs" color="purple" />}>
              Generating Terraform
            </Button>
          ) : (
            <Button
              component="a"
              href={downloadUrl}
              target="_blank"
              rel="noopener noreferrer"
              onClick={card.downloaded}
            >
              Download Terraform
            </Button>
          )}
          {card.state === "DOWNLOADED" ? (
            <Button variant="secondary" onClick={card.generateNew}>
              Generate new Terraform
            </Button>
          ) : null}
        </Group>
        {expiresAt > 0 ? (
          <Text size="sm">
            The generated terraform file will be available for download for{" "}
            {relativeDuration(expiresAt, Date.now())} from now.
          </Text>
        ) : null}
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() => setRevokeOpened(true)}
          w="fit-content"
        >
          {REVOKE_ACCESS_LABEL}
        </Anchor>
        <RevokeAccessDialog
          opened={revokeOpened}
          onClose={() => setRevokeOpened(false)}
          region={job?.awsAccountRegion ?? region}
          roleName={job?.roleName ?? null}
        />
        <Text size="sm" c="dimmed" component="footer">
          Deploy to your own cloud in a few clicks, with observability and SOC 2 readiness built in.{" "}
          <Anchor component={Link} to={startForFreeHref}>
            Start for free
          </Anchor>
        </Text>
      </Stack>
    </Paper>
  );
}
