/**
 * The way to allow the microphone, shown where the failure is said (under the status, above the
 * button), so it is in view when the microphone is refused.
 */
export function MicrophoneBlockedNote() {
  return (
    <div
      role="note"
      className="relative mx-auto mt-4 max-w-md rounded-2xl border border-gold-300/40 bg-court-950/70 p-4 text-left text-sm text-mist"
    >
      <p className="font-semibold text-gold-200">
        Pepa can&apos;t hear you: the microphone is blocked.
      </p>
      <p className="mt-1">
        Open the site settings (the icon left of the address), allow the microphone for this site,
        then press Start Talking again.
      </p>
    </div>
  );
}
