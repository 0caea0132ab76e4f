import { parseSubmission } from "~/components/parse-submission.server";
import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Text, Title } from "@mantine/core";
import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  type LinksFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { endOnboardingRequestSchema } from "#contract/onboarding";
import { isOnboardingInProgress } from "#contract/onboarding-steps";
import { onboardingPages } from "~/features/onboarding/paths";
import { FormErrors } from "~/components/forms";
import { useOnboardingMirror, writeOnboardingMirror } from "~/features/onboarding/mirror";
import { checklistView } from "~/features/onboarding/steps.server";
import { useCan } from "~/features/permissions/permissions";
import { rejectSubmission } from "~/platform/action-errors.server";
import { endOnboarding, getOnboarding } from "~/platform/onboarding.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { redirectWithToast } from "~/toast.server";
import { formatDate } from "~/components/date-time";
import { mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineFormsSheet];

export const meta: MetaFunction = () => [{ title: "Onboarding overview · Cloud Console" }];

/** /onboarding/overview: the checklist, each step ticked from the organization's data (SPEC §2.2 Onboarding). */
export async function loader({ request }: LoaderFunctionArgs) {
  const { api, tenantId, organization, headers } = await requireOrganizationClient(request);
  const onboarding = await getOnboarding(api, tenantId).catch((error: unknown) =>
    throwRouteError(error, undefined, headers),
  );
  return data(
    {
      organizationName: organization.displayName,
      status: onboarding.status,
      endedAt: onboarding.endedAt,
      checklist: checklistView(onboarding.checklist),
    },
    { headers },
  );
}

/** Finish or Dismiss: ends onboarding for the whole organization, then home opens the environment. */
export async function action({ request }: ActionFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const submission = parseSubmission(await request.formData(), { schema: endOnboardingRequestSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400, headers });
  try {
    await endOnboarding(api, tenantId, submission.value.status);
  } catch (error) {
    return rejectSubmission(submission, error, headers);
  }
  throw await redirectWithToast(
    "/",
    {
      variant: "success",
      message: submission.value.status === "finished" ? "Onboarding finished" : "Onboarding dismissed",
    },
    { headers },
  );
}

const endedWords = { finished: "finished", dismissed: "dismissed" } as const;

export default function OnboardingOverview() {
  const { organizationName, status, endedAt, checklist } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const canEnd = useCan("organization.manage");
  const inProgress = isOnboardingInProgress({ status });
  useOnboardingMirror(inProgress);
  const done = checklist.filter((item) => item.done).length;
  const ending = navigation.state === "submitting" ? navigation.formData?.get("status") : null;

  return (
    <Stack gap="lg" maw={720}>
      <Stack gap={4}>
        <Title order={2}>Getting started with {organizationName}</Title>
        <Text c="dimmed">Each step is ticked from what your organization really has, not from clicks.</Text>
      </Stack>
      {status === "finished" || status === "dismissed" ? (
        <Alert color="blue" title={`Onboarding ${endedWords[status]}`}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              Onboarding was {endedWords[status]}
              {endedAt ? ` on ${formatDate(endedAt)}` : ""} for everyone in {organizationName}. The checklist
              stays here for reference.
            </Text>
            <Button component={Link} to="/" reloadDocument size="xs">
              Go to your environment
            </Button>
          </Stack>
        </Alert>
      ) : null}
      {status === "not-started" ? (
        <Alert color="gray" title="No onboarding for this organization">
          <Text size="sm">
            Onboarding starts with an organization created through the form. The checklist still shows where{" "}
            {organizationName} stands.
          </Text>
        </Alert>
      ) : null}
      <Text size="sm" fw={600} data-testid="onboarding-progress">
        {done} of {checklist.length} steps done
      </Text>
      <Paper withBorder>
        <Stack gap={0} component="ul" m={0} p={0} style={{ listStyle: "none" }} aria-label="Checklist">
          {checklist.map((item, index) => (
            <Group
              key={item.step}
              component="li"
              p="md"
              gap="md"
              wrap="nowrap"
              justify="space-between"
              data-testid={`checklist-${item.step}`}
              data-done={item.done}
              style={index > 0 ? { borderTop: "1px solid var(--mantine-color-gray-3)" } : undefined}
            >
              <Group gap="md" wrap="nowrap">
                {/* Shared components only: a new Mantine component here would join every page's chunk. */}
                <Badge color={item.done ? "green" : "gray"} variant={item.done ? "filled" : "light"} miw={72}>
                  {item.done ? "Done" : "To do"}
                </Badge>
                <Stack gap={0}>
                  <Text fw={600}>{item.title}</Text>
                  <Text size="sm" c="dimmed">
                    {item.criteria}
                  </Text>
                </Stack>
              </Group>
              {inProgress ? (
                <Anchor component={Link} to={item.to} size="sm" style={{ whiteSpace: "nowrap" }}>
                  {item.done ? "Review" : "Open step"}
                </Anchor>
              ) : null}
            </Group>
          ))}
        </Stack>
      </Paper>
      {inProgress ? (
        <Form method="post" onSubmit={() => writeOnboardingMirror(false)}>
          <Stack gap="sm">
            <FormErrors errors={lastResult?.error?.[""] ?? undefined} id="onboarding-end-errors" />
            <Text size="sm" c="dimmed">
              Finishing or dismissing ends onboarding for everyone in {organizationName}, on every device;
              home then opens your environment.
            </Text>
            {canEnd ? null : (
              <Text size="sm">Only members who can manage the organization can end onboarding.</Text>
            )}
            <Group gap="sm">
              <Button
                type="submit"
                name="status"
                value="finished"
                disabled={!canEnd}
                loading={ending === "finished"}
              >
                Finish onboarding
              </Button>
              <Button
                type="submit"
                name="status"
                value="dismissed"
                variant="default"
                disabled={!canEnd}
                loading={ending === "dismissed"}
              >
                Dismiss
              </Button>
              <Anchor component={Link} to={onboardingPages.walkThrough} size="sm">
                Back to the walk-through
              </Anchor>
            </Group>
          </Stack>
        </Form>
      ) : null}
    </Stack>
  );
}
