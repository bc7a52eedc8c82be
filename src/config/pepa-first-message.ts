/**
 * Pepa's greeting, shared by the live assistant, the offline demo and the text chat (which
 * shows it as her first remark, never sent). A module of its own: the chat's thread needs only
 * this, and the rest of her words (pepa-persona.ts) stay in the demo's own chunk.
 */
export const PEPA_FIRST_MESSAGE =
  "Ribbit! Welcome to my court. I'm Pepa. What shall we talk about?";
