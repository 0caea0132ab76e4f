import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import {
  BUDGET_THRESHOLDS,
  budgetAlertKinds,
  type Budget,
  type BudgetAlert,
  type BudgetAlertKind,
} from "#contract/cost";
import type { Database } from "../db/index";
import {
  budgetAlerts,
  budgets,
  connections,
  environments,
  notificationDeliveries,
  organizations,
} from "../db/schema";
import { appLink, type NotificationMessage } from "../connections/chat-messages";
import { chatKinds, rulesOf } from "../notifications/outbox";
import { monthStartOf } from "./accrual";
import { accrualPoint, monthFigures, roundCents } from "./queries";

/**
 * Budgets (issue 16): a monthly amount for the organization or one environment. After each accrual the worker
 * compares this month's spend and forecast with every budget; crossing 80 % or 100 % records an alert once per
 * budget, month, kind and threshold (a unique key, so a second run or a second platform adds nothing) and, in the
 * same transaction, queues it for the Slack and Teams connections whose rules take `budget.alert` (the outbox).
 */

export type BudgetRow = typeof budgets.$inferSelect;

/** The app's page that lists budgets and their alerts (app/routes, /cost/budgets). */
export const BUDGETS_PAGE = "/cost/budgets";

const isoDay = (at: Date) => at.toISOString().slice(0, 10);

async function environmentNames(db: Database, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: environments.id, name: environments.name })
    .from(environments)
    .where(inArray(environments.id, ids));
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** The organization's budgets with this month's figures, and their latest alerts. */
export async function listBudgets(db: Database, organizationId: string, now: Date) {
  const until = await accrualPoint(db, now);
  const rows = await db
    .select()
    .from(budgets)
    .where(eq(budgets.organizationId, organizationId))
    .orderBy(budgets.createdAt);
  const alerts = await db
    .select()
    .from(budgetAlerts)
    .where(eq(budgetAlerts.organizationId, organizationId))
    .orderBy(desc(budgetAlerts.at))
    .limit(100);
  const budgetsById = new Map(rows.map((row) => [row.id, row]));
  const names = await environmentNames(
    db,
    rows.flatMap((row) => (row.environmentId ? [row.environmentId] : [])),
  );
  const list: Budget[] = [];
  for (const row of rows) list.push(await budgetView(db, row, names, until));
  return {
    budgets: list,
    alerts: alerts.map((alert): BudgetAlert => {
      const environmentId = budgetsById.get(alert.budgetId)?.environmentId ?? null;
      return {
        id: alert.id,
        budgetId: alert.budgetId,
        environmentId,
        environmentName: environmentId ? (names.get(environmentId) ?? null) : null,
        month: alert.month,
        kind: alert.kind as BudgetAlertKind,
        threshold: alert.threshold,
        value: roundCents(alert.value),
        budgetAmount: alert.budgetAmount,
        at: alert.at.toISOString(),
      };
    }),
  };
}

