/** Whether an SDK error has one of `names` (the AWS error code). */
export function isAwsError(error: unknown, ...names: string[]): boolean {
  return error instanceof Error && names.includes(error.name);
}
