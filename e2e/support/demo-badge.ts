// Run inside the page (Playwright's and the engine driver's `evaluate`), so it is self-contained.

/**
 * The words the demo build's 'Demo' badge lies over, if any: every text in the Talk panel, line by
 * line (a paragraph's box is as wide as the panel; its lines are not).
 */
export function wordsUnderDemoBadge() {
  const badge = [...document.querySelectorAll('#talk span')].find(
    (node) => node.textContent?.trim() === 'Demo',
  );
  if (!badge) return ['(no Demo badge)'];
  const mark = badge.getBoundingClientRect();
  const under: string[] = [];
  const walker = document.createTreeWalker(
    document.querySelector('#talk') ?? document.body,
    NodeFilter.SHOW_TEXT,
  );
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    if (badge.contains(text) || !text.textContent?.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(text);
    const hit = [...range.getClientRects()].some(
      (line) =>
        line.width > 0 &&
        line.left < mark.right &&
        mark.left < line.right &&
        line.top < mark.bottom &&
        mark.top < line.bottom,
    );
    if (hit) under.push(text.textContent.trim());
  }
  return under;
}
