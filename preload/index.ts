import { contextBridge, ipcRenderer } from 'electron';
import { IPC_EVENT, IPC_INVOKE } from '../shared/ipc/channels';
import { createPreloadApi } from './bridge';

/**
 * The Electron preload (sandboxed, context-isolated): exposes only `window.tejghea = { invoke, on }`.
 * No ipcRenderer, no Node, nothing else reaches the page. Bundled as one CommonJS file (a sandboxed
 * preload can require only `electron`), e.g. `esbuild preload/index.ts --bundle --platform=node
 * --format=cjs --external:electron --outfile=dist/preload/index.cjs`.
 */
const api = createPreloadApi({
  invoke: (channel, payload) => ipcRenderer.invoke(IPC_INVOKE, channel, payload),
  subscribe: (listener) => {
    ipcRenderer.on(IPC_EVENT, (_event, name: unknown, payload: unknown) => {
      if (typeof name === 'string') listener(name, payload);
    });
  },
});

contextBridge.exposeInMainWorld('tejghea', api);
