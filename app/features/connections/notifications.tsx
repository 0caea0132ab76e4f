import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Badge, Checkbox, Group, List, Paper, Radio, Stack, Text } from "@mantine/core";
import { Form, useNavigation } from "@remix-run/react";
import { useState } from "react";
import {
  notificationEvents,
  notificationEventTitles,
  type Delivery,
  type DeliveryStatus,
  type NotificationRules,
} from "#contract/connections";
import { Button } from "~/components/button";
import { FormErrors } from "~/components/forms";
import { Restricted, RestrictedFields } from "~/components/restricted";
import { agoLabel } from "./catalogue";
import { notificationRulesFormSchema } from "./notification-form";
import { formatDateTime } from "~/components/date-time";

/** Which events the connection posts, for every environment or the chosen ones. */
export function NotificationRulesForm({
  rules,
  environments,
  canManage,
  lastResult,
}: {
  rules: NotificationRules;
  environments: { id: string; name: string }[];
  canManage: boolean;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "notification-rules",
    lastResult,
    defaultValue: {
      events: rules.events,
      scope: rules.environmentIds ? "chosen" : "all",
      environmentIds: rules.environmentIds ?? [],
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: notificationRulesFormSchema }),
    shouldValidate: "onSubmit",
  });
  const [scope, setScope] = useState(rules.environmentIds ? "chosen" : "all");
  return (
    <Form method="post" {...getFormProps(form)}>
      <Stack gap="md">
        <FormErrors errors={form.errors} id={form.errorId} />
        <RestrictedFields allowed={canManage}>
          <Stack gap="md">
            <Checkbox.Group label="Events" defaultValue={rules.events} error={fields.events.errors?.[0]}>
              <Stack gap={4} mt={4}>
                {notificationEvents.map((event) => (
                  <Checkbox
                    key={event}
                    name={fields.events.name}
                    value={event}
                    label={notificationEventTitles[event]}
                  />
                ))}
              </Stack>
            </Checkbox.Group>
            <Radio.Group label="Environments" name={fields.scope.name} value={scope} onChange={setScope}>
              <Group gap="lg" mt={4}>
                <Radio value="all" label="All environments" />
                <Radio value="chosen" label="Chosen environments" />
              </Group>
            </Radio.Group>
            {scope === "chosen" ? (
              <Checkbox.Group
                aria-label="Environments to notify about"
                defaultValue={rules.environmentIds ?? []}
                error={fields.environmentIds.errors?.[0]}
              >
                <Stack gap={4}>
                  {environments.map((environment) => (
                    <Checkbox
                      key={environment.id}
                      name={fields.environmentIds.name}
                      value={environment.id}
                      label={environment.name}
                    />
                  ))}
                </Stack>
              </Checkbox.Group>
            ) : null}
          </Stack>
        </RestrictedFields>
        <Group justify="flex-end">
          <Restricted allowed={canManage}>
            <Button
              type="submit"
              name="intent"
              value="notifications"
              loading={navigation.formData?.get("intent") === "notifications"}
            >
              Save notification rules
            </Button>
          </Restricted>
        </Group>
      </Stack>
    </Form>
  );
}

const deliveryColors: Record<DeliveryStatus, string> = { pending: "blue", delivered: "green", failed: "red" };
const deliveryLabels: Record<DeliveryStatus, string> = {
  pending: "Pending",
  delivered: "Delivered",
  failed: "Failed",
};

/** The notifications posted through the connection, newest first, each with every attempt and its answer. */
export function DeliveriesList({
  deliveries,
  environmentNames,
  now,
}: {
  deliveries: Delivery[];
  environmentNames: ReadonlyMap<string, string>;
  now: Date;
}) {
  if (!deliveries.length) return <Text size="sm">Nothing posted yet.</Text>;
  return (
    <Stack gap="sm" role="list" aria-label="Deliveries">
      {deliveries.map((delivery) => (
        <Paper key={delivery.id} withBorder p="sm" role="listitem" data-testid="delivery">
          <Stack gap={6}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Stack gap={0}>
                <Text fw={600} size="sm">
                  {delivery.summary}
                </Text>
                <Text size="xs" c="dimmed">
                  {notificationEventTitles[delivery.event]}
                  {delivery.environmentId
                    ? ` · ${environmentNames.get(delivery.environmentId) ?? "a deleted environment"}`
                    : ""}{" "}
                  · <span title={delivery.createdAt}>{agoLabel(delivery.createdAt, now)}</span>
                </Text>
              </Stack>
              <Badge color={deliveryColors[delivery.status]} variant="light">
                {deliveryLabels[delivery.status]}
              </Badge>
            </Group>
            {delivery.attempts.length ? (
              <List size="xs" aria-label="Attempts">
                {delivery.attempts.map((attempt, index) => (
                  <List.Item key={attempt.at}>
                    Attempt {index + 1}, <span title={attempt.at}>{agoLabel(attempt.at, now)}</span>:{" "}
                    {attempt.ok ? "delivered" : "failed"} ({attempt.message})
                  </List.Item>
                ))}
              </List>
            ) : null}
            {delivery.status === "pending" && delivery.nextAttemptAt ? (
              <Text size="xs" c="dimmed">
                Next attempt at {formatDateTime(delivery.nextAttemptAt)}
              </Text>
            ) : null}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
