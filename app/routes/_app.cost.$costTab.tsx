import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { parseWithZod } from "@conform-to/zod/v4";
import { parseSubmission } from "~/components/parse-submission.server";
import { Badge, Group, Paper, Stack, Table, Text, Title } from "@mantine/core";
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  type LinksFunction,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { BUDGET_THRESHOLDS, type Budget, type BudgetAlert } from "#contract/cost";
import { errorCodes } from "#contract/errors";
import { Button } from "~/components/button";
import { FormErrors, NumberField, SelectField } from "~/components/forms";
import { budgetFormSchema, scopeLabel } from "~/features/cost/budget-forms";
import { costPagePaths } from "~/features/cost/cost-search";
import { useCan } from "~/features/permissions/permissions";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { rejectSubmission } from "~/platform/action-errors.server";
import { isPlatformError } from "~/platform/client.server";
import { createBudget, deleteBudget, listBudgets, updateBudget } from "~/platform/cost.server";
import { listEnvironmentSummaries } from "~/platform/environments.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { redirectWithToast } from "~/toast.server";
import { formatUsd } from "~/features/environments/cost";
import { formatDateTime } from "~/components/date-time";
import { mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineFormsSheet];

export const meta: MetaFunction = () => [{ title: "Budgets · Cost · Cloud Console" }];

/** The cost tabs beyond the window pages (SPEC §2.2 /cost/{costTab}): budgets. */
const costTabs = ["budgets"] as const;

const isCostTab = (tab: string | undefined) => costTabs.includes(tab as (typeof costTabs)[number]);

