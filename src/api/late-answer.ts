/**
 * How long a request whose answer may hold a place (`POST /api/calls`, a check-in) is waited for
 * after its start stopped, so the place it brings can be given back; a gate that answers nothing
 * by then is cut off (the place, if any, is then freed by the court's join backstop). A module of
 * its own, so the browser suites read the same figure without loading the page's client.
 */
export const LATE_ANSWER_MS = 15_000;
