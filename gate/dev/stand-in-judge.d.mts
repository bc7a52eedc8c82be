/** The line a card judge's `POST /chat` asks about, or null when the request is not the judge's. */
export function judgedLine(body: unknown): string | null;
/** The stand-in judge's answer about `line`, in the rubric's words ("ALLOW", "REFUSE funds"). */
export function standInVerdict(line: string): string;
