/*
 * The site's line icons: 24×24, one stroked path each, drawn for this project. They inherit the
 * text colour and are decorative (aria-hidden): the text next to them carries the meaning.
 */

interface IconProps {
  className?: string;
}

function strokeIcon(d: string) {
  return function StrokeIcon({ className = 'size-6' }: IconProps) {
    return (
      <svg
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.6}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
        className={className}
      >
        <path d={d} />
      </svg>
    );
  };
}

function filledIcon(d: string) {
  return function FilledIcon({ className = 'size-5' }: IconProps) {
    return (
      <svg
        viewBox="0 0 24 24"
        fill="currentColor"
        fillRule="evenodd"
        aria-hidden="true"
        focusable="false"
        className={className}
      >
        <path d={d} />
      </svg>
    );
  };
}

export const CrownIcon = strokeIcon('M3 8l4.5 4L12 5l4.5 7L21 8l-2 10H5zM5 21h14');
export const LilyPadIcon = strokeIcon(
  'M12 13l5.66-5.66A8 8 0 1 1 12 5zM12 13l-4 4M2 21.5h3M19 21.5h3',
);
export const RisingChartIcon = strokeIcon(
  'M4 20h16M6 16v4M11 13v7M16 10v10M4 11l5-5 3 3 7-6M15 3h4v4',
);
export const GossipIcon = strokeIcon(
  'M4 4h10a2 2 0 0 1 2 2v5a2 2 0 0 1-2 2H9l-4 3v-3H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2zM19 8h1a2 2 0 0 1 2 2v5a2 2 0 0 1-2 2h-1v3l-4-3h-4a2 2 0 0 1-2-2v-1',
);
export const SwordsIcon = strokeIcon(
  'M3 3l11 11M11 16l5-5M14 14l5 5M21 3L10 14M8 11l5 5M10 14l-5 5',
);
export const BallotIcon = strokeIcon('M4 13h16v7H4zM8 13V4h8v9M10 8.5l1.5 1.5 3-3');
export const FlameIcon = strokeIcon(
  'M12 21c-4 0-7-2.5-7-6.5 0-3 2-5 3.5-6.5.5 2 1.5 3 2.5 3 0-3 1-6 4-8 0 3 4 5.5 4 11.5 0 4-3 6.5-7 6.5z',
);
export const HangerIcon = strokeIcon('M10 5a2 2 0 1 1 2 2v2l-9 7h18l-9-7');
export const SparklesIcon = strokeIcon(
  'M11 3l1.8 4.7 4.7 1.8-4.7 1.8L11 16l-1.8-4.7-4.7-1.8 4.7-1.8zM19 14l.8 2.2 2.2.8-2.2.8L19 20l-.8-2.2-2.2-.8 2.2-.8z',
);
export const TicketIcon = strokeIcon(
  'M3 8a2 2 0 0 0 2-2h14a2 2 0 0 0 2 2v8a2 2 0 0 0-2 2H5a2 2 0 0 0-2-2zM12 9l.9 1.9 2.1.3-1.5 1.4.4 2.1-1.9-1-1.9 1 .4-2.1L9 11.2l2.1-.3z',
);
export const GemIcon = strokeIcon('M6 3h12l4 6-10 12L2 9zM2 9h20M9 3l3 6 3-6M12 21L9 9M12 21l3-12');
export const CompassIcon = strokeIcon(
  'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM15.5 8.5l-2 5-5 2 2-5z',
);
export const BookIcon = strokeIcon(
  'M2 5c3-1 6-1 10 1v14c-4-2-7-2-10-1zM22 5c-3-1-6-1-10 1v14c4-2 7-2 10-1z',
);
export const GobletIcon = strokeIcon(
  'M7 3h10c0 5-2 8-5 8s-5-3-5-8zM12 11v7M8 21h8M20 3l1-1M19.5 7H21',
);
export const MicIcon = strokeIcon(
  'M12 3a3 3 0 0 1 3 3v5a3 3 0 0 1-6 0V6a3 3 0 0 1 3-3zM5 11a7 7 0 0 0 14 0M12 18v3M9 21h6',
);
/** The microphone struck through: muted. */
export const MicOffIcon = strokeIcon(
  'M15 10V6a3 3 0 0 0-5.7-1.3M9 9v2a3 3 0 0 0 4.9 2.3M5 11a7 7 0 0 0 11.6 5.3M19 11a7 7 0 0 1-.7 3M12 18v3M9 21h6M3 3l18 18',
);
export const MenuIcon = strokeIcon('M4 7h16M4 12h16M4 17h16');
export const CloseIcon = strokeIcon('M6 6l12 12M18 6L6 18');
export const CopyIcon = strokeIcon(
  'M9 9h10a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H9a1 1 0 0 1-1-1V10a1 1 0 0 1 1-1zM16 9V5a1 1 0 0 0-1-1H5a1 1 0 0 0-1 1v10a1 1 0 0 0 1 1h3',
);
export const CheckIcon = strokeIcon('M5 12.5l4.5 4.5L19 7.5');
export const HomeArrowIcon = strokeIcon('M10 6l-6 6 6 6M4 12h16');

export const XLogoIcon = filledIcon(
  'M3 3h6l12 18h-6zM5.6 4.3h2.7l10.1 15.4h-2.7zM18.9 3h2L14 11l-1-1.4zM10 13.4l1 1.4L4.8 21H2.9z',
);
export const TelegramIcon = filledIcon(
  'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zM6.2 11.8l11.1-4.4-1.9 9.2-3.8-2.6-1.6 1.9.1-2.8 4.9-3.8-6.1 3.4z',
);
export const DiscordIcon = filledIcon(
  'M5 5.5c1.6-.7 3.2-1 5-1.1l.5 1c1-.1 2-.1 3 0l.5-1c1.8.1 3.4.4 5 1.1 1.9 2.8 2.9 5.9 3 9.5-1.6 1.4-3.4 2.3-5.3 2.8l-1-1.6c-1.1.3-2.4.5-3.7.5s-2.6-.2-3.7-.5l-1 1.6C5.4 17.3 3.6 16.4 2 15c.1-3.6 1.1-6.7 3-9.5zM9 10.4a1.5 1.7 0 1 0 0 3.4 1.5 1.7 0 0 0 0-3.4zM15 10.4a1.5 1.7 0 1 0 0 3.4 1.5 1.7 0 0 0 0-3.4z',
);
