/**
 * How long the provider has to let a visitor join a call before it ends the call itself
 * (`customerJoinTimeoutSeconds`, set on every call the gate creates). On its own, without
 * imports: the provider's client and the court's limits both read it.
 */
export const PROVIDER_JOIN_SECONDS = 20;
