/** SPEC §3 browser storage keys: the infrastructure-code region and job id live in local storage. */
export const REGION_STORAGE_KEY = "iac-region";
export const JOB_ID_STORAGE_KEY = "persist:job-id";

type KeyValueStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

function browserStorage(): KeyValueStorage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

function read(key: string, storage: KeyValueStorage | null): string | null {
  try {
    return storage?.getItem(key) || null;
  } catch {
    return null;
  }
}

function write(key: string, value: string | null, storage: KeyValueStorage | null): void {
  try {
    if (value === null) storage?.removeItem(key);
    else storage?.setItem(key, value);
  } catch {
    // Storage full or blocked: the job is then only followed while the page stays open.
  }
}

/** The stored job id and region; every function takes the storage to use so tests can pass their own. */
export const jobStorage = {
  jobId: (storage = browserStorage()) => read(JOB_ID_STORAGE_KEY, storage),
  region: (storage = browserStorage()) => read(REGION_STORAGE_KEY, storage),
  /** SPEC §4: the job id is stored once, when the job is created, with the chosen region. */
  saveStartedJob: (jobId: string, region: string, storage = browserStorage()) => {
    write(JOB_ID_STORAGE_KEY, jobId, storage);
    write(REGION_STORAGE_KEY, region, storage);
  },
  clearJobId: (storage = browserStorage()) => write(JOB_ID_STORAGE_KEY, null, storage),
  clearRegion: (storage = browserStorage()) => write(REGION_STORAGE_KEY, null, storage),
};
