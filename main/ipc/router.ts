import type { z } from 'zod';
import { isChannelName, type ChannelName } from '../../shared/ipc/channels';
import {
  contract, IPC_ERROR_CODES, type ChannelOutput, type ChannelParsedInput, type IpcError, type IpcReply,
} from '../../shared/ipc/contract';
import { fieldsFromIssues } from '../../shared/ipc/index';
import { AppError } from '../errors';

/** Who sent a call: the Electron frame (URL, main frame or not) or the web bridge (its origin). */
export interface SenderInfo {
  host: 'electron' | 'web';
  /** URL of the sending frame (Electron) or the Origin of the request (web host). */
  url: string;
  isMainFrame: boolean;
}

export type SenderCheck = (sender: SenderInfo) => boolean;

export type Handler<C extends ChannelName> = (input: ChannelParsedInput<C>, sender: SenderInfo) => ChannelOutput<C> | Promise<ChannelOutput<C>>;
export type Handlers = { [C in ChannelName]: Handler<C> };
export type HandlerGroup<K extends ChannelName> = { [C in K]: Handler<C> };

export type AnyReply = IpcReply<ChannelName>;

const internal = (): IpcError => ({ type: 'internal_error', code: 'internal_error', message: 'Something went wrong; the details are in the log' });

/**
 * The one entry point of every IPC call, whichever host carried it. In order: the sender must be the
 * app's own page; the channel must be in the contract; the payload must match the channel's input
 * schema; the handler's value must match the output schema. Every failure is a typed reply; an
 * unexpected exception becomes `internal_error` with no message or stack from inside main.
 */
export class IpcRouter {
  constructor(
    private readonly handlers: Handlers,
    private readonly senderAllowed: SenderCheck,
    private readonly log: (message: string, error?: unknown) => void = (m, e) => console.error(`[ipc] ${m}`, e ?? ''),
  ) {}

  async dispatch(channel: unknown, payload: unknown, sender: SenderInfo): Promise<AnyReply> {
    if (!this.senderAllowed(sender)) {
      this.log(`refused a call from ${sender.url}`);
      return { ok: false, error: { type: 'permission_error', code: 'sender_refused', message: 'Calls are accepted from the app only' } };
    }
    if (!isChannelName(channel)) {
      return { ok: false, error: { type: 'permission_error', code: 'unknown_channel', message: 'Unknown channel' } };
    }
    return this.call(channel, payload, sender);
  }

  private async call<C extends ChannelName>(channel: C, payload: unknown, sender: SenderInfo): Promise<AnyReply> {
    const spec = contract[channel];
    const input = (spec.input as z.ZodType).safeParse(payload);
    if (!input.success) {
      return {
        ok: false,
        error: { type: IPC_ERROR_CODES.invalid_payload, code: 'invalid_payload', message: 'Invalid input', fields: fieldsFromIssues(input.error.issues) },
      };
    }
    let value: unknown;
    try {
      const handler = this.handlers[channel] as Handler<C>;
      value = await handler(input.data as ChannelParsedInput<C>, sender);
    } catch (error) {
      if (error instanceof AppError) return { ok: false, error: error.toIpc() };
      this.log(`${channel} failed`, error);
      return { ok: false, error: internal() };
    }
    const output = (spec.output as z.ZodType).safeParse(value);
    if (!output.success) {
      this.log(`${channel} answered outside its contract: ${output.error.message}`);
      return { ok: false, error: internal() };
    }
    return { ok: true, value: output.data } as AnyReply;
  }
}
