/** The modules the Worker imports that are not code (wrangler.jsonc's `rules`). */
declare module '*.wasm' {
  const compiled: WebAssembly.Module;
  export default compiled;
}

declare module '*.woff' {
  const bytes: ArrayBuffer;
  export default bytes;
}

declare module '*.png' {
  const bytes: ArrayBuffer;
  export default bytes;
}
