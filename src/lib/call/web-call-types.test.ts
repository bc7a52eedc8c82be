import { describe, expectTypeOf, it } from 'vitest';
import type { Call, createWebCall } from '../../api/vapi';
import type { PepaCallOptions, WebCall } from './pepa-call';

// Type-only: the provider client is never loaded by these tests.
describe('the call object and the generated provider client', () => {
  it('accepts the real web-call function and returns the real Call', () => {
    expectTypeOf<typeof createWebCall>().toExtend<PepaCallOptions<Call>['createWebCall']>();
    expectTypeOf<Call>().toExtend<WebCall>();
  });
});
