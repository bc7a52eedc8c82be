/**
 * Server-sent events read as they arrive: chunks may split a line (or a `\r\n`) anywhere, and an
 * event may span several `data:` lines. Only what the gate reads is kept: each event's data.
 */
export class EventStreamReader {
  private buffer = '';
  private data: string[] = [];
  /** The last chunk ended on `\r`: a `\n` opening the next one belongs to it. */
  private pendingCr = false;

  /** Feeds one chunk of text; returns the data of every event it completed. */
  feed(chunk: string): string[] {
    let text = chunk;
    if (this.pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.pendingCr = text.endsWith('\r');
    this.buffer += text;
    const events: string[] = [];
    const lines = this.buffer.split(/\r\n|\r|\n/);
    this.buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') {
        if (this.data.length > 0) events.push(this.data.join('\n'));
        this.data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      if (field !== 'data') continue;
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      this.data.push(value);
    }
    return events;
  }

  /** The stream ended: an event left without its blank line still counts. */
  end(): string[] {
    const rest = this.buffer === '' ? [] : this.feed('\n');
    const events = [...rest];
    if (this.data.length > 0) events.push(this.data.join('\n'));
    this.data = [];
    this.buffer = '';
    return events;
  }
}

/** One event of the gate's own stream, as `text/event-stream` carries it. */
export function eventOf(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}
