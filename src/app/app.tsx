import type { Route } from './routes';
import { HomePage } from '../features/landing/home-page';
import { NotFoundPage } from '../features/landing/not-found-page';

export function App({ route }: { route: Route }) {
  return route === 'home' ? <HomePage /> : <NotFoundPage />;
}
