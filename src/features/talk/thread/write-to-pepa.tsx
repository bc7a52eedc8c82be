import { buttonClass } from '../../../components/ui/button-styles';

/** The second control beside Start Talking: the text chat (no voice place, no clock). */
export const WRITE_TO_PEPA = 'Write to Pepa';

export interface WriteToPepaButtonProps {
  onClick(): void;
  /**
   * The visitor is about to press it (a pointer over it, a touch, the focus): the chat's code is
   * fetched now, so the tap itself can put the focus in the field (a phone's keyboard comes up
   * only for a focus given in the tap).
   */
  onIntent?: () => void;
}

/** Write to Pepa: for a visitor without a microphone, or who would rather type. */
export function WriteToPepaButton({ onClick, onIntent }: WriteToPepaButtonProps) {
  return (
    <button
      type="button"
      // A tap before the app starts is kept and replayed, as Start Talking's is.
      data-early=""
      onClick={onClick}
      onPointerEnter={onIntent}
      onTouchStart={onIntent}
      onFocus={onIntent}
      className={buttonClass(
        'outline',
        'md',
        'relative mt-3 w-full max-w-52 sm:mt-8 sm:ml-3 sm:w-auto sm:max-w-none',
      )}
    >
      {WRITE_TO_PEPA}
    </button>
  );
}
