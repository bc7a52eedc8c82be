/** The remark a card judge's `POST /chat` asks about, or null when the request is not the judge's. */
export function judgedWords(body: unknown): string | null;
/** The stand-in judge's answer about `remark`, in the rubric's words ("ALLOW", "REFUSE funds"). */
export function standInVerdict(remark: string): string;
