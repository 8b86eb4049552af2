/**
 * The normalised grant record every grants endpoint serves, built from one jGrants item (live
 * or snapshot) by one normaliser. Status and days-to-deadline are relative to the request time.
 */
import { extractMaxAmount, type AmountExtraction } from './amounts';
import { readTargetAreas, type TargetAreas } from './areas';
import { completenessOf, type CompletenessField } from './completeness';
import type { JgrantsSubsidy } from './jgrants-wire';
import { htmlToText } from './plain-text';
import {
  findIndustry,
  findPurpose,
  readEmployeeLimit,
  readLabelledList,
  type EmployeeLimit,
  type LabelledList,
} from './taxonomy';
import { daysBetween, parseUpstreamInstant, tokyoDateOf, tokyoDateTime } from './tokyo-dates';

export type GrantStatus = 'open' | 'upcoming' | 'closed' | 'unknown';

export interface GrantContact {
  /** The call's page on the jGrants portal (applications and inquiries go through it). */
  official_page_url: string | null;
  inquiry_url: string | null;
  /** The inquiry section of the description (問合せ先), when it has one. */
  inquiry_text: string | null;
  institution_name: string | null;
}

export interface GrantRecord {
  grant_id: string;
  title: string;
  catch_phrase: string | null;
  institution_name: string | null;
  status: GrantStatus;
  /** The last day of acceptance, YYYY-MM-DD in Asia/Tokyo. */
  deadline_date: string | null;
  /** From today (Asia/Tokyo) to deadline_date; negative once past. */
  days_until_deadline: number | null;
  acceptance: {
    start_at: string | null;
    end_at: string | null;
    start_date: string | null;
    end_date: string | null;
    timezone: 'Asia/Tokyo';
  };
  project_end_date: string | null;
  target_areas: TargetAreas;
  industries: LabelledList | null;
  employee_limit: EmployeeLimit | null;
  purposes: LabelledList | null;
  subsidy_rate: string | null;
  max_subsidy_amount_jpy: number | null;
  amount_extraction_status: AmountExtraction['amount_extraction_status'];
  amount_evidence: AmountExtraction['evidence'];
  description: string | null;
  contact: GrantContact;
  official_page_url: string | null;
  data_completeness_score: number;
  missing_fields: CompletenessField[];
}

const PORTAL_PAGE = 'https://www.jgrants-portal.go.jp/subsidy/';
const INQUIRY = /(?:■|【)?\s*(?:お?問い?合わ?せ先?|連絡先)\s*(?:】)?\s*[:：]?\s*([^■【]{4,200})/;

function text(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const t = value.trim();
  return t === '' ? null : t;
}

function statusAt(now: Date, startMs: number | null, endMs: number | null): GrantStatus {
  if (endMs === null) return 'unknown';
  if (now.getTime() > endMs) return 'closed';
  if (startMs !== null && now.getTime() < startMs) return 'upcoming';
  return 'open';
}

type TimelessRecord = Omit<GrantRecord, 'status' | 'days_until_deadline'> & {
  startMs: number | null;
  endMs: number | null;
};

/**
 * Everything but the request-time fields depends on the item alone, so it is worked out once per
 * item object (snapshot items live for the process; live items for their cache entry).
 */
const timeless = new WeakMap<JgrantsSubsidy, TimelessRecord>();

