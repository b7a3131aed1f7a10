/** Paths and names of the web host's bridge (HTTP for calls, a WebSocket for events). */
export const TOKEN_HEADER = 'x-tejghea-token';
export const INVOKE_PATH = '/__tejghea/invoke';
export const EVENTS_PATH = '/__tejghea/events';
export const BRIDGE_SCRIPT_PATH = '/__tejghea/bridge.js';
/** The subprotocol the server answers with; the client also offers `tejghea.token.<secret>`. */
export const EVENTS_PROTOCOL = 'tejghea.events';
export const TOKEN_PROTOCOL_PREFIX = 'tejghea.token.';
