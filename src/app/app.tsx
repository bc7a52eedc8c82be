import { useEffect } from 'react';
import { replayEarlyTaps } from './early-taps';
import type { Route } from './routes';
import { HomePage } from './pages/home-page';
import { NotFoundPage } from './pages/not-found-page';

export function App({ route }: { route: Route }) {
  // After the whole page has hydrated (a parent's effect runs after its children's): the taps
  // made before the app started are acted on now.
  useEffect(() => {
    replayEarlyTaps();
  }, []);
  return route === 'home' ? <HomePage /> : <NotFoundPage />;
}
