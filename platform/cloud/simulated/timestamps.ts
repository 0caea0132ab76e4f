/** Timestamps in the formats the simulated software writes, always in UTC. */

const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (value: number, length = 2) => String(value).padStart(length, "0");

/** PostgreSQL's log_line_prefix '%m': `2026-11-22 10:00:00.123 UTC`. */
export const postgresTime = (at: Date) => `${at.toISOString().replace("T", " ").slice(0, 23)} UTC`;

/** Microsecond digits below the millisecond: derived from the instant, so the same instant prints the same. */
const micros = (at: Date) => pad((at.getTime() * 7919) % 1000, 3);

/** MySQL 8's error log: `2026-11-22T10:00:00.123456Z`. */
export const mysqlTime = (at: Date) => `${at.toISOString().slice(0, 23)}${micros(at)}Z`;

/** MariaDB's error log: `2026-11-22 10:00:00`. */
export const mariadbTime = (at: Date) => at.toISOString().replace("T", " ").slice(0, 19);

/** Redis and Valkey: `22 Nov 2026 10:00:00.123`. */
export const redisTime = (at: Date) =>
  `${pad(at.getUTCDate())} ${months[at.getUTCMonth()]} ${at.getUTCFullYear()} ${at.toISOString().slice(11, 23)}`;

/** Common log format (nginx, S3 access logs): `22/Nov/2026:10:00:00 +0000`. */
export const commonLogTime = (at: Date) =>
  `${pad(at.getUTCDate())}/${months[at.getUTCMonth()]}/${at.getUTCFullYear()}:${at.toISOString().slice(11, 19)} +0000`;

/** klog (kubelet, kube-apiserver): `1122 10:00:00.123456`. */
export const klogTime = (at: Date) =>
  `${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())} ${at.toISOString().slice(11, 23)}${micros(at)}`;

export const epochSeconds = (at: Date) => Math.floor(at.getTime() / 1000);
