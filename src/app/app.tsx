import type { Route } from './routes';
import { HomePage } from './pages/home-page';
import { NotFoundPage } from './pages/not-found-page';

export function App({ route }: { route: Route }) {
  return route === 'home' ? <HomePage /> : <NotFoundPage />;
}
