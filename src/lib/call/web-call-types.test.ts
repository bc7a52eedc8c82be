import { describe, expectTypeOf, it } from 'vitest';
import type { Call, VapiWebCallTransport } from '../../../generated/types.gen';
import type { WebCall } from './pepa-call';
import type { roomUrlOf } from './room-url';

// Type-only: the provider client is never loaded by these tests.
describe('the call object and the generated provider client', () => {
  it("joins the generated Call, whose transport is the provider's union of transports", () => {
    expectTypeOf<Call>().toExtend<WebCall>();
    expectTypeOf<VapiWebCallTransport>().toExtend<NonNullable<Call['transport']>>();
    expectTypeOf<Call>().toExtend<Parameters<typeof roomUrlOf>[0]>();
  });
});