export async function loader({ request, params }: LoaderFunctionArgs) {
  if (!isCostTab(params.costTab)) throw redirect("/404");
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  try {
    const [list, environments] = await Promise.all([
      listBudgets(api, tenantId),
      listEnvironmentSummaries(api, tenantId),
    ]);
    return data({ ...list, environments: environments.map(({ id, name }) => ({ id, name })) }, { headers });
  } catch (error) {
    // Without billing.view the platform answers 403: the page is not for this member.
    if (isPlatformError(error) && error.status === 403) throw redirect("/401", { headers });
    throwRouteError(error, errorCodes.resourceListFetch, headers);
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (!isCostTab(params.costTab)) throw redirect("/404");
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const submission = parseSubmission(await request.formData(), { schema: budgetFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400, headers });
  const value = submission.value;
  let message: string;
  try {
    switch (value.intent) {
      case "create": {
        const { budget } = await createBudget(api, tenantId, {
          environmentId: value.environmentId ?? null,
          amount: value.amount,
        });
        message = `Budget of ${formatUsd(budget.amount)} a month set for ${scopeLabel(budget.environmentName)}`;
        break;
      }
      case "update": {
        const { budget } = await updateBudget(api, tenantId, value.budgetId, value.amount);
        message = `Budget of ${scopeLabel(budget.environmentName)} changed to ${formatUsd(budget.amount)} a month`;
        break;
      }
      case "delete":
        await deleteBudget(api, tenantId, value.budgetId);
        message = `Budget of ${value.scope} deleted`;
        break;
    }
  } catch (error) {
    return rejectSubmission(submission, error, headers);
  }
  throw await redirectWithToast(costPagePaths.budgets, { variant: "success", message }, { headers });
}

type ActionResult = SubmissionResult<string[]> | undefined;

/** The answer's form values, to give it to the form that sent it only. */
function answerOf(result: ActionResult): { intent?: string; budgetId?: string } {
  return (result?.initialValue ?? {}) as { intent?: string; budgetId?: string };
}

export default function BudgetsPage() {
  const { budgets, alerts, environments } = useLoaderData<typeof loader>();
  const actionResult = useActionData<typeof action>();
  const canManage = useCan("billing.manage");
  const navigation = useNavigation();
  const [deleting, setDeleting] = useState<Budget | null>(null);
  // An answer (a refusal) closes the dialog, so the page shows it.
  useEffect(() => setDeleting(null), [actionResult]);
  const answer = answerOf(actionResult);
  const [deleteForm] = useForm({
    id: "delete-budget",
    lastResult: answer.intent === "delete" ? actionResult : undefined,
  });
  const taken = new Set(budgets.map((budget) => budget.environmentId ?? ""));
  const freeScopes = environments.filter((environment) => !taken.has(environment.id));
  return (
    <Stack gap="md">
      <Text c="dimmed" size="sm">
        A monthly amount for the organization or one environment. An alert is raised once a month at{" "}
        {BUDGET_THRESHOLDS.join(" % and ")} % of the month&apos;s spend and of its forecast, on this page and
        through the Slack and Teams connections that take budget alerts.
      </Text>
      <Alerts alerts={alerts} />
      <Paper withBorder p="md">
        <Title order={3} size="h4" mb="xs">
          Budgets
        </Title>
        <FormErrors errors={deleteForm.errors} id={deleteForm.errorId} />
        {budgets.length ? (
          <Table.ScrollContainer minWidth={720}>
            <Table aria-label="Budgets" verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Scope</Table.Th>
                  <Table.Th ta="right">Month to date</Table.Th>
                  <Table.Th ta="right">Forecast</Table.Th>
                  <Table.Th>{canManage ? "Amount a month" : "Amount"}</Table.Th>
                  {canManage ? <Table.Th /> : null}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {budgets.map((budget) => (
                  <BudgetRow
                    key={budget.id}
                    budget={budget}
                    canManage={canManage}
                    lastResult={
                      answer.intent === "update" && answer.budgetId === budget.id ? actionResult : undefined
                    }
                    onDelete={() => setDeleting(budget)}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : (
          <Text c="dimmed">No budget yet.</Text>
        )}
      </Paper>
      {canManage && (freeScopes.length || !taken.has("")) ? (
        <CreateBudgetForm
          environments={freeScopes}
          organizationFree={!taken.has("")}
          lastResult={answer.intent === "create" ? actionResult : undefined}
        />
      ) : null}
      <Form method="post" {...getFormProps(deleteForm)}>
        <input type="hidden" name="budgetId" value={deleting?.id ?? ""} />
        <input type="hidden" name="scope" value={deleting ? scopeLabel(deleting.environmentName) : ""} />
      </Form>
      <ConfirmDialog
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete budget"
        formId={deleteForm.id}
        intent="delete"
        confirmLabel="Delete budget"
        danger
        busy={navigation.state !== "idle"}
      >
        Delete the budget of {deleting ? scopeLabel(deleting.environmentName) : ""}? Its alerts go with it.
      </ConfirmDialog>
    </Stack>
  );
}

function Alerts({ alerts }: { alerts: BudgetAlert[] }) {
  return (
    <Paper withBorder p="md" role="region" aria-label="Budget alerts">
      <Title order={3} size="h4" mb="xs">
        Alerts
      </Title>
      {alerts.length ? (
        <Table aria-label="Alerts">
          <Table.Tbody>
            {alerts.map((alert) => (
              <Table.Tr key={alert.id}>
                <Table.Td>
                  <Badge color={alert.threshold >= 100 ? "red" : "orange"} variant="light">
                    {alert.threshold} %
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {alert.kind === "forecast" ? "The forecast" : "The spend"} of{" "}
                  {scopeLabel(alert.environmentName)} for {alert.month} reached {alert.threshold} % of its
                  budget: {formatUsd(alert.value)} of {formatUsd(alert.budgetAmount)}
                </Table.Td>
                <Table.Td c="dimmed">{formatDateTime(alert.at)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text c="dimmed">No budget has been reached this month or before.</Text>
      )}
    </Paper>
  );
}

function BudgetRow({
  budget,
  canManage,
  lastResult,
  onDelete,
}: {
  budget: Budget;
  canManage: boolean;
  lastResult: ActionResult;
  onDelete: () => void;
}) {
  const scope = scopeLabel(budget.environmentName);
  const [form, fields] = useForm({
    id: `edit-budget-${budget.id}`,
    lastResult,
    defaultValue: { amount: String(budget.amount) },
    constraint: getZodConstraint(budgetFormSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: budgetFormSchema }),
    shouldRevalidate: "onBlur",
  });
  return (
    <Table.Tr>
      <Table.Td>{scope}</Table.Td>
      <Table.Td ta="right">
        {formatUsd(budget.monthToDate)}{" "}
        <Text span c="dimmed" size="sm">
          ({budget.spentPercent.toFixed(0)} %)
        </Text>
      </Table.Td>
      <Table.Td ta="right">
        {formatUsd(budget.forecast)}{" "}
        <Text span c="dimmed" size="sm">
          ({budget.forecastPercent.toFixed(0)} %)
        </Text>
      </Table.Td>
      <Table.Td>
        {canManage ? (
          <Form method="post" {...getFormProps(form)}>
            <input type="hidden" name="budgetId" value={budget.id} />
            <input type="hidden" name="scope" value={scope} />
            <Group gap="xs" align="flex-start" wrap="nowrap">
              <NumberField
                field={fields.amount}
                aria-label={`Amount of the budget of ${scope}`}
                allowDecimal
                decimalScale={2}
                min={0}
                w={160}
              />
              <Button type="submit" name="intent" value="update" variant="secondary">
                Save
              </Button>
            </Group>
            <FormErrors errors={form.errors} id={form.errorId} />
          </Form>
        ) : (
          formatUsd(budget.amount)
        )}
      </Table.Td>
      {canManage ? (
        <Table.Td>
          <Button variant="ghostSecondary" aria-label={`Delete the budget of ${scope}`} onClick={onDelete}>
            Delete
          </Button>
        </Table.Td>
      ) : null}
    </Table.Tr>
  );
}

function CreateBudgetForm({
  environments,
  organizationFree,
  lastResult,
}: {
  environments: { id: string; name: string }[];
  organizationFree: boolean;
  lastResult: ActionResult;
}) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "create-budget",
    lastResult,
    constraint: getZodConstraint(budgetFormSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: budgetFormSchema }),
    shouldRevalidate: "onBlur",
  });
  return (
    <Paper withBorder p="md">
      <Form method="post" {...getFormProps(form)} aria-label="Set a budget">
        <Stack gap="sm">
          <Title order={3} size="h4">
            Set a budget
          </Title>
          <FormErrors errors={form.errors} id={form.errorId} />
          <Group align="flex-start">
            <SelectField
              field={fields.environmentId}
              label="Scope"
              data={environments.map(({ id, name }) => ({ value: id, label: name }))}
              placeholder={organizationFree ? "The whole organization" : "Choose an environment"}
              clearable
              w={260}
            />
            <NumberField
              field={fields.amount}
              label="Amount a month (USD)"
              allowDecimal
              decimalScale={2}
              min={0}
              w={200}
            />
          </Group>
          <Group>
            <Button
              type="submit"
              name="intent"
              value="create"
              loading={navigation.state === "submitting" && navigation.formData?.get("intent") === "create"}
            >
              Set budget
            </Button>
          </Group>
        </Stack>
      </Form>
    </Paper>
  );
}
