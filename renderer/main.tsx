import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { connectIpc } from './ipc';
import './styles/app.css';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('#root missing from index.html');
const root = createRoot(rootElement);

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Every read is answered by the local database in a few milliseconds; the host tells us when
      // data changed (`data.changed`), so there is no reason to refetch on focus or retry much.
      staleTime: 5_000,
      retry: 1,
      refetchOnWindowFocus: false,
    },
    mutations: { retry: false },
  },
});

connectIpc()
  .then(() => {
    root.render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <App />
        </QueryClientProvider>
      </StrictMode>,
    );
  })
  .catch((error: unknown) => {
    // No bridge, no app: say so in both languages (there are no settings to pick one from).
    root.render(
      <div className="empty" role="alert">
        <h1>Tejghea</h1>
        <p>Aplicația nu s-a putut conecta la procesul principal. / The app could not reach its host process.</p>
        <p className="muted small">{String(error)}</p>
      </div>,
    );
  });