export function normaliseGrant(raw: JgrantsSubsidy, now: Date): GrantRecord {
  let base = timeless.get(raw);
  if (!base) {
    // Frozen: every answer shares it, so no caller may change it.
    base = deepFreeze(timelessPart(raw));
    timeless.set(raw, base);
  }
  const { startMs, endMs, ...record } = base;
  return {
    ...record,
    status: statusAt(now, startMs, endMs),
    days_until_deadline: record.deadline_date ? daysBetween(tokyoDateOf(now), record.deadline_date) : null,
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

function timelessPart(raw: JgrantsSubsidy): TimelessRecord {
  const start = parseUpstreamInstant(raw.acceptance_start_datetime);
  const end = parseUpstreamInstant(raw.acceptance_end_datetime);
  const projectEnd = parseUpstreamInstant(raw.project_end_deadline);
  const deadline = end ? tokyoDateOf(end) : null;
  const amount = extractMaxAmount(raw);
  const description = htmlToText(raw.detail);
  const industries = readLabelledList(raw.industry, findIndustry);
  const purposes = readLabelledList(raw.use_purpose, findPurpose);
  const employee_limit = readEmployeeLimit(raw.target_number_of_employees);
  const target_areas = readTargetAreas(raw.target_area_search, raw.target_area_detail);
  const pageUrl =
    text(raw.front_subsidy_detail_page_url) ??
    (/^[A-Za-z0-9]{1,18}$/.test(raw.id) ? `${PORTAL_PAGE}${raw.id}` : null);
  const inquiryText = description ? (INQUIRY.exec(description)?.[1]?.trim() ?? null) : null;
  const contact: GrantContact = {
    official_page_url: pageUrl,
    inquiry_url: text(raw.inquiry_url),
    inquiry_text: inquiryText,
    institution_name: text(raw.institution_name),
  };
  const rate = text(raw.subsidy_rate);
  const completeness = completenessOf({
    deadline: deadline !== null,
    acceptance_start: start !== null,
    target_area: target_areas.text !== null,
    industries: industries !== null,
    employee_limit: employee_limit !== null,
    purposes: purposes !== null,
    subsidy_rate: rate !== null,
    description: description !== null,
    official_page_url: text(raw.front_subsidy_detail_page_url) !== null,
    contact: contact.inquiry_url !== null || contact.inquiry_text !== null,
    amount_status: amount.amount_extraction_status,
  });
  return {
    startMs: start?.getTime() ?? null,
    endMs: end?.getTime() ?? null,
    grant_id: raw.id,
    title: text(raw.title) ?? text(raw.name) ?? raw.id,
    catch_phrase: text(raw.subsidy_catch_phrase),
    institution_name: contact.institution_name,
    deadline_date: deadline,
    acceptance: {
      start_at: start ? tokyoDateTime(start) : null,
      end_at: end ? tokyoDateTime(end) : null,
      start_date: start ? tokyoDateOf(start) : null,
      end_date: deadline,
      timezone: 'Asia/Tokyo',
    },
    project_end_date: projectEnd ? tokyoDateOf(projectEnd) : null,
    target_areas,
    industries,
    employee_limit,
    purposes,
    subsidy_rate: rate,
    max_subsidy_amount_jpy: amount.max_subsidy_amount_jpy,
    amount_extraction_status: amount.amount_extraction_status,
    amount_evidence: amount.evidence,
    description,
    contact,
    official_page_url: pageUrl,
    data_completeness_score: completeness.score,
    missing_fields: completeness.missing,
  };
}

/** The fields of a record shown in lists (the detail endpoint serves the whole record). */
export type GrantSummary = Pick<
  GrantRecord,
  | 'grant_id'
  | 'title'
  | 'status'
  | 'deadline_date'
  | 'days_until_deadline'
  | 'acceptance'
  | 'target_areas'
  | 'employee_limit'
  | 'subsidy_rate'
  | 'max_subsidy_amount_jpy'
  | 'amount_extraction_status'
  | 'official_page_url'
  | 'data_completeness_score'
>;

export function summarise(r: GrantRecord): GrantSummary {
  return {
    grant_id: r.grant_id,
    title: r.title,
    status: r.status,
    deadline_date: r.deadline_date,
    days_until_deadline: r.days_until_deadline,
    acceptance: r.acceptance,
    target_areas: r.target_areas,
    employee_limit: r.employee_limit,
    subsidy_rate: r.subsidy_rate,
    max_subsidy_amount_jpy: r.max_subsidy_amount_jpy,
    amount_extraction_status: r.amount_extraction_status,
    official_page_url: r.official_page_url,
    data_completeness_score: r.data_completeness_score,
  };
}
