import { Anchor, Badge, Button, Group, List, Paper, Stack, Text, Title } from "@mantine/core";
import { data, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { isOnboardingInProgress } from "#contract/onboarding-steps";
import { onboardingPages } from "~/features/onboarding/paths";
import { useOnboardingMirror } from "~/features/onboarding/mirror";
import { checklistView, firstOpenStep, parseStep, stepGuide } from "~/features/onboarding/steps.server";
import { loadWorkspace } from "~/features/workspace/workspace.server";
import { getOnboarding } from "~/platform/onboarding.server";
import { throwRouteError } from "~/platform/route-errors.server";

export const meta: MetaFunction = () => [{ title: "Onboarding · Cloud Console" }];

/**
 * /onboarding?step={step}: the walk-through (SPEC §2.2 Onboarding). Each step links into the product's own screen,
 * which comes back to the next step; the ticks come from the organization's data. Once onboarding has ended the
 * overview says so.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, tenantId, organization, currentEnvironment, headers } = await loadWorkspace(request, context);
  const onboarding = await getOnboarding(api, tenantId).catch((error: unknown) =>
    throwRouteError(error, undefined, headers),
  );
  if (!isOnboardingInProgress(onboarding)) throw redirect(onboardingPages.overview, { headers });
  const step =
    parseStep(new URL(request.url).searchParams.get("step"), onboarding.checklist) ??
    firstOpenStep(onboarding.checklist);
  return data(
    {
      organizationName: organization.displayName,
      steps: checklistView(onboarding.checklist),
      guide: stepGuide(step, {
        checklist: onboarding.checklist,
        environmentName: currentEnvironment?.name ?? null,
      }),
    },
    { headers },
  );
}

export default function OnboardingWalkThrough() {
  const { organizationName, steps, guide } = useLoaderData<typeof loader>();
  useOnboardingMirror(true);
  return (
    <Stack gap="lg" maw={720}>
      <Stack gap={4}>
        <Title order={2}>Set up {organizationName}</Title>
        <Text c="dimmed">
          A few steps from a new organization to an application running in the cloud. Each step opens the
          product's own screen and comes back here; skip any of them.
        </Text>
      </Stack>
      <nav aria-label="Onboarding steps">
        <List spacing="xs" listStyleType="none" withPadding={false}>
          {steps.map((item, index) => (
            <List.Item key={item.step}>
              <Group gap="xs" wrap="nowrap">
                {/* Shared components only: a new Mantine component here would join every page's chunk. */}
                <Badge
                  size="sm"
                  circle
                  color={item.done ? "green" : "gray"}
                  variant={item.done ? "filled" : "light"}
                  aria-hidden
                >
                  {item.done ? "✓" : index + 1}
                </Badge>
                <Anchor
                  component={Link}
                  to={item.to}
                  fw={item.step === guide.step ? 700 : 400}
                  aria-current={item.step === guide.step ? "step" : undefined}
                  aria-label={`${item.title}${item.done ? ", done" : ""}`}
                >
                  {item.title}
                </Anchor>
              </Group>
            </List.Item>
          ))}
        </List>
      </nav>
      <Paper withBorder p="lg" data-testid="onboarding-step">
        <Stack gap="md">
          <Group justify="space-between" align="flex-start">
            <Stack gap={2}>
              <Text size="sm" c="dimmed">
                Step {guide.position} of {guide.count}
              </Text>
              <Title order={3}>{guide.title}</Title>
            </Stack>
            {guide.done ? (
              <Badge color="green" variant="light">
                Done
              </Badge>
            ) : null}
          </Group>
          <Text>{guide.description}</Text>
          {guide.blocked ? (
            <Text c="dimmed" size="sm">
              {guide.blocked}
            </Text>
          ) : null}
          <Group gap="sm">
            {guide.links.map((link, index) => (
              <Button
                key={link.to}
                component={Link}
                to={link.to}
                variant={index === 0 && !guide.done ? "filled" : "default"}
              >
                {link.label}
              </Button>
            ))}
          </Group>
          <Group justify="space-between">
            {guide.previous ? (
              <Anchor component={Link} to={guide.previous} size="sm">
                ← Back
              </Anchor>
            ) : (
              <span />
            )}
            <Button component={Link} to={guide.next} variant={guide.done ? "filled" : "subtle"}>
              {guide.position === guide.count
                ? "Go to the checklist"
                : guide.done
                  ? "Next step"
                  : "Skip this step"}
            </Button>
          </Group>
        </Stack>
      </Paper>
      <Text size="sm">
        <Anchor component={Link} to={onboardingPages.overview}>
          See the checklist
        </Anchor>{" "}
        to finish or dismiss onboarding.
      </Text>
    </Stack>
  );
}
