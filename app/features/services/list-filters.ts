import { isServiceType, type ServiceType } from "#contract/service-catalogue";
import { isStage, type Stage } from "#contract/stages";
import { NUL_CHARACTER_MESSAGE } from "#contract/validation";

/** Services per page of the list (the platform's default). */
export const SERVICE_LIST_PAGE_SIZE = 50;
const MAX_TEXT_LENGTH = 100;

export type ParsedServiceListFilters = {
  serviceType?: ServiceType;
  stage?: Stage;
  text?: string;
  page: number;
  /** Why a filter was left out, shown on its field: a NUL character, which the platform refuses. */
  errors?: { text: string[] };
};

/**
 * The list's filters from its address (`?serviceType=&stage=&text=&page=`). What is not understood is left out
 * rather than refused: an old bookmark or a hand-edited address still shows a list.
 */
export function parseServiceListFilters(searchParams: URLSearchParams): ParsedServiceListFilters {
  const serviceType = searchParams.get("serviceType");
  const stage = searchParams.get("stage");
  const text = (searchParams.get("text") ?? "").trim().slice(0, MAX_TEXT_LENGTH);
  const page = Number(searchParams.get("page"));
  const textHasNul = text.includes("\u0000");
  const filters: ParsedServiceListFilters = {
    serviceType: isServiceType(serviceType) ? serviceType : undefined,
    stage: isStage(stage) ? stage : undefined,
    text: text && !textHasNul ? text : undefined,
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
  return textHasNul ? { ...filters, errors: { text: [NUL_CHARACTER_MESSAGE] } } : filters;
}

export function hasFilters(filters: ParsedServiceListFilters): boolean {
  return Boolean(filters.serviceType || filters.stage || filters.text);
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
