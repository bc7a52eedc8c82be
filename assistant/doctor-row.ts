/**
 * One line of the doctor's table, written by the provider's checks (doctor.ts) and the court
 * gate's (doctor-gate.ts) alike.
 */

/** `warn` is a risk the owner may accept: it does not make the doctor fail. */
export type CheckStatus = 'ok' | 'fail' | 'warn' | 'skip';

export interface DoctorRow {
  check: string;
  status: CheckStatus;
  /** What was found. */
  detail: string;
  /** What to do, when the check fails. */
  fix?: string;
  /** One of the court gate's checks, which `npm run deploy` requires to pass. */
  gate?: boolean;
}
