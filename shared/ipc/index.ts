import { z } from 'zod';
import { CHANNELS, EVENTS, isChannelName, isEventName, type ChannelName, type EventName } from './channels';
import {
  contract, events, zIpcError,
  type ChannelInput, type ChannelOutput, type EventPayload, type IpcError, type IpcReply,
} from './contract';

export * from './channels';
export * from './contract';

/**
 * What both hosts put on `window.tejghea`: the Electron preload (contextBridge) and the web host's
 * bridge (preload/web-bridge.ts). Untyped on purpose at this level; `createIpcClient` adds the types
 * and the checks.
 */
export interface TejgheaBridge {
  invoke(channel: string, payload: unknown): Promise<unknown>;
  /** Returns a function that removes the listener. */
  on(event: string, listener: (payload: unknown) => void): () => void;
}

/** A call that failed: carries the typed error of the reply. */
export class IpcCallError extends Error {
  readonly type: IpcError['type'];
  readonly code: string;
  readonly fields: Record<string, string> | undefined;
  constructor(readonly error: IpcError) {
    super(error.message);
    this.name = 'IpcCallError';
    this.type = error.type;
    this.code = error.code;
    this.fields = error.fields;
  }
}

export interface IpcClient {
  /** Throws IpcCallError on `{ ok: false }`. */
  call<C extends ChannelName>(channel: C, ...input: undefined extends ChannelInput<C> ? [ChannelInput<C>?] : [ChannelInput<C>]): Promise<ChannelOutput<C>>;
  /** The raw reply, for callers that prefer not to catch. */
  request<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<IpcReply<C>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

const zReplyShape = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: zIpcError }),
]);

function clientError(code: 'invalid_payload' | 'invalid_reply' | 'unknown_channel', message: string, fields?: Record<string, string>): IpcError {
  return {
    type: code === 'invalid_payload' ? 'validation_error' : code === 'unknown_channel' ? 'permission_error' : 'internal_error',
    code,
    message,
    ...(fields ? { fields } : {}),
  };
}

/** zod issues -> `{ 'lines.0.quantity': message }`, the shape of `fields`. */
export function fieldsFromIssues(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

/**
 * The renderer's typed client over either host. Inputs are checked before they leave (a bad form
 * fails fast, with `fields`) and replies are checked when they arrive: zod on both sides.
 */
export function createIpcClient(bridge: TejgheaBridge): IpcClient {
  const request = async <C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<IpcReply<C>> => {
    if (!isChannelName(channel)) return { ok: false, error: clientError('unknown_channel', `Unknown channel ${String(channel)}`) };
    const spec = contract[channel];
    const parsedInput = spec.input.safeParse(input);
    if (!parsedInput.success) {
      return { ok: false, error: clientError('invalid_payload', 'Invalid input', fieldsFromIssues(parsedInput.error.issues)) };
    }
    const raw = zReplyShape.safeParse(await bridge.invoke(channel, parsedInput.data));
    if (!raw.success) return { ok: false, error: clientError('invalid_reply', 'Malformed reply') };
    if (!raw.data.ok) return raw.data;
    const value = spec.output.safeParse(raw.data.value);
    if (!value.success) return { ok: false, error: clientError('invalid_reply', 'Reply does not match the contract') };
    return { ok: true, value: value.data as ChannelOutput<C> };
  };
  return {
    request,
    call: async (channel, ...rest) => {
      const reply = await request(channel, rest[0] as ChannelInput<typeof channel>);
      if (!reply.ok) throw new IpcCallError(reply.error);
      return reply.value;
    },
    on: (event, listener) => {
      if (!isEventName(event)) throw new Error(`Unknown event ${String(event)}`);
      const schema = events[event];
      return bridge.on(event, (payload) => {
        const parsed = schema.safeParse(payload);
        if (parsed.success) listener(parsed.data as EventPayload<typeof event>);
      });
    },
  };
}

export const ALL_CHANNELS: readonly ChannelName[] = CHANNELS;
export const ALL_EVENTS: readonly EventName[] = EVENTS;
