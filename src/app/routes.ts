/** The one page the site has; every other path is the 404 page. */
export type Route = 'home' | 'not-found';

export function routeFor(pathname: string): Route {
  return pathname === '/' || pathname === '/index.html' ? 'home' : 'not-found';
}
