// The join timeout and the court's backstop for a call that never joined. On their own, without
// imports: the provider's client, the court's limits and the surge all read them.

/**
 * How long the provider has to let a visitor join a call before it ends the call itself
 * (`customerJoinTimeoutSeconds`, set on every call the gate creates).
 */
export const PROVIDER_JOIN_SECONDS = 20;

/**
 * The backstop for a call that never joined: a call the provider has not said is in progress
 * this long after its admission is looked up, and its place freed unless the provider says it
 * goes on (its own join timeout, and ten seconds for its word to come).
 */
export const JOIN_BACKSTOP_SECONDS = PROVIDER_JOIN_SECONDS + 10;
