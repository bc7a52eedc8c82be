// First, so it records the channel React's scheduler makes as it loads.
import { keepSchedulerAliveAcrossRestores } from './scheduler-channels';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app';
import { routeFor } from './routes';
import '../styles.css';

keepSchedulerAliveAcrossRestores();

const container = document.getElementById('root');
if (!container) throw new Error('The #root element is missing from the page');

const app = (
  <StrictMode>
    <App route={routeFor(window.location.pathname)} />
  </StrictMode>
);

// The built pages are prerendered and hydrate; the dev server serves an empty shell. Hydrating as
// a transition lets React yield to the browser between components, so a tap or a paint never
// waits for the whole page to hydrate.
if (container.firstElementChild) startTransition(() => void hydrateRoot(container, app));
else createRoot(container).render(app);
