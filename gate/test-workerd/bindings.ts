/** The gate's variables and secrets in its tests (each test starts from these). */
export const TEST_BINDINGS = {
  VAPI_PRIVATE_KEY: 'test-private-key',
  VAPI_ASSISTANT_ID: 'test-pepa-assistant',
  VAPI_API_URL: 'https://provider.test',
  TURNSTILE_SECRET_KEY: 'test-turnstile-secret',
  TURNSTILE_VERIFY_URL: 'https://siteverify.test/turnstile/v0/siteverify',
  GATE_WEBHOOK_SECRET: 'test-webhook-secret',
  GATE_ADMIN_TOKEN: 'test-admin-token',
  GATE_VISITOR_SALT: 'test-salt',
  GATE_MAX_CONCURRENT_CALLS: '2',
  GATE_DAILY_BUDGET_USD: '25',
  // No pace unless a test sets one: the day's whole budget at midnight.
  GATE_PACE_RELEASES: '1',
  GATE_COST_PER_MINUTE_USD: '0.15',
  GATE_MAX_CALL_SECONDS: '180',
  GATE_VISITOR_CONCURRENT: '1',
  GATE_VISITOR_STARTS_PER_WINDOW: '3',
  GATE_VISITOR_WINDOW_SECONDS: '600',
  // Text's engine is the provider's chat unless a test chooses the model's (its endpoint below).
  GATE_TEXT_ENGINE: 'provider-chat',
  GATE_MODEL_API_URL: 'https://model.test/v1',
  MODEL_API_KEY: 'test-model-key',
  // The origin cards name, whatever host a test's request came to.
  GATE_SITE_ORIGIN: 'https://pepa.test',
} as const;
