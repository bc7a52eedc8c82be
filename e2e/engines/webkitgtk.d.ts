// WebKitGTK's own capability, which WebdriverIO's types do not list: the browser WebKitWebDriver
// starts for a session (./webkit.ts), with its options.
declare namespace WebdriverIO {
  interface Capabilities {
    'webkitgtk:browserOptions'?: { binary: string; args: string[] };
  }
}
