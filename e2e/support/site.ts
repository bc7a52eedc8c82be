// Where the browser suite serves the demo (E2E_PORT, E2E_MOCK_PORT, its build folder): one
// definition for the suites and for `npm run verify`, which builds the demo there once for both.
export { MOCK_PORT, SITE_DIR, SITE_PORT } from '../../scripts/lib/suite-site.mjs';
