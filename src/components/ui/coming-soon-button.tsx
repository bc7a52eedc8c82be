import { buttonClass } from './button-styles';

/** A real, disabled button: it says what is coming and cannot be pressed yet. */
export function ComingSoonButton({ className = '' }: { className?: string }) {
  return (
    <button type="button" disabled className={buttonClass('ghost', 'md', className)}>
      Coming Soon
    </button>
  );
}
