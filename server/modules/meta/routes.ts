import { z } from 'zod';
import { defineRoute, type AnyRoute } from '../../platform/route';

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
    const company = await ctx.db.selectFrom('companies').select(['id', 'name', 'cui']).where('id', '=', ctx.companyId).executeTakeFirstOrThrow();
    const workPoints = await ctx.db.selectFrom('work_points').select(['id', 'name']).where('company_id', '=', ctx.companyId).orderBy('name').execute();
    const current = workPoints.find((w) => w.id === ctx.workPointId)!;
    return { object: 'api_key' as const, key_id: ctx.auth.keyId, company, work_point: current, work_points: workPoints, scopes: ctx.auth.scopes };
  },
});

export const metaRoutes: AnyRoute[] = [whoami];
