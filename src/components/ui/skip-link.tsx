/**
 * The first stop for keyboard users: hidden until focused, it jumps past the navigation to the
 * element with `targetId` (which must accept focus, e.g. `tabIndex={-1}`).
 */
export function SkipLink({ targetId, children }: { targetId: string; children: string }) {
  return (
    <a
      href={`#${targetId}`}
      className="sr-only z-[60] rounded-full bg-gold-300 font-semibold text-court-950 shadow-lg focus:not-sr-only focus:fixed focus:px-5 focus:py-3 focus:top-2.5 focus:left-4"
    >
      {children}
    </a>
  );
}
