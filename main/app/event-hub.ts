import type { EventName } from '../../shared/ipc/channels';
import type { EventSink } from '../sync/engine';

/** Fans the engine's events out to whoever listens (the web host's sockets; Electron's windows). */
export class EventHub {
  private readonly listeners = new Set<(event: EventName, payload: unknown) => void>();

  readonly emit: EventSink = (event, payload) => {
    for (const listener of this.listeners) listener(event, payload);
  };

  subscribe(listener: (event: EventName, payload: unknown) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
