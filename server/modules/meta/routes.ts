import { z } from 'zod';
import { defineRoute, type AnyRoute } from '../../platform/route';
import { prepared } from '../../db/prepared';
import { workPointRoutes } from './work-points';
import { listDeletedRecords } from './deleted-records';

const companyAndWorkPoints = prepared(['companyId'], (db, p: { companyId: string }) =>
  db
    .selectFrom('work_points')
    .innerJoin('companies', 'companies.id', 'work_points.company_id')
    .select(['companies.name as company_name', 'companies.cui', 'work_points.id', 'work_points.name'])
    .where('work_points.company_id', '=', p.companyId)
    .orderBy('work_points.name')
    .orderBy('work_points.id'),
);

/** Who am I: lets a client check its key and learn its company and work point. */
const whoami = defineRoute({
  method: 'GET',
  path: '/me',
  operationId: 'getMe',
  summary: 'The company, work point and scopes of the calling API key',
  description: 'Not in the contract: our design, used by the desktop app to check a key when it is entered and to probe connectivity.',
  tags: ['meta'],
  scope: 'any',
  response: z.object({
    object: z.literal('api_key'),
    key_id: z.string(),
    company: z.object({ id: z.string(), name: z.string(), cui: z.string() }),
    work_point: z.object({ id: z.string(), name: z.string() }),
    work_points: z.array(z.object({ id: z.string(), name: z.string() })),
    scopes: z.array(z.string()),
  }),
  handler: async (ctx) => {
    // One query for the company and its work points, prepared once: this is the route clients probe most.
    const rows = await companyAndWorkPoints.rows(ctx.db, { companyId: ctx.companyId });
    const first = rows[0];
    if (!first) throw new Error(`company ${ctx.companyId} has no work point`);
    const workPoints = rows.map((r) => ({ id: r.id, name: r.name }));
    const current = workPoints.find((w) => w.id === ctx.workPointId);
    if (!current) throw new Error(`work point ${ctx.workPointId} is not one of company ${ctx.companyId}`);
    return {
      object: 'api_key' as const,
      key_id: ctx.auth.keyId,
      company: { id: ctx.companyId, name: first.company_name, cui: first.cui },
      work_point: current,
      work_points: workPoints,
      scopes: ctx.auth.scopes,
    };
  },
});

export const metaRoutes: AnyRoute[] = [whoami, ...workPointRoutes, listDeletedRecords];
