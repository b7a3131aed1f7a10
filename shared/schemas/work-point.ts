import { z } from 'zod';
import { zId, zTimestamp } from './common';

/**
 * Work point (punct de lucru): a branch of a company (our design; the contract only names
 * `work_point_id`). An API key belongs to one work point and reaches every work point of its company.
 */
export const zCompanySummary = z.object({
  id: zId,
  object: z.literal('company'),
  name: z.string(),
  cui: z.string(),
});
export type CompanySummary = z.infer<typeof zCompanySummary>;

export const zWorkPoint = z.object({
  id: zId,
  object: z.literal('work_point'),
  company_id: zId,
  name: z.string(),
  /** Printed on the documents issued at this work point. */
  address: z.string().nullable(),
  created_at: zTimestamp,
  updated_at: zTimestamp.nullable(),
  /** Present only with `expand[]=company`. */
  company: zCompanySummary.optional(),
});
export type WorkPoint = z.infer<typeof zWorkPoint>;

const workPointFields = {
  name: z.string().trim().min(1).max(100),
  address: z.string().trim().max(300).nullish(),
};

/** Body of POST /work-points. */
export const zWorkPointCreate = z.object(workPointFields);
export type WorkPointCreate = z.infer<typeof zWorkPointCreate>;

/** Body of PUT /work-points/{id}: the members to change. */
export const zWorkPointUpdate = z
  .object({ name: workPointFields.name.optional(), address: workPointFields.address })
  .refine((v) => v.name !== undefined || v.address !== undefined, {
    message: 'Send at least one of name, address|Trimiteți cel puțin unul dintre name, address',
  });
export type WorkPointUpdate = z.infer<typeof zWorkPointUpdate>;

export const WORK_POINT_SORTS = ['name', 'created_at'] as const;
export const WORK_POINT_EXPANSIONS = ['company'] as const;
