import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from './app';
import type { Route } from './routes';

/** Renders a route to HTML for the prerendered pages (`index.html`, `404.html`). */
export function render(route: Route): string {
  return renderToString(
    <StrictMode>
      <App route={route} />
    </StrictMode>,
  );
}
