import type { Database } from "../db/index";
import { createPoller } from "../engine/poller";
import { accrueUsage } from "./accrual";
import { checkBudgets } from "./budgets";

/**
 * The cost worker: every `intervalMs` (COST_ACCRUAL_INTERVAL_MS) it accrues the hours that fully elapsed
 * (./accrual.ts), then checks the budgets against what was accrued (./budgets.ts). Both are safe to repeat and to
 * interrupt, so a restart, or two platforms on one PostgreSQL, neither lose nor double an hour or an alert.
 */
export function createCostWorker({
  db,
  intervalMs,
  appUrl,
  now = () => new Date(),
}: {
  db: Database;
  intervalMs: number;
  appUrl: string;
  now?: () => Date;
}) {
  return createPoller({
    name: "cost worker",
    pollIntervalMs: intervalMs,
    runDue: async () => {
      await accrueUsage(db, { now: now() });
      await checkBudgets(db, { now: now(), appUrl });
    },
  });
}