export async function budgetView(
  db: Database,
  row: BudgetRow,
  names: Map<string, string>,
  until: Date,
): Promise<Budget> {
  const figures = await monthFigures(
    db,
    { organizationId: row.organizationId, environmentId: row.environmentId },
    until,
  );
  return {
    id: row.id,
    environmentId: row.environmentId,
    environmentName: row.environmentId ? (names.get(row.environmentId) ?? null) : null,
    amount: row.amount,
    monthToDate: roundCents(figures.monthToDate),
    forecast: roundCents(figures.forecast),
    spentPercent: Math.round((figures.monthToDate / row.amount) * 1000) / 10,
    forecastPercent: Math.round((figures.forecast / row.amount) * 1000) / 10,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The message an alert posts: which budget, what crossed which threshold, this month's figures. */
export function budgetAlertMessage(
  {
    organizationName,
    environmentName,
    kind,
    threshold,
    value,
    amount,
    month,
  }: {
    organizationName: string;
    environmentName: string | null;
    kind: BudgetAlertKind;
    threshold: number;
    value: number;
    amount: number;
    month: string;
  },
  appUrl: string,
): NotificationMessage {
  const scope = environmentName ? `${environmentName} in ${organizationName}` : organizationName;
  const dollars = (amount: number) => `$${roundCents(amount).toFixed(2)}`;
  const what =
    kind === "actual"
      ? `has spent ${dollars(value)} this month, ${threshold} % or more of its ${dollars(amount)} budget`
      : `is forecast to spend ${dollars(value)} this month, ${threshold} % or more of its ${dollars(amount)} budget`;
  return {
    title: `Budget alert: ${kind === "actual" ? "spent" : "forecast"} ${threshold} % of the budget of ${scope}`,
    text: `${scope} ${what}.`,
    link: appLink(appUrl, BUDGETS_PAGE),
    facts: {
      Organization: organizationName,
      Environment: environmentName ?? "All environments",
      Month: month.slice(0, 7),
      Budget: dollars(amount),
      [kind === "actual" ? "Spent" : "Forecast"]: dollars(value),
    },
  };
}

/**
 * Checks every budget against this month's figures as accrued; records and announces each threshold crossed for
 * the first time this month. Returns the alerts it recorded.
 */
export async function checkBudgets(db: Database, { now, appUrl }: { now: Date; appUrl: string }) {
  const until = await accrualPoint(db, now);
  const month = isoDay(monthStartOf(until));
  const rows = await db
    .select({ budget: budgets, organizationName: organizations.displayName })
    .from(budgets)
    .innerJoin(organizations, eq(organizations.id, budgets.organizationId));
  const names = await environmentNames(
    db,
    rows.flatMap(({ budget }) => (budget.environmentId ? [budget.environmentId] : [])),
  );
  let recorded = 0;
  for (const { budget, organizationName } of rows) {
    const figures = await monthFigures(
      db,
      { organizationId: budget.organizationId, environmentId: budget.environmentId },
      until,
    );
    for (const kind of budgetAlertKinds) {
      const value = kind === "actual" ? figures.monthToDate : figures.forecast;
      for (const threshold of BUDGET_THRESHOLDS) {
        if (value < (budget.amount * threshold) / 100) continue;
        recorded += await db.transaction(async (tx) => {
          const [alert] = await tx
            .insert(budgetAlerts)
            .values({
              budgetId: budget.id,
              organizationId: budget.organizationId,
              month,
              kind,
              threshold,
              value,
              budgetAmount: budget.amount,
              at: now,
            })
            .onConflictDoNothing()
            .returning();
          if (!alert) return 0;
          const environmentName = budget.environmentId ? (names.get(budget.environmentId) ?? null) : null;
          await queueAlert(
            tx,
            budget,
            budgetAlertMessage(
              { organizationName, environmentName, kind, threshold, value, amount: budget.amount, month },
              appUrl,
            ),
            now,
          );
          return 1;
        });
      }
    }
  }
  return recorded;
}

/**
 * One delivery per Slack or Teams connection of the organization whose rules take `budget.alert`: for an
 * environment's budget, rules for every environment or for that one; for the organization's, rules for every one.
 */
async function queueAlert(tx: Database, budget: BudgetRow, message: NotificationMessage, now: Date) {
  const chats = await tx
    .select({ id: connections.id, notifications: connections.notifications })
    .from(connections)
    .where(
      and(eq(connections.organizationId, budget.organizationId), inArray(connections.kind, [...chatKinds])),
    );
  const targets = chats.filter((chat) => {
    const rules = rulesOf(chat.notifications);
    if (!rules.events.includes("budget.alert")) return false;
    if (rules.environmentIds === null) return true;
    return budget.environmentId !== null && rules.environmentIds.includes(budget.environmentId);
  });
  if (!targets.length) return;
  await tx.insert(notificationDeliveries).values(
    targets.map((chat) => ({
      connectionId: chat.id,
      environmentId: budget.environmentId,
      event: "budget.alert",
      message,
      status: "pending",
      nextAttemptAt: now,
      createdAt: now,
    })),
  );
}

/** The organization's budget for a scope (null: the organization's own), if there is one. */
export async function budgetOfScope(db: Database, organizationId: string, environmentId: string | null) {
  const [row] = await db
    .select()
    .from(budgets)
    .where(
      and(
        eq(budgets.organizationId, organizationId),
        environmentId ? eq(budgets.environmentId, environmentId) : isNull(budgets.environmentId),
      ),
    );
  return row;
}
